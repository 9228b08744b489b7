/**
 * The header's view of a workspace's running jobs (issue 20 point 4): the oldest unfinished job's title and
 * progress ("Import contacts.csv: 1,234 of 10,000", a thin bar), as a link to the jobs page, in every tab of the
 * workspace whichever tab runs it. Loaded by the shell only once the workspace has a job (job-watch.ts). Plain
 * elements and a CSS module rather than Mantine components: a new chunk sharing Mantine's with the first screens
 * would split them and add to those screens' weight (scripts/first-screens.json).
 */
import { Link } from 'react-router';
import { jobMessages } from './messages';
import { isUnfinished } from './job-types';
import { useJobs } from './use-jobs';
import classes from './job-indicator.module.css';

export function JobIndicator({ workspaceId }: { workspaceId: string }) {
  const jobs = useJobs(workspaceId);
  const active = (jobs ?? []).filter(isUnfinished).sort((a, b) => a.createdAt - b.createdAt);
  const job = active[0];
  if (!job) return null;
  const text = job.state === 'paused' ? jobMessages.headerPaused(job.title) : jobMessages.headerProgress(job.title, job.settled, job.total);
  const more = active.length > 1 ? ` ${jobMessages.headerMore(active.length - 1)}` : '';
  return (
    <Link to={`/w/${workspaceId}/jobs`} className={classes.link} aria-label={`${jobMessages.jobsLink}: ${text}${more}`} data-testid="job-indicator">
      <span className={classes.text} aria-hidden>
        {text}
        {more}
      </span>
      <progress className={classes.bar} max={Math.max(1, job.total)} value={job.settled} aria-label={jobMessages.progressLabel(job.title)} data-paused={job.state === 'paused' || undefined} />
    </Link>
  );
}
