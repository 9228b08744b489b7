/**
 * Where durable jobs live (issue 20 point 4): an IndexedDB database (`JOBS_DB`, through idb, 1 KB of gzip)
 * with four object stores:
 * - `jobs`: one small `JobRecord` per job (state, counts, position), keyed by `id`, indexed by `workspaceId`;
 * - `plans`: the job's steps as planned, `PLAN_CHUNK` to a record keyed by `[jobId, chunk]` (fewer for a job of
 *   batches: `planShape`), written once when the job is stored (a 100,000-step job is 200 records, stored in about a
 *   second, not 100,000 records);
 * - `steps`: a step's state once the runner has touched it (`StepState`: `sent`, `settled` with its outcome, or
 *   `pending` again after a withdrawal), keyed by `[jobId, index]`, indexed by `[jobId, status]` (the steps sent
 *   whose answer was never stored are found at once on resume). A step without a state is pending;
 * - `reports`: the rows decided before any write (`JobSpec.report`: refused rows with their values), once per job.
 * The key of the workspace is never stored here (src/lib/connections.ts keeps keys, by its rules).
 *
 * Version 1 kept every step whole in `steps`, pending ones too; opening a version 1 database moves its steps into
 * `plans` and keeps only the states (the upgrade runs once, in the first tab that opens it with this code).
 *
 * `createStore()` opens it; `store.writer` batches the runner's writes (a step marked sent, an outcome, the
 * job's counts) into one transaction per batch: each `put` resolves once its transaction committed, so a step is
 * durably "sent" before its request leaves, without a transaction per write. Outcomes (`putSoon`) may wait up to
 * `LAZY_WRITE_MS` for company.
 * Every function rejects with the DOMException of IndexedDB when the browser refuses (quota, private mode).
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, openDB } from 'idb';
import { JOBS_DB, JOBS_DB_VERSION } from './job-names';
import { EMPTY_COUNTS, type JobRecord, type JobSpec, type JobState, type JobStep, type StepRecord, type StepStatus } from './job-types';

/** What the store keeps of a step the runner has touched: its record without the step itself (that is in `plans`). */
export type StepState = Omit<StepRecord, 'step'>;

/** Steps a `plans` record holds. */
export const PLAN_CHUNK = 500;

interface JobsSchema extends DBSchema {
  jobs: { key: string; value: JobRecord; indexes: { workspaceId: string } };
  plans: { key: [string, number]; value: { jobId: string; chunk: number; steps: JobStep[] } };
  steps: { key: [string, number]; value: StepState; indexes: { status: [string, StepStatus] } };
  reports: { key: string; value: { jobId: string; report: NonNullable<JobSpec['report']> } };
}

export type JobsDb = IDBPDatabase<JobsSchema>;

/** The records' worth of steps one transaction writes when a job is stored (20 `plans` records of 500 steps). */
const TRANSACTION_WEIGHT = 10_000;

/** What a step stands for: the records of a batch (its `items`), else one. */
const weightOf = (step: JobStep) => (Array.isArray(step.items) ? Math.max(1, step.items.length) : 1);

/**
 * How a job's steps are cut into `plans` records: `chunk` steps a record (at most `PLAN_CHUNK`), `perTransaction`
 * records a transaction, so a record and a transaction hold at most `TRANSACTION_WEIGHT` records' worth. Each record
 * is copied whole (a structured clone) when it is put, and a transaction's copies are held until it commits: a
 * 100,000-row import in 84 batch steps was one record, one 20 MB copy, and took the tab's footprint past 300 MB while
 * the job was stored (docs/benchmarks.md, "A 100,000-row file in batches, without look-ups").
 */
export function planShape(steps: readonly JobStep[]): { chunk: number; perTransaction: number } {
  const weight = steps.reduce((most, step) => Math.max(most, weightOf(step)), 1);
  const chunk = Math.max(1, Math.min(PLAN_CHUNK, Math.floor(TRANSACTION_WEIGHT / weight)));
  return { chunk, perTransaction: Math.max(1, Math.floor(TRANSACTION_WEIGHT / (chunk * weight))) };
}

