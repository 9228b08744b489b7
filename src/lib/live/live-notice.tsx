/**
 * What the person is told of the browser's change stream (docs/live.md, "In the console"; live-changes.ts): while the
 * service refuses it (a 429: the key holds all the streams it may, in other browsers or on other devices), that live
 * updates are paused, that the console tries again on its own and that everything else works; once a stream opens
 * after that, that they resumed, for RESUMED_MS. Nothing otherwise. One polite live region (`role="status"`), there
 * from the start so that both are announced; its texts are the `sentences` catalog area's, loaded when first shown.
 */
import { Alert, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { WithArea, useT } from '@/i18n/react';
import type { LiveState } from './live-changes';

/** How long "Live updates resumed" stays after a pause, in ms. */
export const RESUMED_MS = 10_000;

/** The stream's pause and its end, said in the page (see the module's docstring). */
export function LiveNotice({ state }: { state: LiveState }) {
  const t = useT();
  const paused = useRef(false);
  const [resumed, setResumed] = useState(false);
  useEffect(() => {
    if (state === 'paused') {
      paused.current = true;
      setResumed(false);
    } else if (state === 'live' && paused.current) {
      paused.current = false;
      setResumed(true);
    }
  }, [state]);
  useEffect(() => {
    if (!resumed) return undefined;
    const timer = setTimeout(() => setResumed(false), RESUMED_MS);
    return () => clearTimeout(timer);
  }, [resumed]);
  return (
    <div role="status">
      {state === 'paused' ? (
        <WithArea
          area="sentences"
          render={() => (
            // A group named by its title inside the live region: Alert's own role, `alert`, would be a second live region.
            <Alert role="group" color="orange" title={t('sentences.livePausedTitle')} mb="md">
              {t('sentences.livePaused')}
            </Alert>
          )}
        />
      ) : resumed ? (
        <WithArea
          area="sentences"
          render={() => (
            <Text size="sm" mb="md">
              {t('sentences.liveResumed')}
            </Text>
          )}
        />
      ) : null}
    </div>
  );
}
