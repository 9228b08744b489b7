/**
 * The main thread's side of lookup-worker.ts (issue 20 point 6): starts the worker for a connection, cuts the keys
 * the cleaning hands it (`addKeys`: lower-cased emails and phones, `RowMerger.keys`) into look-up filters
 * (`LookupBatcher`) and posts each slice's filters to the worker; `end` posts the last ones. `filters` counts the
 * filters made so far. `result` resolves to what `findExisting` resolves to: the existing contacts, the requests spent
 * and the key's `X-RateLimit-Limit`. `result` rejects with an
 * Error carrying the first failure's message, or with the AbortError when `signal` aborts; the worker is stopped
 * either way (its requests in flight are reads: nothing is lost).
 */
import type { FilterNode } from '@/api/filter/ast';
import { LookupBatcher } from './contact-import';
import { t } from '@/i18n/i18n';
import { budgetChannelName, savedReserve } from '@/lib/budgeted-client';
import { runWorker } from '@/lib/worker-task';
import type { LookupResult } from './find-existing';
import type { LookupMessage, LookupRequest } from './lookup-session';

export type WorkerLookups = {
  addKeys(keys: { email: readonly string[]; phone: readonly string[] }): void;
  end(): void;
  readonly filters: number;
  result: Promise<LookupResult>;
};

export function lookUpInWorker(
  connection: { baseUrl: string; apiKey: string },
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): WorkerLookups {
  const { signal, onProgress } = options;
  const worker = new Worker(new URL('./lookup-worker.ts', import.meta.url), { type: 'module', name: 'import-lookups' });
  const send = (message: LookupRequest) => worker.postMessage(message);
  const result = runWorker<LookupMessage, LookupResult>(worker, {
    signal,
    stopped: () => t('contacts-import.lookupsStopped'),
    onMessage(message, settle) {
      if (message.type === 'progress') onProgress?.(message.done, message.total);
      else if (message.type === 'done') settle.resolve({ existing: message.existing, requests: message.requests, rateLimit: message.rateLimit });
      else settle.reject(new Error(message.message));
    },
  });
  send({ type: 'start', baseUrl: connection.baseUrl, apiKey: connection.apiKey, channelName: budgetChannelName(connection.baseUrl, connection.apiKey), reserve: savedReserve() });
  const made: FilterNode[] = [];
  let filters = 0;
  const batchers = { email: new LookupBatcher('email', (filter) => made.push(filter)), phone: new LookupBatcher('phone', (filter) => made.push(filter)) };
  const post = () => {
    if (!made.length) return;
    filters += made.length;
    send({ type: 'filters', filters: made.splice(0) });
  };
  return {
    addKeys(keys) {
      for (const email of keys.email) batchers.email.add(email);
      for (const phone of keys.phone) batchers.phone.add(phone);
      post();
    },
    end() {
      batchers.email.flush();
      batchers.phone.flush();
      post();
      send({ type: 'end' });
    },
    get filters() {
      return filters;
    },
    result,
  };
}
