/**
 * Names shared by the tiny first-screen check (job-watch.ts) and the runner's store (job-store.ts), so the check
 * needs neither the store nor idb: the IndexedDB database and its stores, the BroadcastChannel, the Web Lock; and
 * where the step kinds' handlers and the job kinds' specs are registered (`provideKinds`, named by the app's shell,
 * awaited by the engine and the Jobs page: step-kinds.ts, job-kinds.ts), kept here so naming it adds nothing to the
 * first screen.
 */

/** The IndexedDB database of durable jobs (issue 20 point 4) and its schema version. */
export const JOBS_DB = 'workspace-admin.jobs';
export const JOBS_DB_VERSION = 2;

/** The BroadcastChannel on which tabs tell each other that jobs changed (`JobMessage`). */
export const JOBS_CHANNEL = 'workspace-admin.jobs';

/** The Web Lock held by the one tab that runs a workspace's jobs. */
export function runnerLockName(workspaceId: string): string {
  return `workspace-admin.jobs.${workspaceId}`;
}

/**
 * What tabs say on `JOBS_CHANNEL`: `changed` (a job of the workspace was added, resumed, paused, cancelled or
 * ended: read the store again), `progress` (a running job's record, at most a few times a second).
 */
export type JobMessage =
  | { type: 'changed'; workspaceId: string; jobId?: string }
  | { type: 'progress'; workspaceId: string; job: import('./job-types').JobRecord };

let loader: (() => Promise<unknown>) | null = null;
let loading: Promise<void> | null = null;

/**
 * Names where the step kinds' handlers and the job kinds' specs are registered (step-kinds.ts `registerStepHandlers`,
 * job-kinds.ts `registerJobKinds`; issue 38 point 4): the app's dynamic import of its registering module, loaded on
 * first need.
 */
export function provideKinds(load: () => Promise<unknown>): void {
  if (loader !== load) loading = null;
  loader = load;
}

/**
 * Resolves once the handlers and specs `provideKinds` named are registered (at once when none was named: tests
 * register theirs themselves). Rejects with the import's error (a chunk that failed to load); the next call tries
 * again.
 */
export function kindsReady(): Promise<void> {
  if (!loader) return Promise.resolve();
  loading ??= loader().then(
    () => undefined,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
