/**
 * Where durable jobs live (issue 20 point 4): an IndexedDB database (`JOBS_DB`, through idb, 1 KB of gzip)
 * with three object stores:
 * - `jobs`: one small `JobRecord` per job (state, counts, position), keyed by `id`, indexed by `workspaceId`;
 * - `steps`: one `StepRecord` per step, keyed by `[jobId, index]`, indexed by `[jobId, status]` (the steps sent
 *   whose answer was never stored are found at once on resume); a 100,000-step job is 100,000 small records;
 * - `reports`: the rows decided before any write (`JobSpec.report`: refused rows with their values), once per job.
 * The key of the workspace is never stored here (src/lib/connections.ts keeps keys, by its rules).
 *
 * `createStore()` opens it; `store.writer` batches the runner's writes (a step marked sent, an outcome, the
 * job's counts) into one transaction per batch: each `put` resolves once its transaction committed, so a step is
 * durably "sent" before its request leaves, without a transaction per write.
 * Every function rejects with the DOMException of IndexedDB when the browser refuses (quota, private mode).
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { JOBS_DB, JOBS_DB_VERSION } from './job-names';
import { EMPTY_COUNTS, type JobRecord, type JobSpec, type JobState, type StepRecord, type StepStatus } from './job-types';

interface JobsSchema extends DBSchema {
  jobs: { key: string; value: JobRecord; indexes: { workspaceId: string } };
  steps: { key: [string, number]; value: StepRecord; indexes: { status: [string, StepStatus] } };
  reports: { key: string; value: { jobId: string; report: NonNullable<JobSpec['report']> } };
}

export type JobsDb = IDBPDatabase<JobsSchema>;

/** Steps written per transaction when a job is stored (a 100,000-step job: 50 transactions). */
const STEPS_PER_TRANSACTION = 2000;

/** Opens (creating or upgrading) the jobs database. */
export function openJobsDb(): Promise<JobsDb> {
  return openDB<JobsSchema>(JOBS_DB, JOBS_DB_VERSION, {
    upgrade(db) {
      const jobs = db.createObjectStore('jobs', { keyPath: 'id' });
      jobs.createIndex('workspaceId', 'workspaceId');
      const steps = db.createObjectStore('steps', { keyPath: ['jobId', 'index'] });
      steps.createIndex('status', ['jobId', 'status']);
      db.createObjectStore('reports', { keyPath: 'jobId' });
    },
  });
}

/** Changes to a job record that the runner owns (never `state`, which the person's pause and cancel own). */
export type JobProgressPatch = Partial<Pick<JobRecord, 'counts' | 'settled' | 'position' | 'waitingUntil' | 'updatedAt' | 'settledAtRunStart'>>;

/** Batches step records and job patches into as few transactions as the pace of writes allows. */
export type StoreWriter = {
  /** Stores `step` (and merges `patch` into its job); resolves once committed. */
  put(step: StepRecord, patch?: JobProgressPatch): Promise<void>;
  /** Stores `steps` (of one job) in one transaction with the writes waiting beside them; resolves once committed. */
  putMany(steps: readonly StepRecord[]): Promise<void>;
  /** Merges `patch` into job `jobId`; resolves once committed. */
  patch(jobId: string, patch: JobProgressPatch): Promise<void>;
};

function createWriter(db: JobsDb): StoreWriter {
  let steps: StepRecord[] = [];
  let patches = new Map<string, JobProgressPatch>();
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let flushing = false;

  const flush = async () => {
    flushing = true;
    while (steps.length || patches.size) {
      const batch = steps;
      const jobPatches = patches;
      const batchWaiters = waiters;
      steps = [];
      patches = new Map();
      waiters = [];
      try {
        const tx = db.transaction(['steps', 'jobs'], 'readwrite');
        const stepStore = tx.objectStore('steps');
        for (const step of batch) void stepStore.put(step);
        const jobStore = tx.objectStore('jobs');
        for (const [jobId, patch] of jobPatches) {
          const current = await jobStore.get(jobId);
          if (current) void jobStore.put({ ...current, ...patch });
        }
        await tx.done;
        for (const waiter of batchWaiters) waiter.resolve();
      } catch (error) {
        for (const waiter of batchWaiters) waiter.reject(error);
      }
    }
    flushing = false;
  };

  const enqueue = (added: readonly StepRecord[], jobId: string | null, patch: JobProgressPatch | undefined) =>
    new Promise<void>((resolve, reject) => {
      steps.push(...added);
      if (jobId && patch) patches.set(jobId, { ...patches.get(jobId), ...patch });
      waiters.push({ resolve, reject });
      // A microtask later, so the writes of workers settling at the same moment share one transaction.
      if (!flushing) queueMicrotask(() => void (flushing ? undefined : flush()));
    });

  return {
    put: (step, patch) => enqueue([step], step.jobId, patch),
    putMany: (added) => enqueue(added, null, undefined),
    patch: (jobId, patch) => enqueue([], jobId, patch),
  };
}

