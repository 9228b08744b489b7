/**
 * The header's view of a workspace's running jobs (issue 20 point 4): the oldest unfinished job's title and
 * progress ("Import contacts.csv: 1,234 of 10,000", a thin bar), as a link to the jobs page, in every tab of the
 * workspace whichever tab runs it. Loaded by the shell only once the workspace has a job (job-watch.ts). Plain
 * elements and a CSS module rather than Mantine components: a new chunk sharing Mantine's with the first screens
 * would split them and add to those screens' weight (scripts/first-screens.json). Texts: the `jobs` catalog
 * (issue 23), fetched when the indicator first shows (it suspends until then); the title in the language shown
 * (job-title.ts).
 */
import { Link } from 'react-router';
import { useArea, useT } from '@/i18n/react';
import { isUnfinished } from './job-types';
import { jobTitle } from './job-title';
import { useJobs } from './use-jobs';
import classes from './job-indicator.module.css';

export function JobIndicator({ workspaceId }: { workspaceId: string }) {
  useArea('jobs');
  const t = useT();
  const jobs = useJobs(workspaceId);
  const active = (jobs ?? []).filter(isUnfinished).sort((a, b) => a.createdAt - b.createdAt);
  const job = active[0];
  if (!job) return null;
  const title = jobTitle(job);
  const text = job.state === 'paused' ? t('jobs.headerPaused', { title }) : t('jobs.headerProgress', { title, settled: job.settled, total: job.total });
  const more = active.length > 1 ? ` ${t('jobs.headerMore', { count: active.length - 1 })}` : '';
  return (
    <Link to={`/w/${workspaceId}/jobs`} className={classes.link} aria-label={t('jobs.indicator', { progress: `${text}${more}` })} data-testid="job-indicator">
      <span className={classes.text} aria-hidden>
        {text}
        {more}
      </span>
      <progress className={classes.bar} max={Math.max(1, job.total)} value={job.settled} aria-label={t('jobs.progressLabel', { title })} data-paused={job.state === 'paused' || undefined} />
    </Link>
  );
}
