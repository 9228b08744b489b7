/**
 * The import's plan in a module Web Worker (issue 20 points 2, 3 and 6): reads the file again as it streams
 * (src/lib/import/file-rows.ts), cleans and merges each chunk (`TableCleaner`), cuts the new look-up keys into filters
 * (`LookupBatcher`) and hands them as it goes to look-up workers of its own, each ended after 500 look-ups
 * (lookup-workers.ts: what a request leaves behind is freed with the worker; each has its own rate budget on the
 * key's BroadcastChannel, so the tabs count its requests as another tab's), then builds the plan (`buildPlan`). No
 * table of the file is kept anywhere and the page's thread does none of the work: a 100,000-row file's table held
 * 33 MB on the page, and its cleaning grew the page's heap to 145 MB (bench:import). The refusals are worded here in
 * the language the page shows (`locale`: the `contacts-import` and `sentences` catalogs are loaded first).
 * The plan's steps stay here: the page gets the plan without them (`PlanSummary`), and when the person starts the
 * import this worker stores the job (`JobStore.addJob`, the same IndexedDB database as the page's runner), so the page
 * never holds them (sending 82,821 steps to the page took a 455 ms task there, and held their copies twice).
 * Requests: `plan` (`batched`: the service names `contact-batch`, so nothing is looked up: `planBatched`), then
 * `store` (the workspace, the import's meta, the job's titles, `enqueueStoredJob`, and `batched`: the creates go in
 * batches of 1,000 and a last step tags the contacts that existed).
 * Messages out: `progress` (`clean`: rows cleaned; `lookup`: look-ups done of those made so far), `cleaned` after the
 * last row, `looked-up` after the last look-up, then `plan`; or `error` (the file could not be read, or a catalog
 * could not be loaded) or `failed` (a look-up failed: the typed client's words). After `store`: `stored` with the
 * job's id, or `failed` with IndexedDB's words. The page's side is plan-client.ts.
 */
import type { FilterNode } from '@/api/filter/ast';
import { activateLocale } from '@/i18n/i18n';
import type { Locale } from '@/i18n/locale';
import type { JobTitles } from '@/lib/jobs/workspace-runner';
import { createStore } from '@/lib/jobs/job-store';
import { type CleanOptions, type ContactMapping, type ImportMeta, type ImportPlan, type PlanSummary, LookupBatcher, TableCleaner, buildPlan, toJobSpec } from './contact-import';
import { fileFormat, readFileRows } from '@/lib/import/file-rows';
import type { LookupRequest } from './lookup-session';
import { lookupWorkers } from './lookup-workers';
import { type Existing, emptyExisting } from './existing';

export type PlanRequest =
  | { type: 'plan'; file: File; sheet?: string; mapping: ContactMapping; options: CleanOptions; locale: Locale; lookups: Extract<LookupRequest, { type: 'start' }>; batched?: boolean }
  | { type: 'store'; workspaceId: string; meta: ImportMeta; titles: JobTitles; batched?: boolean };
export type PlanMessage =
  | { type: 'progress'; phase: 'clean'; done: number }
  | { type: 'progress'; phase: 'lookup'; done: number; total: number }
  | { type: 'cleaned' }
  | { type: 'looked-up'; requests: number; rateLimit: number | null }
  | { type: 'plan'; plan: PlanSummary }
  | { type: 'stored'; jobId: string }
  | { type: 'error'; format: 'csv' | 'xlsx'; detail: string }
  | { type: 'failed'; message: string };

/**
 * The file is read in chunks of this many bytes (about 1,300 rows of 200 bytes, 50 to 60 ms of cleaning), so the worker's
 * event loop turns often enough to send the next look-ups while the rest is cleaned.
 */
const PLAN_CHUNK_BYTES = 256 * 1024;

const scope = self as unknown as { postMessage(message: PlanMessage): void; onmessage: ((event: MessageEvent<PlanRequest>) => void) | null };
const post = (message: PlanMessage) => scope.postMessage(message);

/** The plan made, kept until `store` (or the page terminates this worker). */
let made: ImportPlan | null = null;

