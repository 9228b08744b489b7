/**
 * The durable job runner of a browser tab (issue 20 points 4 and 5): one runner per workspace across the tabs of
 * the browser, holding the Web Lock `runnerLockName(workspaceId)` (`navigator.locks`) while it lives. The tab
 * that holds the lock runs the workspace's jobs one after another, oldest first (step-runner.ts); the other tabs
 * that have the workspace's key wait for the lock, so when the runner's tab closes, reloads or crashes, the next
 * one takes over and resumes the job where it stopped. A tab with no key for the workspace (src/lib/connections.ts:
 * keys are never stored with the jobs) runs nothing: the job resumes once the console is open with the key.
 *
 * Tabs tell each other on the BroadcastChannel `JOBS_CHANNEL` (job-names.ts): `changed` when a job is added,
 * paused, resumed, cancelled or ends, `progress` as a job runs (a few times a second). Pause and cancel are
 * written to the job's record by whichever tab the person uses; the runner's tab hears `changed`, reads the
 * record, and stops starting steps (those in flight finish and are stored).
 *
 * While this tab runs a job and no other tab of the workspace waits to take over, leaving the page asks first
 * (`beforeunload`).
 *
 * This module is loaded only when a job exists or starts (job-watch.ts decides, with a check of its own that
 * needs neither this code nor idb).
 */
import type { SavedConnection } from '@/lib/connections';
import { getConnection } from '@/lib/connections';
import { budgetedClient, rateLimitOf } from '@/lib/budgeted-client';
import { JOBS_CHANNEL, type JobMessage, runnerLockName, kindsReady } from './job-names';
import { type JobStore, createStore } from './job-store';
import type { JobRecord, JobSpec, JobStep } from './job-types';
import { KeyRefusedError, STOPPED_PREFIX, runJob } from './step-runner';
import { stepHandler } from './step-kinds';
import { UNDO_KIND, findJobKind } from './job-kinds';
import { loadAreaSettled } from '@/i18n/i18n';
import { renderTitle, titleFromMeta, undoTitle } from './job-title';

let storePromise: Promise<JobStore> | null = null;

/** The tab's store, opened once. */
export function jobStore(): Promise<JobStore> {
  storePromise ??= createStore();
  return storePromise;
}

type Listener = (message: JobMessage) => void;
const listeners = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function jobsChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(JOBS_CHANNEL) : null;
    channel?.addEventListener('message', (event: MessageEvent<JobMessage>) => {
      for (const listener of listeners) listener(event.data);
    });
  }
  return channel;
}

/** Tells this tab and the others (`JobMessage`). */
export function publish(message: JobMessage): void {
  jobsChannel()?.postMessage(message);
  for (const listener of listeners) listener(message);
}

