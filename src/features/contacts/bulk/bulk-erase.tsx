/**
 * Bulk erasure (issue 22 point 7; `DELETE /contacts/{id}`, our extension `contact-erasure`, docs/decisions.md section 10):
 * "Erase …" in the contacts page's selection bar, over the selected contacts or over every contact matching the
 * filter ("all 1,234 matching"), offered only where the service names `contact-erasure` (the bar says in one line
 * when it does not).
 *
 * The confirmation names what is erased (the contact, its tags, its search entries, its place among post
 * recipients), that it is final and cannot be undone, how many contacts, the requests and their time at the job's
 * share of the key's rate limit, and works only once the number of contacts is typed. Then, for a filter, the
 * contacts are found (bulk-erase-job.ts: progress, Cancel, nothing erased yet); should the filter now match another
 * number, the dialog says so and asks for that number instead. The erasure is handed to the durable job runner
 * (src/lib/jobs/, loaded only now) as one `erase-contact` step per id, ids only, and the dialog closes: the job
 * runs in the background, its report (ids only) on the Jobs page. Texts: the `bulk` catalog, loaded with the
 * selection bar (issue 23); durations and numbers through Intl in the language shown.
 */
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { ErrorMessage } from '@/components/error-message';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { rateLimitOf, savedReserve } from '@/lib/budgeted-client';
import { type CollectProgress, isCancelled } from './bulk-tag-job';
import { bulkEraseSpec, collectErasureIds, erasureEstimate, typedCountMatches } from './bulk-erase-job';
import { type BulkSelection, CollectView, useNow } from './bulk-tags';
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';

/** Minutes as the language shown says them (Intl units): `38 minutes`, `2.5 hours`, `40 seconds` (`38 minutter`). */
function durationWords(minutes: number): string {
  const [value, unit] = minutes < 1 ? [Math.max(1, Math.ceil(minutes * 60)), 'second'] : minutes < 120 ? [Math.ceil(minutes), 'minute'] : [Math.round(minutes / 6) / 10, 'hour'];
  return formatNumber(value as number, { style: 'unit', unit: unit as string, unitDisplay: 'long', maximumFractionDigits: 1 });
}

/** The ids found for a filter whose count differed from the one the person confirmed: they confirm this count now. */
type Found = { ids: string[]; was: number };

export function BulkErase({ selection: current, onDone }: { selection: BulkSelection; onDone: () => void }) {
  const { api, connection } = useWorkspaceApi();
  const t = useT();
  // The dialog keeps the selection it was opened with: the list behind it refreshes as jobs run.
  const [shown, setShown] = useState<BulkSelection | null>(null);
  const selection = shown ?? current;
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const [progress, setProgress] = useState<CollectProgress | null>(null);
  const [failure, setFailure] = useState<{ title: string; error: unknown } | null>(null);
  const [starting, setStarting] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const collecting = progress !== null;
  const now = useNow(collecting);
  const fromFilter = selection.kind === 'matching';
  const size = selection.kind === 'ids' ? selection.ids.length : selection.total;
  const count = found ? found.ids.length : size;
  const limit = rateLimitOf(connection);
  const estimate = erasureEstimate(count, fromFilter && !found, limit, savedReserve());
  const confirmed = count > 0 && typedCountMatches(typed, count);

  const reset = () => {
    setShown(null);
    setTyped('');
    setFound(null);
    setProgress(null);
    setFailure(null);
    setStarting(false);
  };

  const start = async (ids: string[]) => {
    setStarting(true);
    try {
      const { enqueueJob } = await import('@/lib/jobs/workspace-runner');
      await enqueueJob(connection, bulkEraseSpec(ids, fromFilter ? 'filter' : 'selection'));
    } catch (error) {
      setStarting(false);
      setFailure({ title: t('bulk.eraseStoreFailed'), error });
      return;
    }
    notifications.show({ color: 'blue', message: t('bulk.eraseStarted', { count: ids.length }) });
    reset();
    onDone();
  };

  const run = async () => {
    if (!confirmed) return;
    setFailure(null);
    if (selection.kind === 'ids') return start(selection.ids);
    if (found) return start(found.ids);
    controller.current = new AbortController();
    setProgress({ done: 0, total: size, waitingUntil: null });
    let ids: string[];
    try {
      ids = await collectErasureIds({ client: api, filter: selection.filter, signal: controller.current.signal, onProgress: setProgress });
    } catch (error) {
      setProgress(null);
      if (!isCancelled(error)) setFailure({ title: t('bulk.eraseFindFailed'), error });
      return;
    }
    setProgress(null);
    if (ids.length !== size) {
      // The filter matches another number now: the person confirms that number, not the one they saw.
      setFound({ ids, was: size });
      setTyped('');
      return;
    }
    return start(ids);
  };

  const close = () => {
    controller.current?.abort();
    reset();
  };

  return (
    <>
      <Button variant="light" color="red" onClick={() => setShown(current)} disabled={!size}>
        {selection.kind === 'ids' ? t('bulk.eraseOpenSelected', { count: size }) : t('bulk.eraseOpenMatching', { count: size })}
      </Button>
      <Modal opened={shown !== null} onClose={close} title={t('bulk.eraseTitle', { count })} closeButtonProps={{ 'aria-label': t('bulk.eraseClose') }} size="lg">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('bulk.eraseWhat')}</Text>
            <Text size="sm" fw={700}>
              {t('bulk.eraseFinal')}
            </Text>
            <Text size="sm">{selection.kind === 'ids' ? t('bulk.eraseCountSelected', { count }) : t('bulk.eraseCountMatching', { count })}</Text>
            <Text size="sm">
              {estimate.lookups ? t('bulk.eraseRequestsLookups', { count: estimate.requests, lookups: estimate.lookups }) : t('bulk.eraseRequests', { count: estimate.requests })}{' '}
              {estimate.minutes === null || limit === null
                ? t('bulk.eraseNoLimit')
                : t('bulk.eraseTime', { duration: durationWords(estimate.minutes), perMinute: estimate.perMinute!, limit })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('bulk.eraseHow')}
            </Text>
            {found ? (
              <Alert color="orange" role="alert" p="xs">
                {found.ids.length ? t('bulk.eraseChanged', { was: found.was, now: found.ids.length }) : t('bulk.eraseNone')}
              </Alert>
            ) : null}
            {count > 0 ? (
              <TextInput
                label={t('bulk.eraseConfirmLabel', { count })}
                description={t('bulk.eraseConfirmDescription')}
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                disabled={collecting || starting}
                autoComplete="off"
                inputMode="numeric"
                data-autofocus
              />
            ) : null}
            {progress ? <CollectView progress={progress} now={now} /> : null}
            {failure ? (
              <Alert color="red" role="alert" title={failure.title}>
                <ErrorMessage error={failure.error} />
              </Alert>
            ) : null}
            <Group justify="flex-end">
              {collecting ? (
                <Button color="red" variant="light" onClick={() => controller.current?.abort()}>
                  {t('bulk.eraseCancel')}
                </Button>
              ) : (
                <>
                  <Button variant="default" onClick={close}>
                    {t('bulk.eraseCancel')}
                  </Button>
                  <Button type="submit" color="red" disabled={!confirmed} loading={starting}>
                    {t('bulk.eraseButton', { count })}
                  </Button>
                </>
              )}
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