/** The store's operations (see the module's comment). */
export type JobStore = {
  db: JobsDb;
  writer: StoreWriter;
  /** Stores a new job in state `queued`: its steps first (in transactions of 2,000), the job record last. Resolves to the record. */
  addJob(workspaceId: string, spec: JobSpec, id?: string): Promise<JobRecord>;
  getJob(id: string): Promise<JobRecord | undefined>;
  /** The workspace's jobs, newest first. */
  listJobs(workspaceId: string): Promise<JobRecord[]>;
  /** The refused and unchanged rows the job was handed. */
  getReport(jobId: string): Promise<NonNullable<JobSpec['report']>>;
  /** Up to `limit` pending steps of `jobId` at `from` or after, in order. */
  pendingSteps(jobId: string, from: number, limit: number): Promise<StepRecord[]>;
  /** Steps marked sent whose answer was never stored. */
  sentSteps(jobId: string): Promise<StepRecord[]>;
  /** Calls `visit` with every step of `jobId` in order, `chunk` at a time (for reports and undo). */
  eachStep(jobId: string, visit: (step: StepRecord) => void, chunk?: number): Promise<void>;
  /**
   * Moves job `id` to `to` when its state is one of `from`, with `extra` fields; resolves to the new record, or
   * null when it was not in one of `from` (someone else moved it first).
   */
  transition(id: string, from: readonly JobState[], to: JobState, extra?: Partial<JobRecord>): Promise<JobRecord | null>;
  /** Sets fields of job `id` that are not its state (`undoneBy`). */
  annotate(id: string, fields: Partial<Pick<JobRecord, 'undoneBy' | 'stopReason'>>): Promise<void>;
};

/** Opens the store. */
export async function createStore(db?: JobsDb): Promise<JobStore> {
  const database = db ?? (await openJobsDb());
  const writer = createWriter(database);
  return {
    db: database,
    writer,

    async addJob(workspaceId, spec, id = crypto.randomUUID()) {
      const now = Date.now();
      for (let start = 0; start < spec.steps.length; start += STEPS_PER_TRANSACTION) {
        const tx = database.transaction('steps', 'readwrite');
        const end = Math.min(spec.steps.length, start + STEPS_PER_TRANSACTION);
        for (let index = start; index < end; index++) void tx.store.put({ jobId: id, index, step: spec.steps[index]!, status: 'pending' });
        await tx.done;
      }
      const report = spec.report ?? {};
      const record: JobRecord = {
        id,
        workspaceId,
        kind: spec.kind,
        title: spec.title ?? spec.kind,
        ...(spec.titleMessage ? { titleMessage: spec.titleMessage } : {}),
        state: spec.steps.length ? 'queued' : 'done',
        total: spec.steps.length,
        settled: 0,
        position: 0,
        counts: { ...EMPTY_COUNTS },
        refused: report.refused?.length ?? 0,
        unchanged: (report.unchanged?.length ?? 0) + (report.unchangedRecords?.length ?? 0),
        meta: { ...spec.meta },
        createdAt: now,
        updatedAt: now,
        finishedAt: spec.steps.length ? null : now,
        runStartedAt: null,
        settledAtRunStart: 0,
        waitingUntil: null,
        stopReason: null,
        undoneBy: null,
      };
      // The report's rows can be large (every refused row's values): their own record, read only for reports.
      const tx = database.transaction(['jobs', 'reports'], 'readwrite');
      void tx.objectStore('reports').put({ jobId: id, report });
      void tx.objectStore('jobs').put(record);
      await tx.done;
      return record;
    },

    getJob: (id) => database.get('jobs', id),

    async listJobs(workspaceId) {
      const jobs = await database.getAllFromIndex('jobs', 'workspaceId', workspaceId);
      return jobs.sort((a, b) => b.createdAt - a.createdAt);
    },

    async getReport(jobId) {
      return (await database.get('reports', jobId))?.report ?? {};
    },

    async pendingSteps(jobId, from, limit) {
      // `getAll` in batches, not a cursor: a cursor costs a promise and an event per record on the main thread.
      const found: StepRecord[] = [];
      let start = from;
      while (found.length < limit) {
        const batch = await database.getAll('steps', IDBKeyRange.bound([jobId, start], [jobId, Number.MAX_SAFE_INTEGER]), limit);
        for (const record of batch) if (record.status === 'pending' && found.length < limit) found.push(record);
        if (batch.length < limit) break;
        start = batch[batch.length - 1]!.index + 1;
      }
      return found;
    },

    sentSteps: (jobId) => database.getAllFromIndex('steps', 'status', [jobId, 'sent']),

    async eachStep(jobId, visit, chunk = 1000) {
      let from = 0;
      for (;;) {
        const steps = await database.getAll('steps', IDBKeyRange.bound([jobId, from], [jobId, Number.MAX_SAFE_INTEGER]), chunk);
        steps.forEach(visit);
        if (steps.length < chunk) return;
        from = steps[steps.length - 1]!.index + 1;
      }
    },

    async transition(id, from, to, extra = {}) {
      const tx = database.transaction('jobs', 'readwrite');
      const current = await tx.store.get(id);
      if (!current || !from.includes(current.state)) {
        await tx.done;
        return null;
      }
      const next: JobRecord = { ...current, ...extra, state: to, updatedAt: Date.now() };
      await tx.store.put(next);
      await tx.done;
      return next;
    },

    async annotate(id, fields) {
      const tx = database.transaction('jobs', 'readwrite');
      const current = await tx.store.get(id);
      if (current) await tx.store.put({ ...current, ...fields });
      await tx.done;
    },
  };
}