/** Calls `listener` with every job message of any tab; returns the function that stops listening. */
export function listen(listener: Listener): () => void {
  jobsChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The list `job` changes, the area of its React Query keys (docs/style.md, "Queries": `'ws', workspaceId, <area>`):
 * its kind's `changes` (job-kinds.ts, issue 38 point 4), else, for a job made as another's undo (`meta.undoOf`), the
 * list of the job it undoes, read from `store`; null when neither says (a kind not registered, an undo whose job is
 * gone).
 */
export async function changedList(store: Pick<JobStore, 'getJob'>, job: Pick<JobRecord, 'kind' | 'meta'>): Promise<string | null> {
  const own = findJobKind(job.kind)?.changes;
  if (own !== undefined) return own;
  const undone = typeof job.meta.undoOf === 'string' ? await store.getJob(job.meta.undoOf) : undefined;
  return undone ? changedList(store, undone) : null;
}

/**
 * Asks every tab, this one included, to refetch the list `job` changed (`changedList`) on src/lib/data-changed.ts's
 * channel, as `{ queryKey: ['ws', workspaceId, area] }`; nothing when it changed none. Resolves once posted.
 */
export async function announceDataChanged(store: Pick<JobStore, 'getJob'>, job: JobRecord): Promise<void> {
  if (typeof BroadcastChannel !== 'function') return;
  const area = await changedList(store, job);
  if (area === null) return;
  // A channel object of its own: data-changed.ts's object in this tab hears it too.
  const data = new BroadcastChannel('workspace-admin.data-changed');
  data.postMessage({ queryKey: ['ws', job.workspaceId, area] });
  data.close();
}

/**
 * Requests in flight at once for `connection`: with no known limit (a service that sends no `X-RateLimit-Limit`,
 * such as ours with `RATE_LIMIT_PER_MINUTE=0`) 16, which reaches 500 creates a second; with a limit, one per 300
 * requests a minute (1 at 60 a minute, at most 16), so few steps are marked sent while they wait for the budget.
 */
export function concurrencyFor(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey'>): number {
  const limit = rateLimitOf(connection);
  return limit === null || limit <= 0 ? 16 : Math.max(1, Math.min(16, Math.ceil(limit / 300)));
}

type Runner = { current: { jobId: string; stop: AbortController } | null; othersWaiting: boolean };
const runners = new Map<string, Runner>();

/** True while this tab runs a job of `workspaceId` (for the header). */
export function runsHere(workspaceId: string): boolean {
  return Boolean(runners.get(workspaceId)?.current);
}

/** Resolves at the next job message about `workspaceId`, or after `ms`. */
function nextChange(workspaceId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const stop = listen((message) => {
      if (message.workspaceId === workspaceId && message.type === 'changed') done();
    });
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
}

/** Pauses between progress messages, in ms. */
const PROGRESS_MS = 250;

/** The loop of the tab holding the workspace's lock: runs its runnable jobs, oldest first, then waits for more. */
async function serve(workspaceId: string, runner: Runner): Promise<never> {
  const store = await jobStore();
  for (;;) {
    const connection = getConnection(workspaceId);
    const jobs = connection ? await store.listJobs(workspaceId) : [];
    const job = jobs.filter((candidate) => candidate.state === 'running' || candidate.state === 'queued').sort((a, b) => a.createdAt - b.createdAt)[0];
    if (!connection || !job) {
      await nextChange(workspaceId, 5000);
      continue;
    }
    const stop = new AbortController();
    runner.current = { jobId: job.id, stop };
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let latest: JobRecord = job;
    const send = () => {
      timer = null;
      last = Date.now();
      publish({ type: 'progress', workspaceId, job: latest });
    };
    const unlisten = listen((message) => {
      if (message.type !== 'changed' || message.jobId !== job.id) return;
      // Another tab (or this one) paused or cancelled it: stop starting steps.
      void store.getJob(job.id).then((record) => {
        if (record && record.state !== 'running') stop.abort();
      });
    });
    try {
      await runJob({
        store,
        client: budgetedClient(connection),
        jobId: job.id,
        stop: stop.signal,
        concurrency: () => concurrencyFor(connection),
        onProgress: (record) => {
          latest = record;
          if (timer === null) timer = setTimeout(send, Math.max(0, PROGRESS_MS - (Date.now() - last)));
        },
      });
    } catch (error) {
      // Stored as English text (records of every age hold it); the jobs page shows it in the language shown (stopText).
      const reason = error instanceof KeyRefusedError ? error.message : `${STOPPED_PREFIX}${error instanceof Error ? error.message : String(error)}`;
      await store.transition(job.id, ['running', 'queued'], 'paused', { stopReason: reason, waitingUntil: null }).catch(() => null);
    } finally {
      unlisten();
      if (timer !== null) clearTimeout(timer);
      runner.current = null;
    }
    const after = await store.getJob(job.id);
    if (after) {
      publish({ type: 'progress', workspaceId, job: after });
      if (after.state !== 'running') await announceDataChanged(store, after).catch(() => undefined);
    }
    publish({ type: 'changed', workspaceId, jobId: job.id });
  }
}

/** Keeps `othersWaiting` current: whether another tab waits for the workspace's lock (it would take the job over). */
function watchOthers(workspaceId: string, runner: Runner) {
  const name = runnerLockName(workspaceId);
  const check = () => {
    if (!runner.current) return;
    void navigator.locks.query().then((snapshot) => {
      runner.othersWaiting = (snapshot.pending ?? []).some((lock) => lock.name === name);
    });
  };
  setInterval(check, 1000);
  window.addEventListener('beforeunload', (event) => {
    if (runner.current && !runner.othersWaiting) {
      event.preventDefault();
      event.returnValue = '';
    }
  });
}

/**
 * Starts this tab's runner for `workspaceId` (once per tab; later calls do nothing): it waits for the
 * workspace's Web Lock, then serves the workspace's jobs for as long as the tab lives. Without Web Locks (an old
 * browser) it serves at once, so two such tabs could run one job side by side: every write carries its
 * Idempotency-Key, which keeps that from creating anything twice on a service that honours it.
 */
export function startJobRunner(workspaceId: string): void {
  if (runners.has(workspaceId)) return;
  const runner: Runner = { current: null, othersWaiting: false };
  runners.set(workspaceId, runner);
  if (typeof navigator !== 'undefined' && navigator.locks) {
    watchOthers(workspaceId, runner);
    void navigator.locks.request(runnerLockName(workspaceId), () => serve(workspaceId, runner));
  } else {
    void serve(workspaceId, runner);
  }
}

/** What a job's title is stored as: its `title` and `titleMessage` (see `JobSpec`), the keys left out when absent. */
export type JobTitles = Pick<JobSpec, 'title' | 'titleMessage'>;

/**
 * Stores `spec` as a job of `connection`'s workspace and starts it: in this tab, or in the tab that holds the
 * workspace's runner lock. Resolves to its id once stored (the steps are in IndexedDB: a reload resumes it).
 * Rejects with IndexedDB's error when the browser refuses to store it (private mode, quota), or as
 * `enqueueStoredJob` does.
 */
export async function enqueueJob(connection: Pick<SavedConnection, 'workspaceId'>, spec: JobSpec): Promise<string> {
  return enqueueStoredJob(connection, spec, spec.steps.length, async (titles) => (await (await jobStore()).addJob(connection.workspaceId, { ...spec, ...titles })).id);
}

/**
 * `enqueueJob` for a job whose steps are held elsewhere (the contacts import's plan worker stores an import's steps
 * itself, so the page never holds them: issue 20 point 6): `add` stores the job with the titles given (`JobStore.addJob`
 * in its own context) and resolves to its id; then the job starts as `enqueueJob` starts it. `head` and `steps` (how
 * many) are what the title is made of, by the kind's spec when `head` has no `titleMessage` (job-title.ts
 * `titleFromMeta`, once the kinds are registered: job-names.ts `kindsReady`). Rejects with `add`'s error, or with the
 * kinds' import error (a chunk that failed to load), storing nothing.
 */
export async function enqueueStoredJob(
  connection: Pick<SavedConnection, 'workspaceId'>,
  head: Pick<JobSpec, 'kind' | 'title' | 'titleMessage' | 'meta'>,
  steps: number,
  add: (titles: JobTitles) => Promise<string>,
): Promise<string> {
  if (!head.titleMessage) await kindsReady();
  const titleMessage = head.titleMessage ?? titleFromMeta(head.kind, head.meta, steps) ?? undefined;
  let title = head.title;
  if (title === undefined && titleMessage) {
    await loadAreaSettled('jobs');
    title = renderTitle(titleMessage) ?? undefined;
  }
  const id = await add({ ...(title !== undefined ? { title } : {}), ...(titleMessage ? { titleMessage } : {}) });
  startJobRunner(connection.workspaceId);
  publish({ type: 'changed', workspaceId: connection.workspaceId, jobId: id });
  return id;
}

/**
 * Stops this tab's run of job `jobId`, if this tab runs it, at once (another tab's runner hears the `changed`
 * message): called after the state left `running`, so no step starts and no waiting write leaves in the meantime.
 */
function stopLocalRun(jobId: string, workspaceId: string) {
  const current = runners.get(workspaceId)?.current;
  if (current?.jobId === jobId) current.stop.abort();
}

/** Pauses job `jobId` (no new step starts, writes waiting for the budget are withdrawn; those in flight finish). No-op unless queued or running. */
export async function pauseJob(jobId: string): Promise<void> {
  const job = await (await jobStore()).transition(jobId, ['queued', 'running'], 'paused', { waitingUntil: null });
  if (!job) return;
  stopLocalRun(jobId, job.workspaceId);
  publish({ type: 'changed', workspaceId: job.workspaceId, jobId });
}

/** Resumes a paused job (it runs again where it stopped). No-op unless paused. */
export async function resumeJob(jobId: string): Promise<void> {
  const job = await (await jobStore()).transition(jobId, ['paused'], 'running', { stopReason: null });
  if (!job) return;
  startJobRunner(job.workspaceId);
  publish({ type: 'changed', workspaceId: job.workspaceId, jobId });
}

/** Cancels a job: steps not yet sent (or still waiting for the budget) are never sent; those in flight finish. No-op for a finished job. */
export async function cancelJob(jobId: string): Promise<void> {
  const job = await (await jobStore()).transition(jobId, ['queued', 'running', 'paused'], 'cancelled', { finishedAt: Date.now(), waitingUntil: null });
  if (!job) return;
  stopLocalRun(jobId, job.workspaceId);
  publish({ type: 'changed', workspaceId: job.workspaceId, jobId });
}

/**
 * The steps that undo job `jobId`: for each settled step, the inverse its kind's handler gives (`StepHandler.undo`,
 * step-kinds.ts: a tag patch's inverse patch on the same contact). Kinds with no inverse through the interface
 * (creates, product upserts, erasures) have no `undo` and are left out.
 * @throws UnknownStepKindError for a settled step whose kind has no handler registered.
 */
export async function undoSteps(store: JobStore, jobId: string): Promise<JobStep[]> {
  await kindsReady();
  const steps: JobStep[] = [];
  await store.eachStep(jobId, (record) => {
    if (!record.outcome) return;
    const inverse = stepHandler(record.step.kind).undo?.(record.step, record.outcome);
    if (inverse) steps.push(inverse);
  });
  return steps;
}

/**
 * True when job `job` can be undone by a job of inverse steps: finished (done or cancelled), not undone yet, with tag
 * changes made, and of a kind whose spec says it may be (`JobKindSpec.undoable`, job-kinds.ts: issue 38 point 4; a
 * bulk erasure never can, erasure being final: docs/decisions.md section 10). False for a kind not registered: the
 * caller awaits job-names.ts `kindsReady()` first (the Jobs page: use-jobs.ts `useKindsReady`).
 */
export function canUndo(job: JobRecord): boolean {
  return (job.state === 'done' || job.state === 'cancelled') && job.undoneBy === null && job.counts.tagged > 0 && findJobKind(job.kind)?.undoable === true;
}

/**
 * Starts the undo of job `jobId` as a durable job of its own (the engine's `UNDO_KIND`, job-kinds.ts: its source
 * `console/undo`, the list of the job it undoes; titled "Undo: " and the job's title: job-title.ts `undoTitle`, in
 * the language shown wherever it is read), and records it on the job so it is undone once. Resolves to the undo
 * job's id; rejects with a `RangeError` when the job cannot be undone (`canUndo`).
 */
export async function undoJob(jobId: string): Promise<string> {
  const store = await jobStore();
  const job = await store.getJob(jobId);
  await kindsReady();
  if (!job || !canUndo(job)) throw new RangeError('This job has no tag changes left to undo');
  const steps = await undoSteps(store, jobId);
  const titleMessage = undoTitle(job);
  const id = await enqueueJob(job, { kind: UNDO_KIND.kind, titleMessage, steps, meta: { undoOf: jobId } });
  await store.annotate(jobId, { undoneBy: id });
  publish({ type: 'changed', workspaceId: job.workspaceId, jobId });
  return id;
}