/** Opens (creating or upgrading) the jobs database. */
export function openJobsDb(): Promise<JobsDb> {
  return openDB<JobsSchema>(JOBS_DB, JOBS_DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, transaction) {
      if (oldVersion < 1) {
        const jobs = db.createObjectStore('jobs', { keyPath: 'id' });
        jobs.createIndex('workspaceId', 'workspaceId');
        const steps = db.createObjectStore('steps', { keyPath: ['jobId', 'index'] });
        steps.createIndex('status', ['jobId', 'status']);
        db.createObjectStore('reports', { keyPath: 'jobId' });
      }
      if (oldVersion < 2) {
        db.createObjectStore('plans', { keyPath: ['jobId', 'chunk'] });
        if (oldVersion >= 1) await moveStepsToPlans(transaction);
      }
    },
  });
}

/**
 * The upgrade from version 1: every whole step record of `steps` (in key order: job, then index) goes into its job's
 * `plans` chunk; a pending one is removed, any other keeps its state without the step.
 */
async function moveStepsToPlans(transaction: IDBPTransaction<JobsSchema, StoreNames<JobsSchema>[], 'versionchange'>) {
  const plans = transaction.objectStore('plans');
  let chunk: { jobId: string; chunk: number; steps: JobStep[] } | null = null;
  for (let cursor = await transaction.objectStore('steps').openCursor(); cursor; cursor = await cursor.continue()) {
    const { step, ...state } = cursor.value as StepRecord;
    const at = Math.floor(state.index / PLAN_CHUNK);
    if (!chunk || chunk.jobId !== state.jobId || chunk.chunk !== at) {
      if (chunk) void plans.put(chunk);
      chunk = { jobId: state.jobId, chunk: at, steps: [] };
    }
    chunk.steps[state.index % PLAN_CHUNK] = step;
    if (state.status === 'pending') void cursor.delete();
    else void cursor.update(state);
  }
  if (chunk) void plans.put(chunk);
}

/** The state the store keeps of `record`. */
function stateOf({ step: _step, ...state }: StepRecord): StepState {
  return state;
}

/** Changes to a job record that the runner owns (never `state`, which the person's pause and cancel own). */
export type JobProgressPatch = Partial<Pick<JobRecord, 'counts' | 'settled' | 'position' | 'waitingUntil' | 'updatedAt' | 'settledAtRunStart'>>;

/** Batches step records and job patches into as few transactions as the pace of writes allows. */
export type StoreWriter = {
  /** Stores `step` (and merges `patch` into its job); resolves once committed. */
  put(step: StepRecord, patch?: JobProgressPatch): Promise<void>;
  /**
   * As `put`, but the write may wait up to `LAZY_WRITE_MS` for others to share its transaction (a step's outcome:
   * until it commits the step stays `sent`, and a resume looks it up before sending it again).
   */
  putSoon(step: StepRecord, patch?: JobProgressPatch): Promise<void>;
  /** Stores `steps` (of one job) in one transaction with the writes waiting beside them; resolves once committed. */
  putMany(steps: readonly StepRecord[]): Promise<void>;
  /** Merges `patch` into job `jobId`; resolves once committed. */
  patch(jobId: string, patch: JobProgressPatch): Promise<void>;
};

/**
 * How long a `putSoon` write may wait for company, in ms. A transaction costs the browser about as much as the
 * records in it, and a job settles a step every few ms: outcomes that wait share one transaction.
 */
export const LAZY_WRITE_MS = 25;

