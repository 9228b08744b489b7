/**
 * The jobs page of a workspace (`/w/:workspaceId/jobs`, issue 20 point 5): every job, running, paused or finished,
 * newest first, with its progress, smoothed rate and time left as a range (while it runs, issue 34 point 6), why it
 * waits (the service throttling, the key's budget, no connection), and why it stopped;
 * Pause, Resume and Cancel while it is unfinished; its report, each part (created, updated, tags changed, erased,
 * already erased, unchanged, refused, failed, not sent) downloadable as CSV; and Undo where the interface allows
 * it: where the service keeps an activity log (`activity`, docs/decisions.md section 11) the whole job is undone in one
 * request (batch-undo.tsx); elsewhere the tags a bulk tag job or an import changed are restored by the inverse tag
 * change on exactly the contacts it changed, as a durable job of its own. A bulk erasure's report lists ids only
 * (erased, already erased, failed) and its entry says why it has no undo: erasure is final (issue 22 point 7). An
 * import's entry says which tag its created contacts carry (and `<tag>-updated` for those that existed, issue 34
 * point 1) and links to them. What differs by kind (its name, its undo, what it says of the records it created, that
 * it is final) is asked of the kind's spec, registered by the feature that owns the kind (src/lib/jobs/job-kinds.ts,
 * issue 38 point 4), so this page names no kind; the entries show once the specs are registered (`useKindsReady`).
 * Every text comes from the `jobs` catalog (issue 23, loaded with the page), a job's title in the language shown
 * (job-title.ts).
 */
