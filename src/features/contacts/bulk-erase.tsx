/**
 * Bulk erasure (issue 22 point 7; `DELETE /contacts/{id}`, our extension `contact-erasure`, decisions.md section 10):
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
 * runs in the background, its report (ids only) on the Jobs page. Texts: ./messages.ts.
 */
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { ErrorMessage } from '@/components/error-message';
import { useWorkspaceApi } from '@/lib/api';
import { rateLimitOf, savedReserve } from '@/lib/budgeted-client';
import { type CollectProgress, isCancelled } from './bulk-tag-job';
import { bulkEraseSpec, collectErasureIds, erasureEstimate, typedCountMatches } from './bulk-erase-job';
import { type BulkSelection, CollectView, useNow } from './bulk-tags';
import { bulkEraseMessages as m } from './messages';

/** The ids found for a filter whose count differed from the one the person confirmed: they confirm this count now. */
type Found = { ids: string[]; was: number };

export function BulkErase({ selection: current, onDone }: { selection: BulkSelection; onDone: () => void }) {
  const { api, connection } = useWorkspaceApi();
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
  const what = selection.kind === 'ids' ? m.whatSelected(size) : m.whatMatching(size);
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
      const { enqueueJob } = await import('@/lib/jobs/job-runner');
      await enqueueJob(connection, bulkEraseSpec(ids, m.jobTitle(ids.length), fromFilter ? 'filter' : 'selection'));
    } catch (error) {
      setStarting(false);
      setFailure({ title: m.storeFailed, error });
      return;
    }
    notifications.show({ color: 'blue', message: m.started(ids.length) });
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
      if (!isCancelled(error)) setFailure({ title: m.findFailed, error });
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
        {m.open(what)}
      </Button>
      <Modal opened={shown !== null} onClose={close} title={m.title(count)} closeButtonProps={{ 'aria-label': m.close }} size="lg">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{m.what}</Text>
            <Text size="sm" fw={700}>
              {m.final}
            </Text>
            <Text size="sm">{selection.kind === 'ids' ? m.countSelected(count) : m.countMatching(count)}</Text>
            <Text size="sm">
              {m.requests(estimate.requests, estimate.lookups)} {estimate.minutes === null || limit === null ? m.noLimit : m.time(estimate.minutes, estimate.perMinute!, limit)}
            </Text>
            <Text size="sm" c="dimmed">
              {m.how}
            </Text>
            {found ? (
              <Alert color="orange" role="alert" p="xs">
                {found.ids.length ? m.changed(found.was, found.ids.length) : m.none}
              </Alert>
            ) : null}
            {count > 0 ? (
              <TextInput
                label={m.confirmLabel(count)}
                description={m.confirmDescription}
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
                  {m.cancel}
                </Button>
              ) : (
                <>
                  <Button variant="default" onClick={close}>
                    {m.cancel}
                  </Button>
                  <Button type="submit" color="red" disabled={!confirmed} loading={starting}>
                    {m.button(count)}
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
