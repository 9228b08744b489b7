/**
 * Runs one stored job to its end, or until stopped (issue 20 point 4), framework-free so it is unit-tested in
 * Node against the real service (fake-indexeddb for the store). Each step is sent by the handler of its kind
 * (step-kinds.ts, registered by the feature that owns the kind: issue 38 point 4), with the activity headers of its
 * job's kind (job-kinds.ts); this module names no kind.
 *
 * For each step, in order, `concurrency` at a time:
 * 1. the step is stored as `sent` (the transaction committed) before its request leaves, with the pending steps
 *    queued behind it in the same transaction, as many as run at once (one write per batch, not per step);
 * 2. the request carries `Idempotency-Key: <jobId>.<index>` (stable per job and step; docs/decisions.md section 9)
 *    and priority `job`, so the key's shared rate budget paces it and keeps a reserve for the person
 *    (src/api/rate-budget.ts), and the activity headers (docs/decisions.md section 11): `Activity-Source`, the job
 *    kind's `source` (`JobKindSpec`), so our service's activity log names the console's job, and `Activity-Batch:
 *    <jobId>`, so the whole job is one batch that the Jobs page can undo in one request (`POST /activity/revert`); a
 *    service without the log ignores both;
 * 3. the answer is stored as the step's outcome, with the job's counts and position, in the same batch; the next
 *    step does not wait for that write (the step stays `sent` until it commits), and the write may wait up to
 *    `LAZY_WRITE_MS` (job-store.ts) to share its transaction with other outcomes.
 *
 * A step found `sent` without an outcome (the tab died, the connection dropped, a 5xx) had its answer lost: its
 * handler is called with `lost` set (a write that is not safe to repeat looks its record up first; see the contacts
 * feature's contact-steps.ts). The service's "in progress" 409 to a repeated Idempotency-Key waits and tries again.
 * A 429 waits for its `Retry-After` (else 1 s doubling to 60 s). 401 or 403 stops the job (`KeyRefusedError`): the
 * key is the person's to fix. A step whose kind has no handler stops the run too (`UnknownStepKindError`, the step
 * left unsent), as a job whose kind has no spec does before its first step (`UnknownJobKindError`). Any other
 * refusal is the step's `failed` outcome, with the reason as a sentence (src/lib/error-sentence.ts), and the job
 * goes on. A step's reason is stored with its outcome in the language
 * shown when the step ended (issue 23); a stop's reason in English (`stopReasonText`).
 *
 * Stopping (`stop` aborts: pause, cancel, a closing tab) starts no new step, and withdraws a step whose write still
 * waits for the key's budget (it goes back to `pending`: nothing leaves after a cancel); steps already sent finish
 * and are stored, unless `abort` aborts too, which cancels requests in flight (their steps stay `sent`, checked on
 * resume).
 */
import type { ApiClient } from '@/api/client';
import { t } from '@/i18n/i18n';
import { errorSentence, loadErrorSentences } from '@/lib/error-sentence';
import { sleepUnlessAborted } from '@/lib/run-pool';
import { backoffSeconds } from '@/lib/throttle';
import type { JobProgressPatch, JobStore } from './job-store';
import { isApiError } from '@/api/api-error';
import type { JobCounts, JobRecord, StepOutcome, StepRecord } from './job-types';
import { type StepContext, UnknownStepKindError, repeatInProgress, runsAfterEarlier, stepHandler } from './step-kinds';
import { jobKind } from './job-kinds';
import { kindsReady } from './job-names';

/**
 * The client a job writes through: the typed client (`ApiClient`), on the key's shared budget in the console
 * (`budgetedClient`). Each kind's handler calls what it needs of it (step-kinds.ts `StepContext`).
 */
export type JobClient = ApiClient;

/**
 * The stored reason of a job the service's refusal of its key stopped (`JobRecord.stopReason`): English text, as
 * records of every age hold it; `stopReasonText` shows it in the language shown.
 */
export const KEY_REFUSED_REASON = 'The service refused the workspace key. Connect with a valid key, then resume the job.';
/** The start of the stored reason of a job stopped by any other error, the error's message following it. */
export const STOPPED_PREFIX = 'The job stopped: ';

