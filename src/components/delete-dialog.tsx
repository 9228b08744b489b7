/**
 * The confirmation of deleting records (issue 22 point 9: products and collections, one or a selection), worded
 * by the caller: it says what goes and that it is final, then deletes the records one request at a time (the
 * service deletes one per request), showing how far it got; the first refusal stops it and shows the error with
 * what was already deleted (Delete again resumes with the rest). `onDone(deleted)` gets the ids deleted: all, or on
 * closing after a refusal those before it. Texts (issue 23): the `forms` catalog area, loaded by its callers
 * (src/components/catalog-delete.tsx).
 */
import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorMessage } from './error-message';
import { useT } from '@/i18n/react';

export type DeleteDialogProps = {
  title: string;
  /** What is deleted and that it is final. */
  text: string;
  confirmLabel: string;
  ids: readonly string[];
  remove: (id: string) => Promise<void>;
  onCancel: () => void;
  onDone: (deleted: string[]) => void;
};

export function DeleteDialog({ title, text, confirmLabel, ids, remove, onCancel, onDone }: DeleteDialogProps) {
  const t = useT();
  const [done, setDone] = useState<string[]>([]);
  // Closing after a refusal part-way reports what was deleted before it.
  const close = () => (done.length ? onDone(done) : onCancel());
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setRunning(true);
    setError(null);
    const deleted: string[] = [...done];
    for (const id of ids.filter((candidate) => !deleted.includes(candidate))) {
      try {
        await remove(id);
        deleted.push(id);
        setDone([...deleted]);
      } catch (failure) {
        setError(failure);
        setRunning(false);
        return;
      }
    }
    setRunning(false);
    onDone(deleted);
  };
  return (
    <Modal opened onClose={running ? () => undefined : close} title={title} closeButtonProps={{ 'aria-label': t('forms.close') }} centered>
      <Stack gap="sm">
        <Text size="sm">{text}</Text>
        {running && ids.length > 1 ? (
          <>
            <Progress value={(done.length / ids.length) * 100} aria-label={t('forms.deleting', { done: done.length, total: ids.length })} />
            <Text size="xs" c="dimmed" aria-live="polite">
              {t('forms.deleting', { done: done.length, total: ids.length })}
            </Text>
          </>
        ) : null}
        {error ? (
          <Alert color="red" role="alert" title={done.length ? t('forms.deleteFailedAfter', { done: done.length, total: ids.length }) : undefined}>
            <ErrorMessage error={error} />
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={running}>
            {t('forms.cancel')}
          </Button>
          <Button color="red" loading={running} onClick={() => void run()}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
