/**
 * The table of step kinds (issue 38 point 4; docs/style.md, "One resource, one road": the job engine dispatches
 * step kinds through handlers that features register and names no feature's kinds). Each kind of step a job can hold
 * is one `StepHandler`, registered by the feature that owns the kind (the contacts feature its creates, tag changes
 * and erasures, the products feature its upserts); `src/app/kinds.ts` registers them all, so the runner of
 * any screen knows every kind without a feature importing another. Adding a kind is a handler and one line there:
 * the engine (step-runner.ts, job-report.ts, workspace-runner.ts) does not change. The kinds of jobs holding these
 * steps are a table of their own, registered beside it (job-kinds.ts).
 *
 * The handlers are loaded on demand, with the runner, not with the first screen: the app names where they are with
 * job-names.ts `provideKinds(load)` (a dynamic import; that tiny module is already on the first screen), and
 * the engine awaits `kindsReady()` before it runs, reports or undoes a job. Framework-free.
 */
import { isApiError } from '@/api/api-error';
import type { ApiClient } from '@/api/client';
import type { JobStep, StepOutcome, StepRecord } from './job-types';

/** Options of every write a job sends (the shape of `CallOptions` in src/api/client.ts). */
export type JobCallOptions = { signal?: AbortSignal; priority?: 'job'; idempotencyKey?: string; queueSignal?: AbortSignal; headers?: Record<string, string> };

/**
 * What the engine hands a handler for one try of one step:
 * - `client`: the typed client on the key's shared budget (src/lib/budgeted-client.ts `budgetedClient`);
 * - `call`: the options of the step's write: priority `job`, `Idempotency-Key: <jobId>.<index>` (docs/decisions.md
 *   section 9; a write the section does not cover, such as a DELETE, leaves it out), the activity headers of the
 *   job's batch (docs/decisions.md section 11), and the signals that withdraw a write still waiting for the budget
 *   (`queueSignal`) or cancel one in flight (`signal`);
 * - `lookUp`: the options of a read the step makes to check what the service holds (priority `job`, `signal`);
 * - `lost`: true when an earlier try's answer was lost (the tab died after sending, a dropped connection, a 5xx): a
 *   write that is not safe to repeat looks its record up first.
 */
export type StepContext = {
  client: ApiClient;
  call: JobCallOptions;
  lookUp: { priority: 'job'; signal?: AbortSignal };
  lost: boolean;
  jobId: string;
  index: number;
  /**
   * Calls `visit` with every earlier step of the job and its outcome, in order (the store's records). For a kind with
   * `afterEarlier`, every one of them is settled and stored when `send` is called.
   */
  earlier(visit: (record: StepRecord) => void): Promise<void>;
};

/** A step as one row of a job's report, with the outcome it stands for (job-report.ts). */
export type ReportedStep = { step: JobStep; outcome?: StepOutcome | undefined };

/**
 * One kind of step. Written with method syntax so a handler of a narrower step type (`StepHandler<PatchTagsStep>`)
 * registers in the table of `JobStep`s.
 * - `send`: sends the step's request(s) and resolves to its outcome. It rejects with the client's `ApiError` when
 *   the service refuses or the answer is lost: the engine decides what that means (a 429 waits, 401/403 stops the
 *   job, a lost answer is tried again with `lost` set, any other refusal is the step's `failed` outcome). A 409
 *   whose message names the Idempotency-Key (a repeat still running) waits and tries again.
 * - `describe`: the fields that name the step's record in the report (rows, name, tags...); none when absent.
 * - `recordId`: the record's id before an outcome names one (a patch's or an erasure's contact); '' when absent.
 * - `expand`: a step standing for several records (a batch of creates) as report rows of their own.
 * - `undo`: the step that reverses this one's settled outcome, or null when it has none (the undo job of
 *   workspace-runner.ts `undoSteps`); a kind without it is never undone by a job.
 * - `afterEarlier`: the step is sent only once every earlier step of its job has settled and been stored, so `send`
 *   can read their outcomes (`StepContext.earlier`): the import's tags for the contacts its batches found existing.
 */
export type StepHandler<S extends JobStep = JobStep> = {
  readonly kind: S['kind'];
  send(step: S, context: StepContext): Promise<StepOutcome>;
  describe?(step: S): Record<string, string>;
  recordId?(step: S): string;
  expand?(step: S, outcome: StepOutcome | undefined): ReportedStep[];
  undo?(step: S, outcome: StepOutcome): JobStep | null;
  readonly afterEarlier?: boolean;
};

/**
 * True for the service's 409 to a repeated Idempotency-Key whose first request is still running (docs/decisions.md
 * section 9): the engine waits and tries again, so a handler that reads a 409 as "exists" rethrows this one.
 */
export function repeatInProgress(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && /idempotency/i.test(error.message);
}

/** A step whose kind no handler is registered for: the run stops (the step stays unsent) rather than fail it. */
export class UnknownStepKindError extends Error {
  constructor(readonly kind: string) {
    super(`No handler is registered for the step kind "${kind}"`);
    this.name = 'UnknownStepKindError';
  }
}

const table = new Map<string, StepHandler>();

/** Registers `handlers` by their kinds; a kind registered again takes the later handler (a module loaded twice). */
export function registerStepHandlers(...handlers: readonly StepHandler[]): void {
  for (const handler of handlers) table.set(handler.kind, handler);
}

/** True when `kind`'s handler waits for every earlier step (`StepHandler.afterEarlier`); false for an unknown kind. */
export function runsAfterEarlier(kind: string): boolean {
  return table.get(kind)?.afterEarlier === true;
}

/**
 * The handler of `kind`.
 * @throws UnknownStepKindError when none is registered.
 */
export function stepHandler(kind: string): StepHandler {
  const handler = table.get(kind);
  if (!handler) throw new UnknownStepKindError(kind);
  return handler;
}
