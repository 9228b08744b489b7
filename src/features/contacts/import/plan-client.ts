/**
 * The import's plan, from the page (issue 20 points 2, 3 and 6): starts plan-worker.ts on the file, the mapping and
 * the connection, and receives the plan without its steps (`PlanSummary`): the file's rows, the look-ups and the
 * steps stay in the worker. `store` has the worker store the plan as the import's job (for `enqueueStoredJob`) and
 * then stops it; `close` stops it without storing (the person went back or closed the dialog). The worker is also
 * stopped when the plan fails or `signal` aborts (its requests in flight are reads: nothing is lost).
 * `onProgress` follows the cleaning (`clean`: rows cleaned of the file's `rows`), then the look-ups left (`lookup`:
 * done of total). `batched` (the service names `contact-batch`): no look-ups, the batches find what exists. Sets the User Timing marks `import-plan:start`, `cleaned`, `looked-up` and `built`, read by
 * `npm run bench:import`.
 * Resolves to the plan, the look-up requests spent and the key's `X-RateLimit-Limit`; rejects with the first failure
 * in words (the file unreadable, a look-up refused), or with the AbortError when `signal` aborts.
 */
import { currentLocale, t } from '@/i18n/i18n';
import { budgetChannelName, savedReserve } from '@/lib/budgeted-client';
import type { JobTitles } from '@/lib/jobs/workspace-runner';
import { runWorker } from '@/lib/worker-task';
import type { CleanOptions, ContactMapping, ImportMeta, PlanSummary } from './contact-import';
import type { PlanMessage, PlanRequest } from './plan-worker';
import { readFailure } from './read-texts';

export type PlannedImport = {
  plan: PlanSummary;
  lookups: number;
  rateLimit: number | null;
  /** Stores the job (the worker's `JobStore.addJob`; `batched`: creates in batches, `toJobSpec`); resolves to its id, rejects with IndexedDB's words. */
  store(workspaceId: string, meta: ImportMeta, titles: JobTitles, batched?: boolean): Promise<string>;
  close(): void;
};

export function planInWorker(
  source: { file: File; sheet?: string; rows: number },
  mapping: ContactMapping,
  options: CleanOptions,
  connection: { baseUrl: string; apiKey: string },
  progress: { signal?: AbortSignal; onProgress?: (phase: 'clean' | 'lookup', done: number, total: number) => void; batched?: boolean } = {},
): Promise<PlannedImport> {
  const { signal, onProgress, batched = false } = progress;
  performance.mark('import-plan:start');
  const worker = new Worker(new URL('./plan-worker.ts', import.meta.url), { type: 'module', name: 'import-planner' });
  const send = (request: PlanRequest) => worker.postMessage(request);
  const stopped = () => t('contacts-import.plannerStopped');
  let cleaning = true;
  let lookups = { requests: 0, rateLimit: null as number | null };
  const store = (workspaceId: string, meta: ImportMeta, titles: JobTitles, batched = false) => {
    const storing = runWorker<PlanMessage, string>(worker, {
      stopped,
      onMessage(message, settle) {
        if (message.type === 'stored') settle.resolve(message.jobId);
        else if (message.type === 'failed') settle.reject(new Error(message.message));
      },
    });
    send({ type: 'store', workspaceId, meta, titles, batched });
    return storing;
  };
  const planning = runWorker<PlanMessage, PlannedImport>(worker, {
    signal,
    stopped,
    keep: true,
    onMessage(message, settle) {
      switch (message.type) {
        case 'progress':
          if (message.phase === 'clean') onProgress?.('clean', message.done, source.rows);
          else if (!cleaning) onProgress?.('lookup', message.done, message.total);
          break;
        case 'cleaned':
          cleaning = false;
          performance.mark('import-plan:cleaned');
          break;
        case 'looked-up':
          performance.mark('import-plan:looked-up');
          lookups = { requests: message.requests, rateLimit: message.rateLimit };
          break;
        case 'plan':
          performance.mark('import-plan:built');
          settle.resolve({ plan: message.plan, lookups: lookups.requests, rateLimit: lookups.rateLimit, store, close: () => worker.terminate() });
          break;
        case 'error':
          settle.reject(readFailure(message));
          break;
        case 'failed':
          settle.reject(new Error(message.message));
          break;
      }
    },
  });
  const lookupStart = { type: 'start' as const, baseUrl: connection.baseUrl, apiKey: connection.apiKey, channelName: budgetChannelName(connection.baseUrl, connection.apiKey), reserve: savedReserve() };
  send({ type: 'plan', file: source.file, ...(source.sheet === undefined ? {} : { sheet: source.sheet }), mapping, options, locale: currentLocale(), lookups: lookupStart, batched });
  return planning;
}
