/**
 * Bulk tags (issue 5): add or remove one tag on every selected contact, one PATCH each, 4 at a time, with a
 * progress bar, pausing while the service asks to wait (429, `Retry-After`), then a summary of what failed
 * and why. Closing after a run without failures clears the selection.
 */
import { Alert, Button, Group, List, Modal, Progress, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type PoolProgress, type PoolResult, runPool } from '@/lib/run-pool';
import { useWorkspaceApi } from '@/lib/api';
import { contactQueries } from './queries';

export function BulkTags({ contactIds, onDone }: { contactIds: string[]; onDone: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [mode, setMode] = useState<'add' | 'remove'>('add');
  const [tag, setTag] = useState('');
  const [progress, setProgress] = useState<PoolProgress | null>(null);
  const [result, setResult] = useState<PoolResult<string, void> | null>(null);
  const running = progress !== null && result === null;
  const clean = tag.trim();

  const run = async () => {
    setResult(null);
    setProgress({ done: 0, total: contactIds.length, failed: 0, waitingUntil: null });
    const outcome = await runPool(
      contactIds,
      (contactId) => api.patchContactTags(contactId, mode === 'add' ? { tagsToAdd: [clean] } : { tagsToRemove: [clean] }),
      { concurrency: 4, onProgress: setProgress },
    );
    setResult(outcome);
    await contactQueries.refreshAfterJob(queryClient, workspaceId);
  };

  const close = () => {
    if (running) return;
    // A run with no failures is finished: the selection has served its purpose.
    if (result && !result.failures.length) onDone();
    setOpened(false);
    setProgress(null);
    setResult(null);
    setTag('');
  };

  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)} disabled={!contactIds.length}>
        Tag {contactIds.length} selected
      </Button>
      <Modal opened={opened} onClose={close} title={`Tags for ${contactIds.length} selected contacts`} closeButtonProps={{ 'aria-label': 'Close bulk tags' }}>
        <Stack>
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value as 'add' | 'remove')}
            data={[
              { value: 'add', label: 'Add tag' },
              { value: 'remove', label: 'Remove tag' },
            ]}
            disabled={running}
            aria-label="Add or remove"
          />
          <TextInput label="Tag" value={tag} onChange={(event) => setTag(event.currentTarget.value)} maxLength={64} disabled={running} />
          {progress ? (
            <Stack gap={4}>
              <Progress value={(progress.done / Math.max(1, progress.total)) * 100} aria-label="Bulk tag progress" />
              <Text size="sm" aria-live="polite">
                {progress.done} of {progress.total} done{progress.failed ? `, ${progress.failed} failed` : ''}
                {progress.waitingUntil ? ' · paused: the service asked to wait' : ''}
              </Text>
            </Stack>
          ) : null}
          {result ? (
            result.failures.length ? (
              <Alert color="red" title={`${result.failures.length} of ${contactIds.length} not changed`} role="alert">
                <List size="sm">
                  {result.failures.slice(0, 20).map((failure) => (
                    <List.Item key={failure.index}>
                      {failure.item}: {failure.reason}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            ) : (
              <Alert color="green" title="Done" role="status">
                {mode === 'add' ? 'Added' : 'Removed'} “{clean}” on all {contactIds.length} contacts.
              </Alert>
            )
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={running}>
              Close
            </Button>
            <Button onClick={() => void run()} loading={running} disabled={!clean || clean.length > 64}>
              {mode === 'add' ? 'Add' : 'Remove'} tag
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
