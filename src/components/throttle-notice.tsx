import { WithArea, useT } from '@/i18n/react';
import { Alert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { MAX_BACKOFF_SECONDS, useThrottle } from '@/lib/throttle';
import { useBudgetState, useWorkspaceBudget } from '@/lib/use-rate-budget';
import classes from './throttle-notice.module.css';

/**
 * The visible notice while requests wait (issues 4, 15, 19): after a 429, it counts down to the next retry and says
 * when the wait is our own backoff because the service gave no `Retry-After`; while the key's request budget is used
 * up and the person's requests wait in line for it to refill, it says how long and how many wait, and that what is
 * on screen is the last answer. It sticks under the header while it applies (issue 14, point 1). Its texts are in the
 * `sentences` catalog, fetched when it is first shown (issue 23).
 */
export function ThrottleNotice() {
  const t = useT();
  const { until, guessed } = useThrottle();
  const budget = useBudgetState(useWorkspaceBudget());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [until]);
  const seconds = Math.ceil((until - Math.max(now, budget.now)) / 1000);
  const { waiting, throttledUntil, resetAt } = budget.state;
  const waitUntil = Math.max(throttledUntil, resetAt ?? 0);
  const budgetSeconds = Math.ceil((waitUntil - budget.now) / 1000);
  if (seconds > 0) {
    return (
      <div className={classes.sticky} data-sticky-top>
        <WithArea
          area="sentences"
          render={() => (
            <Alert color="orange" title={t('sentences.throttledTitle')} role="status">
              {t('sentences.throttled', { seconds })} {t('sentences.lastAnswer')}
              {guessed ? ` ${t('sentences.throttledGuess', { max: MAX_BACKOFF_SECONDS })}` : null}
            </Alert>
          )}
        />
      </div>
    );
  }
  if (waiting.person === 0 || budgetSeconds <= 0) return null;
  return (
    <div className={classes.sticky} data-sticky-top>
      <WithArea
        area="sentences"
        render={() => (
          <Alert color="orange" title={t('sentences.budgetWaitTitle')} role="status">
            {t('sentences.budgetWait', { seconds: budgetSeconds, person: waiting.person })}
            {waiting.job ? t('sentences.budgetWaitJob', { job: waiting.job }) : ''}. {t('sentences.lastAnswer')}
          </Alert>
        )}
      />
    </div>
  );
}
