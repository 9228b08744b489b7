/**
 * The jobs page of a workspace (`/w/:workspaceId/jobs`, issue 20 point 5): every job, running, paused or finished,
 * newest first, with its progress, rate and time left (while it runs), what it waits for, and why it stopped;
 * Pause, Resume and Cancel while it is unfinished; its report, each part (created, updated, tags changed,
 * unchanged, refused, failed, not sent) downloadable as CSV; and Undo where the interface allows it: the tags a
 * bulk tag job or an import changed are restored by the inverse tag change on exactly the contacts it changed,
 * as a durable job of its own. Created contacts cannot be deleted through the interface: an import's entry says
 * so and links to the contacts carrying its tag. Every text comes from src/lib/jobs/messages.ts.
 */
import { Alert, Anchor, Box, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useWorkspaceApi } from '@/lib/api';
import { type ReportPart, loadReport, reportTableCsv } from '@/lib/jobs/job-report';
import { cancelJob, canUndo, jobStore, pauseJob, resumeJob, undoJob } from '@/lib/jobs/job-runner';
import { type JobRecord, isUnfinished } from '@/lib/jobs/job-types';
import { jobMessages as m } from '@/lib/jobs/messages';
import { jobRate, useJobs, useNow } from '@/lib/jobs/use-jobs';
import { saveFile } from '@/lib/save-file';

const STATE_COLORS: Record<JobRecord['state'], string> = { queued: 'gray', running: 'blue', paused: 'yellow', cancelled: 'orange', done: 'green' };

/** The parts of `job`'s report that have rows, with their counts and labels. */
function reportParts(job: JobRecord): { part: ReportPart; count: number; label: string; word: string }[] {
  const finished = !isUnfinished(job);
  const parts: { part: ReportPart; count: number; label: string; word: string }[] = [
    { part: 'created', count: job.counts.created, label: m.countCreated(job.counts.created), word: m.reportCreated },
    { part: 'updated', count: job.counts.updated, label: m.countUpdated(job.counts.updated), word: m.reportUpdated },
    { part: 'tagged', count: job.counts.tagged, label: m.countTagged(job.counts.tagged), word: m.reportTagged },
    { part: 'unchanged', count: job.unchanged + job.counts.exists, label: m.countUnchanged(job.unchanged + job.counts.exists), word: m.reportUnchanged },
    { part: 'refused', count: job.refused, label: m.countRefused(job.refused), word: m.reportRefused },
    { part: 'failed', count: job.counts.failed, label: m.countFailed(job.counts.failed), word: m.reportFailed },
    { part: 'notSent', count: finished ? job.total - job.settled : 0, label: m.countNotSent(job.total - job.settled), word: m.reportNotSent },
  ];
  return parts.filter((entry) => entry.count > 0);
}

async function download(job: JobRecord, part: ReportPart, word: string) {
  const report = await loadReport(await jobStore(), job);
  const name = `${job.title.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'job'}-${word.replace(/\s+/g, '-')}.csv`;
  saveFile(new Blob([reportTableCsv(report[part])], { type: 'text/csv;charset=utf-8' }), name);
}

