/**
 * What the header's request meter means (issue 34 point 7), opened by its button (budget-meter.tsx) and loaded then:
 * the key's limit, what is left this window and when it refills, a 429 being waited out, what waits in this tab, the
 * person's reserve, and which job takes how much of the budget (its smoothed rate: src/lib/jobs/use-jobs.ts
 * `jobPace`). Plain elements and a CSS module, as the meter: Mantine's Popover would add its chunk to the first
 * screens. Escape or a click elsewhere closes it. Texts: the `tools` area, job titles the `jobs` area.
 */
import { type RefObject, Suspense, useEffect, useRef } from 'react';
import type { BudgetState } from '@/api/rate-budget';
import { formatDateTime, formatNumber } from '@/i18n/format';
import { useArea, useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { jobTitle } from '@/lib/jobs/job-title';
import { isUnfinished } from '@/lib/jobs/job-types';
import { jobPace, useJobs } from '@/lib/jobs/use-jobs';
import { useBudgetState, useWorkspaceBudget } from '@/lib/use-rate-budget';
import classes from './budget-meter.module.css';

/** Each unfinished job of the workspace and what it takes of the budget now. */
function JobShares({ state, now }: { state: BudgetState; now: number }) {
  useArea('jobs');
  const t = useT();
  const { workspaceId } = useWorkspaceApi();
  const jobs = useJobs(workspaceId);
  if (jobs === null) return null;
  const active = jobs.filter(isUnfinished).sort((a, b) => a.createdAt - b.createdAt);
  if (!active.length) return <p>{t('tools.budgetNoJobs')}</p>;
  const online = typeof navigator === 'undefined' ? true : navigator.onLine;
  return (
    <ul aria-label={t('tools.budgetJobs')}>
      {active.map((job) => {
        const title = jobTitle(job);
        if (job.state === 'paused') return <li key={job.id}>{t('tools.budgetJobPaused', { title })}</li>;
        if (job.state === 'queued') return <li key={job.id}>{t('tools.budgetJobQueued', { title })}</li>;
        const pace = jobPace(job, state, online, now);
        if (!pace.measured) return <li key={job.id}>{t('tools.budgetJobMeasuring', { title })}</li>;
        const perMinute = pace.measured * 60;
        const share = state.limit ? (pace.measured * (state.windowMs ?? 60_000)) / 1000 / state.limit : null;
        return (
          <li key={job.id}>
            {share === null
              ? t('tools.budgetJobRate', { title, rate: formatNumber(perMinute, { maximumFractionDigits: 0 }) })
              : t('tools.budgetJobShare', { title, rate: formatNumber(perMinute, { maximumFractionDigits: 0 }), share: formatNumber(Math.min(1, share), { style: 'percent' }) })}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The explanation, as a non-modal dialog under the meter with the id `id` (the button's `aria-controls`). `jobs`: the
 * workspace has a job, so its jobs are listed (their store is opened only then). `onClose(refocus)`: Escape (the focus
 * goes back to `anchor`) or a press outside the meter and the explanation.
 */
export function BudgetDetails({ id, jobs, anchor, onClose }: { id: string; jobs: boolean; anchor: RefObject<HTMLButtonElement | null>; onClose: (refocus: boolean) => void }) {
  useArea('tools');
  const t = useT();
  const { state, now } = useBudgetState(useWorkspaceBudget());
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose(true);
    };
    const onPress = (event: PointerEvent) => {
      const within = anchor.current?.parentElement;
      if (event.target instanceof Node && within && !within.contains(event.target)) onClose(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
    };
  }, [anchor, onClose]);
  const { limit, remaining, resetAt, throttledUntil, waiting, reserve, windowMs } = state;
  if (limit === null || remaining === null) return null;
  const window = windowMs ?? 60_000;
  const refill = resetAt === null ? null : Math.max(0, Math.ceil((resetAt - now) / 1000));
  const throttled = throttledUntil > now ? Math.ceil((throttledUntil - now) / 1000) : 0;
  return (
    <div ref={box} id={id} className={classes.details} role="dialog" aria-label={t('tools.budgetTitle')} tabIndex={-1}>
      <h3>{t('tools.budgetTitle')}</h3>
      <p>{window === 60_000 ? t('tools.budgetLimitMinute', { limit }) : t('tools.budgetLimitWindow', { limit, seconds: Math.round(window / 1000) })}</p>
      <p>
        {t('tools.budgetLeftNow', { remaining, limit })}{' '}
        {refill === null ? t('tools.budgetRefillUnknown') : t('tools.budgetRefills', { limit, seconds: refill, time: formatDateTime(resetAt ?? now, { timeStyle: 'medium' }) })}
      </p>
      {throttled ? <p>{t('tools.budgetThrottled', { seconds: throttled })}</p> : null}
      <p>{waiting.person + waiting.job ? t('tools.budgetWaiting', { person: waiting.person, job: waiting.job }) : t('tools.budgetNothingWaits')}</p>
      <p>{t('tools.budgetReserve', { reserve: formatNumber(reserve, { style: 'percent' }), count: Math.ceil(limit * reserve) })}</p>
      <h3>{t('tools.budgetJobs')}</h3>
      {jobs ? (
        <Suspense fallback={null}>
          <JobShares state={state} now={now} />
        </Suspense>
      ) : (
        <p>{t('tools.budgetNoJobs')}</p>
      )}
    </div>
  );
}
