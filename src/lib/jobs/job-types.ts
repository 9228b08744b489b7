/**
 * The shapes of durable jobs (issue 20 point 4; docs/jobs.md): what a caller hands the runner (`JobSpec`), and what
 * the runner keeps in IndexedDB (`JobRecord`, one per job; `StepRecord`, a step with its state, kept as plan chunks
 * and one small state per step the runner touched: job-store.ts), so a job of 100,000 steps never rewrites one large
 * record. The jobs own these types; a step's own fields belong to the feature that owns its kind (a `StepHandler`
 * registered in step-kinds.ts: issue 38 point 4), and what a kind of job means to its feature (a `JobKindSpec`
 * registered in job-kinds.ts), so this module names no feature's step or job. Framework-free and type-only.
 */

/**
 * One write of a job: a `kind` with a registered handler (step-kinds.ts) and that kind's fields (the owning
 * feature's type: the contacts feature's contact-steps.ts, the products feature's product-steps.ts). `rows`: the
 * 1-based data rows of the source file that the step stands for (imports). `label`: how the report names the record
 * (a contact's name, email or phone), optional. Stored as it is (structured clone), so a kind's fields are plain data.
 */
export type JobStep = { kind: string; rows?: number[]; label?: string; [field: string]: unknown };

/** A title as stored: a `jobs` catalog key and its values; a value may be another title (an undo's original; job-title.ts). */
export type JobTitle = { key: string; values: Record<string, string | number | string[] | JobTitle> };

/**
 * A job's kind: the name of a `JobKindSpec` registered in job-kinds.ts by the feature that owns the kind (issue 38
 * point 4), which says how its writes are logged, which list they change, its title, name and undo. Stored on each
 * job record in IndexedDB as it is, so a kind's name is a stored format: a record made today is read by its name
 * tomorrow, and a name is never renamed.
 */
export type JobKind = string;

/** A row refused before any write (an import's cleaning, a product row that fails the contract), with its reason. */
export type RefusedRow = { row: number; values: Record<string, string>; reason: string };

/** A row of the file written with something left out, and why (an import's row whose phone could not be read, issue 34 point 2). */
export type RowNote = { row: number; reason: string };

/** A record left as it was before any write (a bulk tag job's contact that already is as asked). */
export type UnchangedRecord = { id: string; label: string };

/**
 * What a caller hands the runner. `report` holds rows decided before any write (refused, unchanged), with
 * reasons, so the job's report lists them beside the outcomes of its steps. `unchanged`: 1-based rows of an
 * import; `unchangedRecords`: records of a bulk tag job; `withoutPhone`: an import's rows sent without the phone they
 * had, which could not be read (issue 34 point 2), each named with its reason on its row in the report (job-report.ts).
 */
export type JobSpec<S extends JobStep = JobStep> = {
  kind: JobKind;
  /**
   * The title as text, e.g. "Import contacts.csv", in the language shown when the job is made: what shows when the
   * job has no `titleMessage`. Leave it out: `enqueueJob` renders `titleMessage` (job-title.ts, the `jobs` catalog),
   * so each title is worded in one place; `JobStore.addJob` stores the kind for a spec that has neither.
   */
  title?: string;
  /**
   * The title as a catalog key and values, rendered in the language shown (job-title.ts, issue 23). When left out,
   * `enqueueJob` derives it from `kind` and `meta` where it can (`titleFromMeta`).
   */
  titleMessage?: JobTitle;
  steps: S[];
  report?: { refused?: RefusedRow[]; unchanged?: number[]; unchangedRecords?: UnchangedRecord[]; withoutPhone?: RowNote[] };
  /** E.g. `{ importTag: 'import-2026-11-25', fileName: 'contacts.csv' }`; `undoOf` is set by the runner on an undo. */
  meta?: Record<string, unknown>;
};

/**
 * Where a job is: `queued` (stored, not started), `running` (a tab runs it, or will when the console is open
 * with the workspace's key), `paused` (by the person, or `stopReason` says why), `cancelled` (steps not yet sent
 * are left out), `done` (every step has an outcome).
 */