/** The service refused the key (401 or 403): the job stops, paused with this error's message as its reason. */
export class KeyRefusedError extends Error {
  constructor(cause: unknown) {
    super(KEY_REFUSED_REASON, { cause });
    this.name = 'KeyRefusedError';
  }
}

/** A stored `stopReason` as a sentence in the language shown (the `jobs` catalog); an unknown one as stored. */
export function stopReasonText(reason: string): string {
  if (reason === KEY_REFUSED_REASON) return t('jobs.keyRefused');
  if (reason.startsWith(STOPPED_PREFIX)) return t('jobs.stoppedBy', { detail: reason.slice(STOPPED_PREFIX.length) });
  return reason;
}

export type RunJobOptions = {
  store: JobStore;
  client: JobClient;
  jobId: string;
  /** Requests in flight at once (default 4). With a rate limit, the budget paces them anyway. */
  concurrency?: number | (() => number);
  /** Aborting starts no new step and withdraws writes still waiting for the budget; steps in flight finish and are stored. */
  stop?: AbortSignal;
  /** Aborting also cancels the requests in flight (their steps stay `sent`). */
  abort?: AbortSignal;
  /** Called with the job record after each settled step and each wait. */
  onProgress?: (job: JobRecord) => void;
  /** Tries of a step whose answers are lost (network, 5xx) before it fails; default 8. */
  maxLostTries?: number;
  /** For tests: the wait between tries (default: a timer that `stop` ends early). */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: steps read from the store at a time (default `WINDOW`, 500). */
  window?: number;
};

/** How a run ended: every step settled (`done`), stopped with steps left (`stopped`). */
export type RunEnd = 'done' | 'stopped';

/** Steps read from the store at a time. */
const WINDOW = 500;

/** The Idempotency-Key of a step: stable per job and step, printable ASCII, under 255 characters (section 9). */
export function stepKey(jobId: string, index: number): string {
  return `${jobId}.${index}`;
}