import { Alert, Anchor, Box, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { formatNumber } from '@/i18n/format';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { type ReportPart, loadReport, reportTableCsv } from '@/lib/jobs/job-report';
import { cancelJob, canUndo, jobStore, pauseJob, resumeJob, undoJob } from '@/lib/jobs/workspace-runner';
import { jobTitle } from '@/lib/jobs/job-title';
import { findJobKind } from '@/lib/jobs/job-kinds';
import { type JobRecord, type JobState, isUnfinished } from '@/lib/jobs/job-types';
import { stopReasonText } from '@/lib/jobs/step-runner';
import { type JobPace, useJobPace, useJobs, useKindsReady, useNow } from '@/lib/jobs/use-jobs';
import { useBudgetState, useWorkspaceBudget } from '@/lib/use-rate-budget';
import { saveFile } from '@/lib/save-file';
import { useExtensions } from '@/lib/extensions';
import { InlineConfirm } from './inline-confirm';

/** A job's undo in one request (issue 33), loaded where the service keeps an activity log. */
const BatchUndo = lazy(() => import('./batch-undo').then((m) => ({ default: m.BatchUndo })));

const STATE_COLORS: Record<JobRecord['state'], string> = { queued: 'gray', running: 'blue', paused: 'yellow', cancelled: 'orange', done: 'green' };

const STATE_KEYS: Record<JobState, string> = {
  queued: 'jobs.stateQueued',
  running: 'jobs.stateRunning',
  paused: 'jobs.statePaused',
  cancelled: 'jobs.stateCancelled',
  done: 'jobs.stateDone',
};

/**
 * Time left as a range people say (issue 34 point 6), in the language shown: seconds under a minute and a half,
 * whole minutes under an hour and a half, else half hours, the low end rounded down and the high end up;
 * "about 12 min left" when both round alike.
 */
export function timeLeftText(low: number, high: number): string {
  if (high < 90) {
    const [from, to] = [Math.floor(low), Math.ceil(high)];
    return from === to ? translate('jobs.leftSeconds', { seconds: to }) : translate('jobs.leftSecondsRange', { from, to });
  }
  if (high < 5400) {
    const [from, to] = [Math.floor(low / 60), Math.ceil(high / 60)];
    return from === to ? translate('jobs.leftMinutes', { minutes: to }) : translate('jobs.leftMinutesRange', { from, to });
  }
  const [from, to] = [Math.floor(low / 1800) / 2, Math.ceil(high / 1800) / 2];
  return translate('jobs.leftHoursRange', { from: formatNumber(from), to: formatNumber(to) });
}

/** The steps a second as people say it: "48 a minute" under one a second, else "12 a second". */
function rateText(perSecond: number): string {
  if (perSecond < 1) return translate('jobs.ratePerMinute', { rate: formatNumber(perSecond * 60, { maximumFractionDigits: 0 }) });
  return translate('jobs.rate', { rate: formatNumber(perSecond, { maximumFractionDigits: perSecond < 10 ? 1 : 0 }) });
}

/** Why a running job waits, in words, with how long where it is known (job-estimate.ts `waitReason`). */
function WaitLine({ pace, reserve }: { pace: JobPace; reserve: number }) {
  const t = useT();
  if (!pace.reason) return null;
  const seconds = pace.waitSeconds;
  const text =
    pace.reason === 'throttled'
      ? t('jobs.waitThrottled', { seconds })
      : pace.reason === 'budget'
        ? t('jobs.waitBudget', { seconds, reserve: formatNumber(reserve, { style: 'percent' }) })
        : seconds > 0
          ? t('jobs.waitNoAnswer', { seconds })
          : t('jobs.waitOffline');
  return (
    <Text size="sm" c="orange" role="status" data-testid="job-wait">
      {text}
    </Text>
  );
}

/** The parts of `job`'s report that have rows, with their counts, labels (`3 created`) and names (`created`), in the language shown. */
function reportParts(job: JobRecord): { part: ReportPart; count: number; label: string; word: string }[] {
  const finished = !isUnfinished(job);
  const t = translate;
  const parts: { part: ReportPart; count: number; label: string; word: string }[] = [
    { part: 'created', count: job.counts.created, label: t('jobs.countCreated', { count: job.counts.created }), word: t('jobs.partCreated') },
    { part: 'updated', count: job.counts.updated, label: t('jobs.countUpdated', { count: job.counts.updated }), word: t('jobs.partUpdated') },
    { part: 'tagged', count: job.counts.tagged, label: t('jobs.countTagged', { count: job.counts.tagged }), word: t('jobs.partTagged') },
    { part: 'erased', count: job.counts.erased ?? 0, label: t('jobs.countErased', { count: job.counts.erased ?? 0 }), word: t('jobs.partErased') },
    { part: 'alreadyErased', count: job.counts.alreadyErased ?? 0, label: t('jobs.countAlreadyErased', { count: job.counts.alreadyErased ?? 0 }), word: t('jobs.partAlreadyErased') },
    { part: 'unchanged', count: job.unchanged + job.counts.exists, label: t('jobs.countUnchanged', { count: job.unchanged + job.counts.exists }), word: t('jobs.partUnchanged') },
    { part: 'refused', count: job.refused, label: t('jobs.countRefused', { count: job.refused }), word: t('jobs.partRefused') },
    { part: 'failed', count: job.counts.failed, label: t('jobs.countFailed', { count: job.counts.failed }), word: t('jobs.partFailed') },
    { part: 'notSent', count: finished ? job.total - job.settled : 0, label: t('jobs.countNotSent', { count: job.total - job.settled }), word: t('jobs.partNotSent') },
  ];
  return parts.filter((entry) => entry.count > 0);
}

/** Saves one part of `job`'s report as CSV, named after the job's title and the part (`Import-x.csv-created.csv`). */
async function download(job: JobRecord, part: ReportPart, word: string) {
  const report = await loadReport(await jobStore(), job);
  const name = `${jobTitle(job).replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'job'}-${word.replace(/\s+/g, '-')}.csv`;
  saveFile(new Blob([reportTableCsv(report[part])], { type: 'text/csv;charset=utf-8' }), name);
}

function JobEntry({ job, workspaceId, now }: { job: JobRecord; workspaceId: string; now: number }) {
  const t = useT();
  const title = jobTitle(job);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = (action: () => Promise<unknown>) => {
    setBusy(true);
    void action().finally(() => setBusy(false));
  };
  const pace = useJobPace(job, now);
  const { reserve } = useBudgetState(useWorkspaceBudget()).state;
  // The kind's spec (src/lib/jobs/job-kinds.ts); none for a kind no feature registers: its record alone shows.
  const kind = findJobKind(job.kind);
  const created = kind?.created && job.counts.created > 0 ? kind.created : null;
  const createdTag = created?.tag(job.meta) ?? null;
  // Our service's activity log undoes a whole job in one request (issue 33 point 7); elsewhere the inverse tag job.
  const extensions = useExtensions();
  const keepsHistory = extensions.has('activity');
  const batchUndo = keepsHistory && !isUnfinished(job) && kind?.final === undefined && job.settled > 0;
  const tagUndo = canUndo(job) && !keepsHistory;
  const headingId = `job-${job.id}`;
  return (
    // A bordered box rather than Paper and Badge: sharing those with /connect's page would split them into chunks of
    // their own, adding to that first screen's weight (scripts/first-screens.json).
    <Box component="article" p="md" aria-labelledby={headingId} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {kind ? t(kind.label) : job.kind}
            </Text>
            <Text size="xs" fw={700} data-testid="job-state">
              {t(STATE_KEYS[job.state])}
            </Text>
          </Group>
        </Group>
        <Progress value={(job.settled / Math.max(1, job.total)) * 100} aria-label={t('jobs.progressLabel', { title })} color={STATE_COLORS[job.state]} />
        <Text size="sm" aria-live={job.state === 'running' ? 'polite' : undefined}>
          {[
            t('jobs.stepsDone', { settled: job.settled, total: job.total }),
            pace.perSecond ? rateText(pace.perSecond) : null,
            pace.left && job.settled < job.total ? timeLeftText(pace.left.low, pace.left.high) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <WaitLine pace={pace} reserve={reserve} />
        {job.stopReason ? (
          <Alert color="red" role="alert" p="xs">
            {stopReasonText(job.stopReason)}
          </Alert>
        ) : null}
        {isUnfinished(job) ? (
          <Text size="xs" c="dimmed">
            {t('jobs.noRunner')}
          </Text>
        ) : null}
        {reportParts(job).length ? (
          <Group gap="xs" role="group" aria-label={t('jobs.reportOf', { title })}>
            {reportParts(job).map(({ part, label, word }) => (
              <Button key={part} size="xs" variant="default" onClick={() => void download(job, part, word)} aria-label={t('jobs.download', { part: word, label })}>
                {label}
              </Button>
            ))}
          </Group>
        ) : null}
        {created ? (
          <Text size="sm">
            {createdTag ? t(created.texts.withTag, { tag: createdTag }) : t(created.texts.noTag)}
            {keepsHistory ? ` ${t(created.texts.undoable)}` : null}{' '}
            {createdTag ? (
              <Anchor component={Link} underline="always" to={`/w/${workspaceId}/${created.list(createdTag)}`}>
                {t(created.texts.show, { tag: createdTag })}
              </Anchor>
            ) : null}
          </Text>
        ) : null}
        {kind?.final ? (
          <Text size="sm" c="dimmed">
            {t(kind.final)}
          </Text>
        ) : null}
        {job.undoneBy ? (
          <Text size="sm" c="dimmed">
            {t('jobs.undoneBy')}
          </Text>
        ) : null}
        <Group gap="xs">
          {job.state === 'running' || job.state === 'queued' ? (
            <Button size="xs" variant="default" loading={busy} onClick={() => act(() => pauseJob(job.id))}>
              {t('jobs.pause')}
            </Button>
          ) : null}
          {job.state === 'paused' ? (
            <Button size="xs" loading={busy} onClick={() => act(() => resumeJob(job.id))}>
              {t('jobs.resume')}
            </Button>
          ) : null}
          {isUnfinished(job) ? (
            <Button size="xs" color="red" variant="light" loading={busy} onClick={() => act(() => cancelJob(job.id))}>
              {t('jobs.cancel')}
            </Button>
          ) : null}
          {tagUndo && !confirming ? (
            <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
              {t('jobs.undo')}
            </Button>
          ) : null}
        </Group>
        {batchUndo ? (
          <Suspense fallback={null}>
            <BatchUndo job={job} workspaceId={workspaceId} />
          </Suspense>
        ) : null}
        {tagUndo && confirming ? (
          <InlineConfirm
            label={t('jobs.undo')}
            message={t('jobs.undoConfirm', { count: job.counts.tagged })}
            confirmLabel={t('jobs.undo')}
            busy={busy}
            onConfirm={() => act(() => undoJob(job.id).then(() => setConfirming(false)))}
            onCancel={() => setConfirming(false)}
          />
        ) : null}
      </Stack>
    </Box>
  );
}

export function JobsPage() {
  const t = useT();
  const { workspaceId } = useWorkspaceApi();
  const jobs = useJobs(workspaceId);
  // Each entry reads its kind's spec as it renders (its name, its undo): shown once the specs are registered.
  const kindsReady = useKindsReady();
  const now = useNow(Boolean(jobs?.some((job) => job.state === 'running')));
  return (
    <Stack>
      <Title order={1}>{t('jobs.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('jobs.intro')}
      </Text>
      {jobs === null || !kindsReady ? null : jobs.length === 0 ? <Text>{t('jobs.none')}</Text> : jobs.map((job) => <JobEntry key={job.id} job={job} workspaceId={workspaceId} now={now} />)}
    </Stack>
  );
}

// The header's progress comes in this page's chunk (src/app/header-tools.tsx): a chunk of its own would split
// shared code out of the first screens' chunks and add to their weight (scripts/first-screens.json).
export { JobIndicator } from '@/lib/jobs/job-indicator';
// The Activity page (issue 33) shares this page's chunk: a chunk of its own split the query library out of the first
// screens' main chunk and added to /connect's weight (scripts/first-screens.json).
export { ActivityPage } from './activity-page';