export type JobState = 'queued' | 'running' | 'paused' | 'cancelled' | 'done';

/**
 * How a step ended. `recovered`: the answer was lost and the look-up found the record the step had created.
 * `erased` with `already`: the service answered 404 and the contact is not found: a repeat whose first answer was
 * lost, or a contact erased meanwhile by someone else; either way it is gone (done, not failed).
 */
export type StepOutcome =
  | { kind: 'created'; id: string; recovered?: boolean }
  | { kind: 'updated'; id: string }
  /**
   * `matched` and `changed`: the answer of a step that tags many records (those it found, and those it altered);
   * `records`: each record it meant to tag, for its report rows (`TaggedRecord`).
   */
  | { kind: 'tagged'; matched?: number; changed?: number; records?: TaggedRecord[] }
  | { kind: 'erased'; already?: boolean }
  | { kind: 'exists'; id: string | null; reason: string }
  | { kind: 'failed'; reason: string; status: number }
  /** The answer of a step that writes many records in one request: one outcome per item, in the items' order (created, exists or failed). */
  | { kind: 'batch'; results: ItemOutcome[] };

/**
 * One record of a `tagged` outcome that tags many: its id (null: not found), the file rows it stands for, the tags it
 * was to get, and whether they `changed` it (false: it had them all; absent when its request changed only some).
 */
export type TaggedRecord = { id: string | null; rows?: number[]; tagsToAdd: string[]; changed?: boolean };

/** The outcome of one item of a `batch` outcome. */
export type ItemOutcome = Extract<StepOutcome, { kind: 'created' | 'exists' | 'failed' }>;

/**
 * A step as stored: `pending` (not sent), `sent` (written just before the request left: if the tab dies before
 * the answer is stored, the step is checked on resume), `settled` (its `outcome` stored).
 */
export type StepStatus = 'pending' | 'sent' | 'settled';

export type StepRecord = { jobId: string; index: number; step: JobStep; status: StepStatus; outcome?: StepOutcome };

/**
 * Steps ended so far, by outcome. `updated`: products updated by an upsert. `erased`, `alreadyErased`: contacts a
 * `bulk-erase` job erased, and those the service no longer had (optional: records stored before they existed lack them).
 */
export type JobCounts = { created: number; updated: number; tagged: number; exists: number; failed: number; erased?: number; alreadyErased?: number };

/**
 * A job as stored. `settled`: steps with an outcome; `position`: every step below it is settled (the resume
 * point); `runStartedAt`/`settledAtRunStart`: when the current run began and how many steps were settled then
 * (the rate is the steps settled since over the time since); `waitingUntil`: epoch ms the job waits for (a 429,
 * a lost connection), null when not waiting; `stopReason`: why a job paused by itself (its key was refused).
 */
export type JobRecord = {
  id: string;
  workspaceId: string;
  kind: JobKind;
  title: string;
  /** The title as a catalog key and values (job-title.ts); absent on records stored before titles had keys. */
  titleMessage?: JobTitle;
  state: JobState;
  total: number;
  settled: number;
  position: number;
  counts: JobCounts;
  /** Rows refused and records left unchanged before any write (`JobSpec.report`, stored apart: job-store.ts). */
  refused: number;
  unchanged: number;
  meta: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  runStartedAt: number | null;
  settledAtRunStart: number;
  waitingUntil: number | null;
  stopReason: string | null;
  /** The id of the undo job made from this one, once made. */
  undoneBy: string | null;
  /** Steps a `plans` record of this job holds, when not `PLAN_CHUNK` (a job of batches: job-store.ts `planShape`). */
  planChunk?: number;
};

export const EMPTY_COUNTS: JobCounts = { created: 0, updated: 0, tagged: 0, exists: 0, failed: 0, erased: 0, alreadyErased: 0 };

/** True while a job still has work: queued, running or paused. */
export function isUnfinished(job: Pick<JobRecord, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'running' || job.state === 'paused';
}