/**
 * Reads the file again and cleans and merges it chunk by chunk (`TableCleaner`), handing each chunk's new look-up keys
 * to `onKeys` as it goes; resolves to the cleaner once the last row is cleaned.
 */
async function cleanFile(request: Extract<PlanRequest, { type: 'plan' }>, onKeys: (keys: { email: string[]; phone: string[] }) => void): Promise<TableCleaner> {
  let cleaner: TableCleaner | null = null;
  await readFileRows(request.file, request.sheet, PLAN_CHUNK_BYTES, {
    headers: (headers) => (cleaner = new TableCleaner(headers, request.mapping, request.options)),
    rows(rows) {
      cleaner!.add(rows);
      onKeys(cleaner!.takeKeys());
      post({ type: 'progress', phase: 'clean', done: cleaner!.rows });
    },
  });
  post({ type: 'cleaned' });
  return cleaner!;
}

/** Builds the plan (`buildPlan`), keeps it here until `store`, and posts it to the page without its steps. */
function postPlan(cleaner: TableCleaner, existing: Existing, importTag: string | undefined) {
  made = buildPlan(cleaner.result(), existing, importTag);
  const { steps, ...rest } = made;
  post({ type: 'plan', plan: { ...rest, stepCount: steps.length } });
}

async function plan(request: Extract<PlanRequest, { type: 'plan' }>) {
  await activateLocale(request.locale, { needed: ['contacts-import', 'sentences'] });
  if (request.batched) return planBatched(request);
  let cleaner: TableCleaner | null = null;
  const lookUp = lookupWorkers((message) => {
    if (message.type === 'progress') post({ type: 'progress', phase: 'lookup', done: message.done, total: message.total });
    else if (message.type === 'error') post({ type: 'failed', message: message.message });
    else {
      post({ type: 'looked-up', requests: message.requests, rateLimit: message.rateLimit });
      postPlan(cleaner!, message.existing, request.options.importTag);
      cleaner = null;
    }
  });
  lookUp(request.lookups);
  const filters: FilterNode[] = [];
  const batch = (field: 'email' | 'phone') => new LookupBatcher(field, (filter) => filters.push(filter), { unique: true });
  const batchers = { email: batch('email'), phone: batch('phone') };
  const lookUpMade = () => filters.length && lookUp({ type: 'filters', filters: filters.splice(0) });
  cleaner = await cleanFile(request, (keys) => {
    for (const email of keys.email) batchers.email.add(email);
    for (const phone of keys.phone) batchers.phone.add(phone);
    lookUpMade();
  });
  batchers.email.flush();
  batchers.phone.flush();
  lookUpMade();
  lookUp({ type: 'end' });
}

/**
 * The plan where the service takes batches (`contact-batch`, issue 35 point 7): no look-ups at all. Every entry is a
 * create; the batches' answers say which contacts existed (409, with their ids), and the job's last step gives those
 * the file's tags (contact-steps.ts `tag-existing`). A 100,000-row file spent about 2,200 look-ups before: 37 minutes
 * at 60 requests a minute, before the first write.
 */
async function planBatched(request: Extract<PlanRequest, { type: 'plan' }>) {
  const cleaner = await cleanFile(request, () => {});
  post({ type: 'looked-up', requests: 0, rateLimit: null });
  postPlan(cleaner, emptyExisting(), request.options.importTag);
}

/** Stores the plan as the import's job (`toJobSpec`) and lets the plan go. */
async function store(request: Extract<PlanRequest, { type: 'store' }>) {
  if (!made) throw new Error('no plan to store');
  const job = await (await createStore()).addJob(request.workspaceId, { ...toJobSpec(made, request.meta, request.batched ?? false), ...request.titles });
  made = null;
  post({ type: 'stored', jobId: job.id });
}

const failed = (error: unknown) => (error instanceof Error ? error.message : String(error));

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'plan') plan(request).catch((error: unknown) => post({ type: 'error', format: fileFormat(request.file), detail: failed(error) }));
  else store(request).catch((error: unknown) => post({ type: 'failed', message: failed(error) }));
};