/** True when the answer may have been lost after the service acted: no answer, or a 5xx. */
function answerLost(error: unknown): boolean {
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

function countOutcome(counts: JobCounts, outcome: StepOutcome): JobCounts {
  if (outcome.kind === 'batch') return outcome.results.reduce(countOutcome, counts);
  const next = { ...counts };
  if (outcome.kind === 'created') next.created++;
  else if (outcome.kind === 'updated') next.updated++;
  else if (outcome.kind === 'tagged') next.tagged += outcome.changed ?? 1;
  else if (outcome.kind === 'exists') next.exists++;
  else if (outcome.kind === 'erased') {
    if (outcome.already) next.alreadyErased = (next.alreadyErased ?? 0) + 1;
    else next.erased = (next.erased ?? 0) + 1;
  }
  else next.failed++;
  return next;
}

/**
 * Runs job `jobId` (see the module's comment) from where it stopped. Moves a `queued` job to `running`; a job in
 * another state than `queued` or `running` is left as it is (resolves `stopped`). Resolves `done` after moving
 * the job to `done` once every step is settled. Rejects with `KeyRefusedError`, `UnknownJobKindError` (nothing
 * sent), `UnknownStepKindError`, or the store's error.
 */
export async function runJob(options: RunJobOptions): Promise<RunEnd> {
  const { store, client, jobId, stop, abort, onProgress, maxLostTries = 8 } = options;
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessAborted(ms, stop));
  const concurrency = typeof options.concurrency === 'function' ? options.concurrency : () => (options.concurrency as number | undefined) ?? 4;
  await kindsReady();

  const started = await store.transition(jobId, ['queued', 'running'], 'running', { runStartedAt: Date.now(), waitingUntil: null, stopReason: null });
  if (!started) return 'stopped';
  // Before any write: a job whose kind has no spec sends nothing (its writes would not say what they are).
  const { source } = jobKind(started.kind);
  let job: JobRecord = { ...started, settledAtRunStart: started.settled };
  await store.writer.patch(jobId, { settledAtRunStart: started.settled });
  let refused: KeyRefusedError | null = null;
  // The first outcome the store could not write (quota, a closed database), or a step of an unknown kind: the run
  // stops and rejects with it.
  let storeError: { error: unknown } | null = null;
  const halted = () => Boolean(stop?.aborted || abort?.aborted || refused || storeError);

  // Steps in flight, by index: the position is the lowest of them (or the next to read when none).
  const inFlight = new Set<number>();
  let nextIndex = job.position;
  const positionNow = () => (inFlight.size ? Math.min(...inFlight) : nextIndex);

  const report = (patch: Partial<JobRecord>) => {
    job = { ...job, ...patch, updatedAt: Date.now() };
    onProgress?.(job);
  };

  const wait = async (ms: number) => {
    report({ waitingUntil: Date.now() + ms });
    await sleep(ms);
    if (job.waitingUntil) report({ waitingUntil: null });
  };

  const send = (record: StepRecord, lost: boolean): Promise<StepOutcome> => {
    const handler = stepHandler(record.step.kind);
    const signals = { ...(abort ? { signal: abort } : {}), ...(stop ? { queueSignal: stop } : {}) };
    // Written out rather than with src/api/activity.ts's `activityHeaders`, whose module carries the log's schemas.
    const headers = { 'Activity-Source': source, 'Activity-Batch': jobId };
    const context: StepContext = {
      client,
      call: { priority: 'job', idempotencyKey: stepKey(jobId, record.index), headers, ...signals },
      lookUp: { priority: 'job', ...(abort ? { signal: abort } : {}) },
      lost,
      jobId,
      index: record.index,
      earlier: (visit) => store.eachStep(jobId, (other) => other.index < record.index && visit(other)),
    };
    return handler.send(record.step, context);
  };

  // Steps marked sent before their requests leave. One transaction marks a step and the pending steps queued behind
  // it, as many as run at once (`concurrency()`), so a job writes "sent" once per batch rather than once per step;
  // each step still leaves only after its mark committed. A step marked but never sent (the run stopped first) is
  // put back to pending at the end of the run; after a crash it is found sent and looked up first, as any lost answer.
  const marks = new Map<number, Promise<void>>();
  const markSent = (record: StepRecord): Promise<void> => {
    const marked = marks.get(record.index);
    if (marked) return marked;
    // A step that waits for the earlier ones is marked only when it leaves (so one found sent had them all settled).
    const behind = queue.filter((item) => !item.lost && !marks.has(item.record.index) && !runsAfterEarlier(item.record.step.kind)).slice(0, Math.max(0, concurrency() - 1));
    const batch = [record, ...behind.map((item) => item.record)];
    const committed = store.writer.putMany(batch.map((step) => ({ ...step, status: 'sent' as const })));
    for (const step of batch) marks.set(step.index, committed);
    return committed;
  };
  // Outcomes are stored without holding the step's worker: the next step starts while the write waits for the
  // writer's next transaction, at most `LAZY_WRITE_MS` (each stays `sent` until its outcome committed, so nothing
  // is lost by not waiting).
  const outcomeWrites = new Set<Promise<void>>();
  const storeOutcome = (step: StepRecord, patch: JobProgressPatch) => {
    const write: Promise<void> = store.writer
      .putSoon(step, patch)
      .catch((error: unknown) => {
        storeError ??= { error };
      })
      .finally(() => outcomeWrites.delete(write));
    outcomeWrites.add(write);
  };

  // Each step that ends (settled, or left by a stopped run) wakes the steps waiting for the earlier ones.
  let wake = () => {};
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const stepEnded = () => {
    wake();
    woken = new Promise<void>((resolve) => (wake = resolve));
  };
  /** Waits until no step before `index` is in flight and every outcome is stored (`StepHandler.afterEarlier`). */
  const earlierSettled = async (index: number) => {
    while (!halted() && [...inFlight].some((other) => other < index)) await woken;
    await Promise.all(outcomeWrites);
  };

  /** Runs one step to an outcome and stores it; leaves it `sent` when the run is stopped or aborted meanwhile. */
  const runStep = async (record: StepRecord, lost: boolean) => {
    try {
      await runStepOnce(record, lost);
    } finally {
      stepEnded();
    }
  };
  const runStepOnce = async (record: StepRecord, lost: boolean) => {
    if (runsAfterEarlier(record.step.kind)) {
      // Every earlier step is taken before this one (the queue is in order, and this one is never marked sent ahead).
      await earlierSettled(record.index);
      if (halted()) return;
    }
    if (!lost) await markSent(record);
    marks.delete(record.index);
    let lostTries = 0;
    for (let attempt = 0; ; attempt++) {
      let outcome: StepOutcome;
      try {
        outcome = await send(record, lost);
      } catch (error) {
        if (abort?.aborted) return;
        if (stop?.aborted && error === stop.reason) {
          // Withdrawn before it left: not sent, so a cancelled job's report says so and a resumed one sends it.
          if (!lost) await store.writer.put({ ...record, status: 'pending' });
          return;
        }
        if (isApiError(error) && (error.status === 401 || error.status === 403)) {
          refused ??= new KeyRefusedError(error);
          return;
        }
        if (error instanceof UnknownStepKindError) {
          // Nothing was sent: the step stays for a run that knows its kind, and this run stops with the error.
          if (!lost) await store.writer.put({ ...record, status: 'pending' });
          storeError ??= { error };
          return;
        }
        if (isApiError(error) && error.status === 429) {
          await wait((error.retryAfter ?? backoffSeconds(attempt)) * 1000);
          if (halted()) return;
          continue;
        }
        if (repeatInProgress(error) || (answerLost(error) && ++lostTries < maxLostTries)) {
          lost = true;
          await wait(backoffSeconds(Math.min(attempt, 6)) * 1000);
          if (halted()) return;
          continue;
        }
        await loadErrorSentences();
        outcome = { kind: 'failed', reason: errorSentence(error), status: isApiError(error) ? error.status : 0 };
      }
      inFlight.delete(record.index);
      const patch = { counts: countOutcome(job.counts, outcome), settled: job.settled + 1, position: positionNow(), updatedAt: Date.now() };
      job = { ...job, ...patch };
      storeOutcome({ ...record, status: 'settled', outcome }, patch);
      onProgress?.(job);
      return;
    }
  };

  // 1. Steps whose answers were lost when the job last ran.
  const lostSteps = await store.sentSteps(jobId);
  // 2. Then the pending steps from the position on, read `WINDOW` (or `options.window`) at a time.
  const windowSize = options.window ?? WINDOW;
  let queue: { record: StepRecord; lost: boolean }[] = lostSteps.map((record) => ({ record, lost: true }));
  let exhausted = false;
  let readFrom = job.position;
  let reading: Promise<void> | null = null;
  const refill = async () => {
    const records = await store.pendingSteps(jobId, readFrom, windowSize);
    if (records.length < windowSize) exhausted = true;
    else readFrom = records[records.length - 1]!.index + 1;
    queue = queue.concat(records.map((record) => ({ record, lost: false })));
  };
  const take = async () => {
    while (!queue.length && !exhausted) {
      reading ??= refill().finally(() => (reading = null));
      await reading;
    }
    const item = queue.shift();
    if (item) {
      inFlight.add(item.record.index);
      if (!item.lost) nextIndex = item.record.index + 1;
    }
    return item;
  };

  const workers = new Set<Promise<void>>();
  const worker = async () => {
    while (!halted()) {
      const item = await take();
      if (!item) return;
      await runStep(item.record, item.lost);
      if (halted()) return;
    }
  };
  // The pool grows or shrinks with `concurrency()` (the budget may learn the key's limit as the job runs).
  for (;;) {
    while (!halted() && workers.size < Math.max(1, concurrency()) && (queue.length || !exhausted)) {
      const running: Promise<void> = worker().finally(() => workers.delete(running));
      workers.add(running);
    }
    if (!workers.size) break;
    await Promise.race(workers);
  }
  await Promise.all(outcomeWrites);
  // Marked sent ahead of a request that never left: pending again, so the report and a resumed run see them unsent.
  const unsent = queue.filter((item) => marks.has(item.record.index)).map((item) => ({ ...item.record, status: 'pending' as const }));
  if (unsent.length && !abort?.aborted) await store.writer.putMany(unsent);
  // Set by a write's callback, which the compiler's narrowing does not see.
  const failedWrite = storeError as { error: unknown } | null;
  if (failedWrite) throw failedWrite.error;
  if (refused) throw refused;
  if (halted()) return 'stopped';
  const finished = await store.transition(jobId, ['running'], 'done', { finishedAt: Date.now(), waitingUntil: null, position: job.total });
  if (finished) onProgress?.(finished);
  return finished ? 'done' : 'stopped';
}