function createWriter(db: JobsDb): StoreWriter {
  let steps: StepRecord[] = [];
  let patches = new Map<string, JobProgressPatch>();
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let flushing = false;
  // Whether a write that may not wait is queued; the timer of the writes that may.
  let urgent = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    flushing = true;
    while (steps.length || patches.size) {
      const batch = steps;
      const jobPatches = patches;
      const batchWaiters = waiters;
      steps = [];
      patches = new Map();
      waiters = [];
      urgent = false;
      try {
        const tx = db.transaction(['steps', 'jobs'], 'readwrite');
        const stepStore = tx.objectStore('steps');
        for (const step of batch) void stepStore.put(stateOf(step));
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
      // Only writes that may wait were queued meanwhile: they wait for the timer (or the next urgent write).
      if (!urgent) break;
    }
    flushing = false;
    if (steps.length || patches.size) timer = setTimeout(() => void flush(), LAZY_WRITE_MS);
  };

  const enqueue = (added: readonly StepRecord[], jobId: string | null, patch: JobProgressPatch | undefined, soon = false) =>
    new Promise<void>((resolve, reject) => {
      steps.push(...added);
      if (jobId && patch) patches.set(jobId, { ...patches.get(jobId), ...patch });
      waiters.push({ resolve, reject });
      if (!soon) urgent = true;
      if (flushing) return;
      // A microtask later, so the writes of workers settling at the same moment share one transaction.
      if (urgent) queueMicrotask(() => void (flushing ? undefined : flush()));
      else timer ??= setTimeout(() => void flush(), LAZY_WRITE_MS);
    });

  return {
    put: (step, patch) => enqueue([step], step.jobId, patch),
    putSoon: (step, patch) => enqueue([step], step.jobId, patch, true),
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
  /** Calls `visit` with every step of `jobId` in order, a `plans` record at a time (for reports and undo). */
  eachStep(jobId: string, visit: (step: StepRecord) => void): Promise<void>;
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
  // Steps a `plans` record holds, by job (a job's never changes once it is stored).
  const chunkSizes = new Map<string, number>();
  const chunkSize = async (jobId: string): Promise<number> => {
    let size = chunkSizes.get(jobId);
    if (size === undefined) {
      size = (await database.get('jobs', jobId))?.planChunk ?? PLAN_CHUNK;
      chunkSizes.set(jobId, size);
    }
    return size;
  };
  /** The steps of `plans` record `chunk` of `jobId` with their states (pending where none), or null past the last. */
  const chunkRecords = async (jobId: string, chunk: number, size: number): Promise<StepRecord[] | null> => {
    const tx = database.transaction(['plans', 'steps']);
    const start = chunk * size;
    const [plan, states] = await Promise.all([
      tx.objectStore('plans').get([jobId, chunk]),
      tx.objectStore('steps').getAll(IDBKeyRange.bound([jobId, start], [jobId, start + size - 1])),
    ]);
    await tx.done;
    if (!plan) return null;
    const byIndex = new Map(states.map((state) => [state.index, state]));
    return plan.steps.map((step, offset) => {
      const state = byIndex.get(start + offset);
      return state ? { ...state, step } : { jobId, index: start + offset, step, status: 'pending' };
    });
  };
  return {
    db: database,
    writer,

    async addJob(workspaceId, spec, id = crypto.randomUUID()) {
      const now = Date.now();
      const shape = planShape(spec.steps);
      const chunks = Math.ceil(spec.steps.length / shape.chunk);
      for (let first = 0; first < chunks; first += shape.perTransaction) {
        const tx = database.transaction('plans', 'readwrite');
        for (let chunk = first; chunk < Math.min(chunks, first + shape.perTransaction); chunk++) {
          void tx.store.put({ jobId: id, chunk, steps: spec.steps.slice(chunk * shape.chunk, (chunk + 1) * shape.chunk) });
        }
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
        ...(shape.chunk === PLAN_CHUNK ? {} : { planChunk: shape.chunk }),
      };
      chunkSizes.set(id, shape.chunk);
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
      const found: StepRecord[] = [];
      const size = await chunkSize(jobId);
      for (let chunk = Math.floor(from / size); found.length < limit; chunk++) {
        const records = await chunkRecords(jobId, chunk, size);
        if (!records) break;
        for (const record of records) if (record.index >= from && record.status === 'pending' && found.length < limit) found.push(record);
      }
      return found;
    },

    async sentSteps(jobId) {
      const states = await database.getAllFromIndex('steps', 'status', [jobId, 'sent']);
      const size = await chunkSize(jobId);
      const plans = new Map<number, JobStep[]>();
      for (const chunk of new Set(states.map((state) => Math.floor(state.index / size)))) {
        plans.set(chunk, (await database.get('plans', [jobId, chunk]))?.steps ?? []);
      }
      return states.flatMap((state) => {
        const step = plans.get(Math.floor(state.index / size))?.[state.index % size];
        return step ? [{ ...state, step }] : [];
      });
    },

    async eachStep(jobId, visit) {
      const size = await chunkSize(jobId);
      for (let chunk = 0; ; chunk++) {
        const records = await chunkRecords(jobId, chunk, size);
        if (!records) return;
        records.forEach(visit);
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
