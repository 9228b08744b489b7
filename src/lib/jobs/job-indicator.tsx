/**
 * The header's view of a workspace's running jobs (issue 20 point 4): the oldest unfinished job's title and
 * progress ("Import contacts.csv: 1,234 of 10,000", a thin bar), as a link to the jobs page, in every tab of the
 * workspace whichever tab runs it. Loaded by the shell only once the workspace has a job (job-watch.ts).
 */
import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { jobMessages } from './messages';
import { isUnfinished } from './job-types';
import { useJobs } from './use-jobs';

export function JobIndicator({ workspaceId }: { workspaceId: string }) {
  const jobs = useJobs(workspaceId);
  const active = (jobs ?? []).filter(isUnfinished).sort((a, b) => a.createdAt - b.createdAt);
  const job = active[0];
  if (!job) return null;
  const text = job.state === 'paused' ? jobMessages.headerPaused(job.title) : jobMessages.headerProgress(job.title, job.settled, job.total);
  const more = active.length > 1 ? ` ${jobMessages.headerMore(active.length - 1)}` : '';
  return (
    <Anchor component={Link} to={`/w/${workspaceId}/jobs`} underline="never" c="inherit" aria-label={`${jobMessages.jobsLink}: ${text}${more}`} data-testid="job-indicator">
      <Stack gap={2} w={180}>
        <Text size="xs" truncate="end" aria-hidden>
          {text}
          {more}
        </Text>
        <Progress size="sm" value={(job.settled / Math.max(1, job.total)) * 100} color={job.state === 'paused' ? 'gray' : undefined} aria-label={jobMessages.progressLabel(job.title)} />
      </Stack>
    </Anchor>
  );
}
