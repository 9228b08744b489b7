import { useT } from '@/i18n/react';
import { Alert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { MAX_BACKOFF_SECONDS, useThrottle } from '@/lib/throttle';
import classes from './throttle-notice.module.css';

/**
 * The visible notice while the service throttles us (429): counts down to the next retry (issue 4), and says
 * when the wait is our own backoff because the service gave no `Retry-After` (issue 15). It sticks under the
 * header while it applies, so it stays in view on a long page (issue 14, point 1).
 */
export function ThrottleNotice() {
  const t = useT();
  const { until, guessed } = useThrottle();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [until]);
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds <= 0) return null;
  return (
    <div className={classes.sticky} data-sticky-top>
      <Alert color="orange" title={t('common.throttledTitle')} role="status">
        {t('common.throttled', { seconds })}
        {guessed ? ` ${t('common.throttledGuess', { max: MAX_BACKOFF_SECONDS })}` : null}
      </Alert>
    </div>
  );
}
