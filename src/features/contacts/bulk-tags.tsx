/**
 * Bulk tags (issues 5 and 13): add and/or remove several tags on the selected contacts, or on every contact
 * matching the filter ("Select all 1,234 matching"). Tags are chosen from the workspace's own with suggestions
 * (an existing tag first when a typed one differs only in case), or new. The job (bulk-tag-job.ts) first collects
 * the contacts, then tags them 4 at a time; the dialog shows done of total, the rate and the time left, a
 * countdown while the service asks to wait (429, `Retry-After`), a Cancel button that works at any moment, and a
 * summary: changed, unchanged, failed with reasons in sentences. When the job ends, however it ends, the contact
 * lists, counts and tags are refreshed, in every tab (`contactQueries.refreshAfterJob`). Closing after a run without
 * failures clears the selection.
 */
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { Alert, Button, Group, List, Modal, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { contactTagsPatchSchema } from '@/api/contacts';
import type { FilterNode } from '@/api/filter/ast';
import { formatIssues } from '@/api/validation-message';
import { ErrorMessage } from '@/components/error-message';
import { TagsField } from '@/components/tags-field';
import { useWorkspaceApi } from '@/lib/api';
import { durationText } from '@/lib/duration';
import { messageSentences } from '@/lib/error-sentence';
import { type BulkProgress, type BulkResult, rateOf, runBulkTagJob } from './bulk-tag-job';
import { contactQueries } from './queries';

/** What the dialog works on: chosen contacts, or everything `filter` matches (`total` when chosen, for the labels). */
export type BulkSelection = { kind: 'ids'; ids: string[] } | { kind: 'matching'; filter: FilterNode | undefined; total: number };


/** The epoch ms, refreshed every 250 ms while `active` (for countdowns and rates). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function ProgressView({ progress, now }: { progress: BulkProgress; now: number }) {
  const { perSecond, secondsLeft } = rateOf(progress, now);
  const wait = progress.waitingUntil ? Math.max(0, Math.ceil((progress.waitingUntil - now) / 1000)) : 0;
  const percent = (progress.done / Math.max(1, progress.total)) * 100;
  const t = useT();
  return (
    <Stack gap={4}>
      <Progress value={percent} aria-label={progress.phase === 'collecting' ? t('contacts.bulkFinding') : t('contacts.bulkProgress')} />
      <Text size="sm" aria-live="polite">
        {progress.phase === 'collecting'
          ? t('contacts.bulkFindingCount', { done: progress.done, total: progress.total })
          : `${t('contacts.bulkDone', { done: progress.done, total: progress.total })}${progress.failed ? `, ${t('contacts.bulkFailed', { failed: progress.failed })}` : ''}`}
        {perSecond && progress.phase === 'tagging' ? ` · ${t('contacts.bulkRate', { rate: formatNumber(perSecond, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) })}` : ''}
        {secondsLeft !== null && progress.phase === 'tagging' && progress.done < progress.total ? ` · ${t('contacts.bulkLeft', { time: durationText(secondsLeft) })}` : ''}
      </Text>
      {progress.waitingUntil ? (
        <Alert color="orange" role="status" p="xs" title={t('contacts.bulkPaused')}>
          {t('contacts.bulkResuming', { seconds: wait })}
        </Alert>
      ) : null}
    </Stack>
  );
}

function Summary({ result }: { result: BulkResult }) {
  const byReason = new Map<string, string[]>();
  for (const failure of result.failures) byReason.set(failure.reason, [...(byReason.get(failure.reason) ?? []), failure.label]);
  const t = useT();
  const parts = [t('contacts.sumChanged', { count: result.changed }), t('contacts.sumUnchanged', { count: result.unchanged })];
  if (result.failures.length) parts.push(t('contacts.sumFailed', { count: result.failures.length }));
  if (result.missing) parts.push(t('contacts.sumMissing', { count: result.missing }));
  if (result.cancelled) parts.push(t('contacts.sumNotReached', { count: result.notReached }));
  const ok = !result.failures.length && !result.cancelled;
  return (
    <Alert color={ok ? 'green' : result.failures.length ? 'red' : 'yellow'} title={result.cancelled ? t('contacts.cancelled') : t('contacts.done')} role={ok ? 'status' : 'alert'}>
      <Text size="sm">{parts.join(', ')}.</Text>
      {byReason.size ? (
        <List size="sm" mt="xs">
          {[...byReason].map(([reason, labels]) => (
            <List.Item key={reason}>
              {reason} ({labels.slice(0, 5).join(', ')}
              {labels.length > 5 ? ` ${t('contacts.andOthers', { count: labels.length - 5 })}` : ''})
            </List.Item>
          ))}
        </List>
      ) : null}
    </Alert>
  );
}

export function BulkTags({ selection: current, onDone }: { selection: BulkSelection; onDone: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const t = useT();
  // The dialog keeps the selection it was opened with: the lists behind it refresh (and may empty) as the job runs.
  const [shown, setShown] = useState<BulkSelection | null>(null);
  const opened = shown !== null;
  const selection = shown ?? current;
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: opened });
  const existing = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  const [tagsToAdd, setTagsToAdd] = useState<string[]>([]);
  const [tagsToRemove, setTagsToRemove] = useState<string[]>([]);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  const running = progress !== null && result === null && failure === null;
  const now = useNow(running);
  const size = selection.kind === 'ids' ? selection.ids.length : selection.total;
  const matching = selection.kind === 'matching';

  const checked = contactTagsPatchSchema.safeParse({ tagsToAdd, tagsToRemove });
  const problems = checked.success ? [] : messageSentences(formatIssues(checked.error.issues));
  const nothingChosen = !tagsToAdd.length && !tagsToRemove.length;

  const run = async () => {
    controller.current = new AbortController();
    setResult(null);
    setFailure(null);
    setProgress({ phase: 'collecting', done: 0, total: size, failed: 0, waitingUntil: null, startedAt: Date.now() });
    try {
      setResult(
        await runBulkTagJob({
          client: api,
          source: selection.kind === 'ids' ? { ids: selection.ids } : { filter: selection.filter },
          change: { tagsToAdd, tagsToRemove },
          signal: controller.current.signal,
          onProgress: setProgress,
        }),
      );
    } catch (error) {
      setFailure(error);
    } finally {
      await contactQueries.refreshAfterJob(queryClient, workspaceId);
    }
  };

  const close = () => {
    if (running) return;
    if (result && !result.failures.length && !result.cancelled) onDone();
    setShown(null);
    setProgress(null);
    setResult(null);
    setFailure(null);
    setTagsToAdd([]);
    setTagsToRemove([]);
  };

  return (
    <>
      <Button variant="light" onClick={() => setShown(current)} disabled={!size}>
        {t(matching ? 'contacts.tagMatching' : 'contacts.tagSelected', { count: size })}
      </Button>
      <Modal opened={opened} onClose={close} title={t(matching ? 'contacts.tagsForMatching' : 'contacts.tagsForSelected', { count: size })} closeButtonProps={{ 'aria-label': t('contacts.closeBulk'), disabled: running }} size="lg">
        <Stack>
          <TagsField label={t('contacts.tagsToAdd')} existing={existing} value={tagsToAdd} onChange={setTagsToAdd} disabled={running} clearable />
          <TagsField label={t('contacts.tagsToRemove')} existing={existing} value={tagsToRemove} onChange={setTagsToRemove} disabled={running} clearable />
          {!nothingChosen && problems.length ? (
            <Text size="sm" c="red" role="alert">
              {problems.join(' ')}
            </Text>
          ) : null}
          {progress && !result && !failure ? <ProgressView progress={progress} now={now} /> : null}
          {result ? <Summary result={result} /> : null}
          {failure ? (
            <Alert color="red" role="alert" title={t('contacts.bulkStopped')}>
              <ErrorMessage error={failure} />
            </Alert>
          ) : null}
          <Group justify="flex-end">
            {running ? (
              <Button color="red" variant="light" onClick={() => controller.current?.abort()}>
                {t('common.cancel')}
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={close}>
                  {t('common.close')}
                </Button>
                <Button onClick={() => void run()} disabled={nothingChosen || problems.length > 0}>
                  {t('contacts.applyTo', { count: size })}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
