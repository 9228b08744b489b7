/**
 * Names shared by the tiny first-screen check (job-watch.ts) and the runner's store (job-store.ts), so the check
 * needs neither the store nor idb: the IndexedDB database and its stores, the BroadcastChannel, the Web Lock.
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
