/**
 * The shapes of durable jobs (issue 20 point 4; the interface with the contacts import is
 * /work/wt/briefs/jobs-interface.md): what a caller hands the runner (`JobSpec`), and what the runner keeps in
 * IndexedDB (`JobRecord`, one per job; `StepRecord`, a step with its state, kept as plan chunks and one small state
 * per step the runner touched: job-store.ts), so a job of 100,000 steps never rewrites one large record.
 * Framework-free and type-only.
 */
import type { ContactCreate } from '@/api/contacts';
import type { ProductUpsert } from '@/api/catalog';
import type { JobTitle } from './job-title';

/**
 * One write of a job. `rows`: the 1-based data rows of the source file that this step stands for (imports).
 * `label`: how the report names the record (a contact's name, email or phone), optional.
 * A `patch-tags` step should list only the tags that change the contact (a tag it already has is not in
 * `tagsToAdd`, one it lacks not in `tagsToRemove`): its undo is then the exact inverse.
 */
export type JobStep =
  | { kind: 'create-contact'; body: ContactCreate; rows?: number[]; label?: string }
  /**
   * Creates up to 1,000 contacts in one `POST /contacts/batch` (our service's extension `contact-batch`,
   * docs/decisions.md section 12): one step, one Idempotency-Key, each item with the file's rows it stands for.
   */
  | { kind: 'create-contacts'; items: BatchItem[] }
  /**
   * Tags every contact a `filter` matches, or up to 1,000 `ids`, in one `POST /contacts/tags` (extension
   * `contact-batch`, docs/decisions.md section 12); exactly one of `filter` (printed `$filter` text) and `ids`.
   */
  | { kind: 'tag-contacts'; filter?: string; ids?: string[]; tagsToAdd: string[]; tagsToRemove: string[] }
  | { kind: 'patch-tags'; contactId: string; tagsToAdd: string[]; tagsToRemove: string[]; rows?: number[]; label?: string }
  | { kind: 'upsert-product'; body: ProductUpsert; rows?: number[]; label?: string }
  /** Erases one contact (`DELETE /contacts/{id}`, docs/decisions.md section 10). Only the id: no name, no email (issue 22 point 7). */
  | { kind: 'erase-contact'; contactId: string };

/** One contact of a `create-contacts` step: the create body and the 1-based data rows of the file it stands for. */
export type BatchItem = { body: ContactCreate; rows?: number[] };

export type JobKind = 'contacts-import' | 'bulk-tags' | 'undo-tags' | 'products-import' | 'bulk-erase';

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
export type JobSpec = {
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
  steps: JobStep[];
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
  /** `matched` and `changed`: the answer of a `tag-contacts` step (the contacts it found, and those it altered). */
  | { kind: 'tagged'; matched?: number; changed?: number }
  | { kind: 'erased'; already?: boolean }
  | { kind: 'exists'; id: string | null; reason: string }
  | { kind: 'failed'; reason: string; status: number }
  /** A `create-contacts` step's answer: one outcome per item, in the items' order (created, exists or failed). */
  | { kind: 'batch'; results: ItemOutcome[] };

/** The outcome of one item of a `create-contacts` step. */
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
};

export const EMPTY_COUNTS: JobCounts = { created: 0, updated: 0, tagged: 0, exists: 0, failed: 0, erased: 0, alreadyErased: 0 };

/** True while a job still has work: queued, running or paused. */
export function isUnfinished(job: Pick<JobRecord, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'running' || job.state === 'paused';
}