function JobEntry({ job, workspaceId, now }: { job: JobRecord; workspaceId: string; now: number }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = (action: () => Promise<unknown>) => {
    setBusy(true);
    void action().finally(() => setBusy(false));
  };
  const { perSecond, secondsLeft } = jobRate(job, now);
  const wait = job.waitingUntil && job.waitingUntil > now ? Math.ceil((job.waitingUntil - now) / 1000) : 0;
  const importTag = typeof job.meta.importTag === 'string' ? job.meta.importTag : null;
  const headingId = `job-${job.id}`;
  return (
    // A bordered box rather than Paper and Badge: sharing those with /connect's page would split them into chunks of
    // their own, adding to that first screen's weight (scripts/first-screens.json).
    <Box component="article" p="md" aria-labelledby={headingId} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4" id={headingId}>
            {job.title}
          </Title>
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {m.kind[job.kind]}
            </Text>
            <Text size="xs" fw={700} data-testid="job-state">
              {m.state[job.state]}
            </Text>
          </Group>
        </Group>
        <Progress value={(job.settled / Math.max(1, job.total)) * 100} aria-label={m.progressLabel(job.title)} color={STATE_COLORS[job.state]} />
        <Text size="sm" aria-live={job.state === 'running' ? 'polite' : undefined}>
          {[m.stepsDone(job.settled, job.total), perSecond ? m.rate(perSecond) : null, secondsLeft !== null && job.settled < job.total ? m.timeLeft(secondsLeft) : null]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        {wait ? (
          <Text size="sm" c="orange" role="status">
            {m.waiting(wait)}
          </Text>
        ) : null}
        {job.stopReason ? (
          <Alert color="red" role="alert" p="xs">
            {m.stopped(job.stopReason)}
          </Alert>
        ) : null}
        {isUnfinished(job) ? (
          <Text size="xs" c="dimmed">
            {m.noRunner}
          </Text>
        ) : null}
        {reportParts(job).length ? (
          <Group gap="xs" role="group" aria-label={`Report of ${job.title}`}>
            {reportParts(job).map(({ part, label, word }) => (
              <Button key={part} size="xs" variant="default" onClick={() => void download(job, part, word)} aria-label={m.download(`${word}: ${label}`)}>
                {label}
              </Button>
            ))}
          </Group>
        ) : null}
        {job.kind === 'contacts-import' && job.counts.created > 0 ? (
          <Text size="sm">
            {m.createdCannotBeDeleted(importTag)}{' '}
            {importTag ? (
              <Anchor component={Link} to={`/w/${workspaceId}/contacts?tags=${encodeURIComponent(importTag)}`}>
                {m.showImported(importTag)}
              </Anchor>
            ) : null}
          </Text>
        ) : null}
        {job.undoneBy ? (
          <Text size="sm" c="dimmed">
            {m.undoneBy}
          </Text>
        ) : null}
        <Group gap="xs">
          {job.state === 'running' || job.state === 'queued' ? (
            <Button size="xs" variant="default" loading={busy} onClick={() => act(() => pauseJob(job.id))}>
              {m.pause}
            </Button>
          ) : null}
          {job.state === 'paused' ? (
            <Button size="xs" loading={busy} onClick={() => act(() => resumeJob(job.id))}>
              {m.resume}
            </Button>
          ) : null}
          {isUnfinished(job) ? (
            <Button size="xs" color="red" variant="light" loading={busy} onClick={() => act(() => cancelJob(job.id))}>
              {m.cancel}
            </Button>
          ) : null}
          {canUndo(job) && !confirming ? (
            <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
              {m.undo}
            </Button>
          ) : null}
        </Group>
        {canUndo(job) && confirming ? (
          <Alert color="yellow" p="xs" role="alertdialog" aria-label={m.undo}>
            <Stack gap="xs">
              <Text size="sm">{m.undoConfirm(job.counts.tagged)}</Text>
              <Group gap="xs">
                <Button size="xs" color="yellow" loading={busy} onClick={() => act(() => undoJob(job.id, m.undoTitle(job.title)).then(() => setConfirming(false)))}>
                  {m.undo}
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                  {m.cancel}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </Box>
  );
}

export function JobsPage() {
  const { workspaceId } = useWorkspaceApi();
  const jobs = useJobs(workspaceId);
  const now = useNow(Boolean(jobs?.some((job) => job.state === 'running')));
  return (
    <Stack>
      <Title order={1}>{m.pageTitle}</Title>
      <Text size="sm" c="dimmed">
        {m.pageIntro}
      </Text>
      {jobs === null ? null : jobs.length === 0 ? <Text>{m.noJobs}</Text> : jobs.map((job) => <JobEntry key={job.id} job={job} workspaceId={workspaceId} now={now} />)}
    </Stack>
  );
}

// The header's progress comes in this page's chunk (src/app/header-tools.tsx): a chunk of its own would split
// shared code out of the first screens' chunks and add to their weight (scripts/first-screens.json).
export { JobIndicator } from '@/lib/jobs/job-indicator';
