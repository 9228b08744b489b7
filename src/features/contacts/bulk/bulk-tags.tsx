/**
 * Bulk tags (issues 5, 13, 19 point 6 and 20): add and/or remove several tags on the selected contacts, or on every
 * contact matching the filter ("Select all 1,234 matching"). Tags are chosen from the workspace's own with
 * suggestions (an existing tag first when a typed one differs only in case), or new.
 *
 * Apply first finds the contacts (bulk-tag-job.ts `collectBulkTargets`: progress, a countdown while the service
 * asks to wait, Cancel at any moment, nothing changed yet), then hands the change to the durable job runner
 * (src/lib/jobs/, loaded only now) as one tag patch per contact it alters, and closes: the job goes on in the
 * background, its progress in the header, its report, pause, cancel and undo on the Jobs page, and a reload or a
 * closed tab resumes it. The dialog promises nothing more (issue 19 point 6). Texts: the `contacts` catalog (issue 23);
 * the job's title is worded by the runner from the change (src/lib/jobs/job-title.ts, the `jobs` catalog).
 *
 * Where the service names `contact-batch` (docs/decisions.md section 12; issue 35 point 8), Apply finds nothing
 * first: it hands the runner a job of one `POST /contacts/tags` over the filter (or one per 1,000 chosen ids,
 * `bulkTagRequestSpec`), waits for it and says how many contacts matched and changed; undo is the job's, on the
 * Jobs page, as for any job.
 */
