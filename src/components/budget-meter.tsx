/**
 * The header's request meter (issue 19, point 4): requests left of the key's limit this window and when it refills,
 * shared by every tab and job; at zero, or while a 429 is waited out, it says how long the wait is and how many of
 * this tab's requests are waiting. Shows nothing until the service has sent its `X-RateLimit-*` headers (a service
 * without them is paced by its 429s alone, which the throttle notice tells).
 *
 * The meter is also a button (issue 34 point 7): a transparent button over it opens what it means (budget-details.tsx,
 * loaded when first opened): left this minute, when it refills, what is waiting, and which job takes how much.
 * `jobs`: the workspace has a job (src/lib/jobs/job-watch.ts), so the explanation lists them.
 */
import { Suspense, lazy, useCallback, useId, useRef, useState } from 'react';
import { useT } from '@/i18n/react';
import { useBudgetState, useWorkspaceBudget } from '@/lib/use-rate-budget';
import classes from './budget-meter.module.css';

const BudgetDetails = lazy(() => import('./budget-details').then((m) => ({ default: m.BudgetDetails })));

export function BudgetMeter({ jobs = false }: { jobs?: boolean }) {
  const t = useT();
  const { state, now } = useBudgetState(useWorkspaceBudget());
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);
  const { limit, remaining, resetAt, throttledUntil, waiting } = state;
  if (limit === null || remaining === null) return null;
  const refill = resetAt === null ? 0 : Math.max(0, Math.ceil((resetAt - now) / 1000));
  const wait = Math.max(refill, throttledUntil > now ? Math.ceil((throttledUntil - now) / 1000) : 0);
  const queued = waiting.person + waiting.job;
  const empty = remaining === 0 || throttledUntil > now;
  const label = empty
    ? t('shell.budgetUsedUp', { wait, queued })
    : t('shell.budgetLeft', { remaining, limit, refill });
  return (
    <div className={classes.wrap}>
      <div className={classes.meter} data-empty={empty || undefined} role="meter" aria-label={t('shell.requestsLeft')} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={remaining} aria-valuetext={label}>
        <span className={classes.bar} style={{ width: `${Math.round((remaining / limit) * 100)}%` }} />
        <span className={classes.text}>{empty ? t('shell.budgetWait', { wait }) : `${remaining}/${limit}`}</span>
      </div>
      <button
        ref={button}
        type="button"
        className={classes.button}
        aria-label={t('shell.budgetExplain')}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        title={label}
        onClick={() => setOpen((was) => !was)}
      />
      {open ? (
        <Suspense fallback={null}>
          <BudgetDetails id={id} jobs={jobs} anchor={button} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
