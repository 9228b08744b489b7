/**
 * The header's request meter (issue 19, point 4): requests left of the key's limit this window and when it refills,
 * shared by every tab and job; at zero, or while a 429 is waited out, it says how long the wait is and how many of
 * this tab's requests are waiting. Shows nothing until the service has sent its `X-RateLimit-*` headers (a service
 * without them is paced by its 429s alone, which the throttle notice tells).
 */
import { useT } from '@/i18n/react';
import { useBudgetState, useWorkspaceBudget } from '@/lib/use-rate-budget';
import classes from './budget-meter.module.css';

export function BudgetMeter() {
  const t = useT();
  const { state, now } = useBudgetState(useWorkspaceBudget());
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
    <div className={classes.meter} data-empty={empty || undefined} role="meter" aria-label={t('shell.requestsLeft')} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={remaining} aria-valuetext={label} title={label}>
      <span className={classes.bar} style={{ width: `${Math.round((remaining / limit) * 100)}%` }} />
      <span className={classes.text}>{empty ? t('shell.budgetWait', { wait }) : `${remaining}/${limit}`}</span>
    </div>
  );
}