import { areaLoaded, t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { contactTagsPatchSchema } from '@/api/contacts';
import type { FilterNode } from '@/api/filter/ast';
import { formatIssues } from '@/api/validation-message';
import '@/api/zod-messages';
import { ErrorMessage } from '@/components/error-message';
import { TagsField } from '@/components/tags-field';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { loadErrorSentences, messageSentences } from '@/lib/error-sentence';
import { type BulkSource, type CollectProgress, type TagChange, bulkTagRequestSpec, bulkTagSpec, collectBulkTargets, isCancelled } from './bulk-tag-job';
import type { SavedConnection } from '@/lib/connections';

/**
 * Runs a bulk tag change as requests of our service (`bulkTagRequestSpec`) on the job runner and waits for the
 * job to end (done, cancelled or paused); resolves to the contacts the service matched and changed. Rejects with
 * IndexedDB's error when the job cannot be stored.
 */
async function tagInRequests(connection: SavedConnection, source: BulkSource, change: TagChange, chosen: number): Promise<{ matched: number; changed: number }> {
  const { enqueueJob, jobStore } = await import('@/lib/jobs/workspace-runner');
  const id = await enqueueJob(connection, bulkTagRequestSpec(source, change, chosen));
  const store = await jobStore();
  for (;;) {
    const job = await store.getJob(id);
    if (!job || (job.state !== 'queued' && job.state !== 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let matched = 0;
  let changed = 0;
  await store.eachStep(id, (step) => {
    if (step.outcome?.kind !== 'tagged') return;
    matched += step.outcome.matched ?? 0;
    changed += step.outcome.changed ?? 0;
  });
  return { matched, changed };
}
import { contactQueries } from '../queries';

/** The notice once the job is stored: how many contacts it changes, and those already as asked or no longer found. */
function startedText(count: number, unchanged: number, missing: number): string {
  return [
    t('bulk.bulkStarted', { count }),
    unchanged ? t('bulk.bulkStartedUnchanged', { count: unchanged }) : '',
    missing ? t('bulk.bulkStartedMissing', { count: missing }) : '',
  ].join('') + t('bulk.bulkStartedFollow');
}

/** What the dialog works on: chosen contacts, or everything `filter` matches (`total` when chosen, for the labels). */
export type BulkSelection = { kind: 'ids'; ids: string[] } | { kind: 'matching'; filter: FilterNode | undefined; total: number };

/** The epoch ms, refreshed every 250 ms while `active` (for the countdown). */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function CollectView({ progress, now }: { progress: CollectProgress; now: number }) {
  const wait = progress.waitingUntil ? Math.max(0, Math.ceil((progress.waitingUntil - now) / 1000)) : 0;
  const t = useT();
  return (
    <Stack gap={4}>
      <Progress value={(progress.done / Math.max(1, progress.total)) * 100} aria-label={t('bulk.bulkFinding')} />
      <Text size="sm" aria-live="polite">
        {t('bulk.bulkFindingCount', { done: progress.done, total: progress.total })}
      </Text>
      {progress.waitingUntil ? (
        <Alert color="orange" role="status" p="xs" title={t('bulk.bulkWaitTitle')}>
          {t('bulk.bulkWait', { seconds: wait })}
        </Alert>
      ) : null}
    </Stack>
  );
}

export function BulkTags({ selection: current, onDone }: { selection: BulkSelection; onDone: () => void }) {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const t = useT();
  // The dialog keeps the selection it was opened with: the lists behind it refresh as jobs run.
  const [shown, setShown] = useState<BulkSelection | null>(null);
  const opened = shown !== null;
  const selection = shown ?? current;
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: opened });
  const existing = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  const [tagsToAdd, setTagsToAdd] = useState<string[]>([]);
  const [tagsToRemove, setTagsToRemove] = useState<string[]>([]);
  const [progress, setProgress] = useState<CollectProgress | null>(null);
  const [failure, setFailure] = useState<{ title: string; error: unknown } | null>(null);
  const [nothing, setNothing] = useState<number | null>(null);
  const inRequests = useExtensions().has('contact-batch');
  const [answered, setAnswered] = useState<{ matched: number; changed: number } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const collecting = progress !== null;
  const now = useNow(collecting);
  const size = selection.kind === 'ids' ? selection.ids.length : selection.total;
  // The tags' checks speak through the `sentences` catalog (issue 23), fetched when the dialog opens. Until it is in,
  // no sentence is written: a key asked of a catalog not loaded is shown as itself, and Lingui logs it as an
  // "Uncompiled message" (issue 34 point 9: sentences.errTagsNeeded, nounBody and nounItems, written at every render
  // of the closed dialog for its empty choice).
  const [sentences, setSentences] = useState(() => areaLoaded('sentences'));
  useEffect(() => {
    if (opened) void loadErrorSentences().then(() => setSentences(areaLoaded('sentences')));
  }, [opened]);
  const matching = selection.kind === 'matching';

  const checked = contactTagsPatchSchema.safeParse({ tagsToAdd, tagsToRemove });
  const nothingChosen = !tagsToAdd.length && !tagsToRemove.length;
  const problems = checked.success || nothingChosen || !sentences ? [] : messageSentences(formatIssues(checked.error.issues), { tagsToAdd, tagsToRemove });

  const reset = () => {
    setShown(null);
    setProgress(null);
    setFailure(null);
    setNothing(null);
    setAnswered(null);
    setTagsToAdd([]);
    setTagsToRemove([]);
  };

  const run = async () => {
    controller.current = new AbortController();
    setFailure(null);
    setNothing(null);
    setProgress({ done: 0, total: size, waitingUntil: null });
    const source: BulkSource = selection.kind === 'ids' ? { ids: selection.ids } : { filter: selection.filter };
    if (inRequests) {
      try {
        setAnswered(await tagInRequests(connection, source, { tagsToAdd, tagsToRemove }, size));
      } catch (error) {
        setFailure({ title: t('bulk.bulkStoreFailed'), error });
      }
      setProgress(null);
      return;
    }
    let spec;
    try {
      const collected = await collectBulkTargets({
        client: api,
        source: selection.kind === 'ids' ? { ids: selection.ids } : { filter: selection.filter },
        signal: controller.current.signal,
        onProgress: setProgress,
      });
      spec = bulkTagSpec(collected, { tagsToAdd, tagsToRemove });
      if (!spec.steps.length) {
        setProgress(null);
        setNothing(collected.targets.length);
        return;
      }
      const { enqueueJob } = await import('@/lib/jobs/workspace-runner');
      try {
        await enqueueJob(connection, spec);
      } catch (error) {
        setProgress(null);
        setFailure({ title: t('bulk.bulkStoreFailed'), error });
        return;
      }
      notifications.show({ color: 'blue', message: startedText(spec.steps.length, spec.report?.unchangedRecords?.length ?? 0, collected.missing) });
      onDone();
      reset();
    } catch (error) {
      setProgress(null);
      if (!isCancelled(error)) setFailure({ title: t('bulk.bulkStopped'), error });
    }
  };

  const close = () => {
    controller.current?.abort();
    reset();
  };

  return (
    <>
      <Button variant="light" onClick={() => setShown(current)} disabled={!size}>
        {t(matching ? 'bulk.tagMatching' : 'bulk.tagSelected', { count: size })}
      </Button>
      <Modal opened={opened} onClose={close} title={t(matching ? 'bulk.tagsForMatching' : 'bulk.tagsForSelected', { count: size })} closeButtonProps={{ 'aria-label': t('bulk.closeBulk') }} size="lg">
        <Stack>
          <TagsField label={t('bulk.tagsToAdd')} existing={existing} value={tagsToAdd} onChange={setTagsToAdd} disabled={collecting} clearable />
          <TagsField label={t('bulk.tagsToRemove')} existing={existing} value={tagsToRemove} onChange={setTagsToRemove} disabled={collecting} clearable />
          {!nothingChosen && problems.length ? (
            <Text size="sm" c="red" role="alert">
              {problems.join(' ')}
            </Text>
          ) : null}
          <Text size="sm" c="dimmed">
            {t(inRequests ? 'bulk.bulkHowInOne' : 'bulk.bulkHow')}
          </Text>
          {progress && !inRequests ? <CollectView progress={progress} now={now} /> : null}
          {answered ? (
            <Alert color="green" role="status">
              {t('bulk.bulkAnswered', { matched: answered.matched, changed: answered.changed })}
            </Alert>
          ) : null}
          {nothing !== null ? (
            <Alert color="green" role="status">
              {t('bulk.bulkNothingToDo', { count: nothing })}
            </Alert>
          ) : null}
          {failure ? (
            <Alert color="red" role="alert" title={failure.title}>
              <ErrorMessage error={failure.error} />
            </Alert>
          ) : null}
          <Group justify="flex-end">
            {answered ? (
              <Button
                onClick={() => {
                  onDone();
                  reset();
                }}
              >
                {t('bulk.closeBulk')}
              </Button>
            ) : collecting && inRequests ? (
              <Button loading>{t('bulk.applyTo', { count: size })}</Button>
            ) : collecting ? (
              <Button color="red" variant="light" onClick={() => controller.current?.abort()}>
                {t('shell.cancel')}
              </Button>
            ) : (
              <Button onClick={() => void run()} disabled={nothingChosen || !checked.success}>
                {t('bulk.applyTo', { count: size })}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
