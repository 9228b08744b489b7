/**
 * The first screen's part of durable jobs (issue 20 point 4), kept tiny so the runner stays off the first
 * screens' budgets (scripts/first-screens.json): `useJobWatch(workspaceId)` asks IndexedDB directly (no idb, no
 * runner) whether the workspace has an unfinished job, and listens on the jobs' BroadcastChannel for jobs that
 * other tabs add. Once one exists, it loads the runner (workspace-runner.ts), which resumes the job in this tab or waits
 * for the tab that runs it, and answers true so the shell shows the job's progress.
 */
import { useEffect, useState } from 'react';
import { loadArea } from '@/i18n/i18n';
import { JOBS_CHANNEL, JOBS_DB, type JobMessage } from './job-names';

/** True when the jobs database holds a queued, running or paused job of `workspaceId`. False when there is no database. */
export function hasUnfinishedJob(workspaceId: string): Promise<boolean> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(false);
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(JOBS_DB);
    } catch {
      return resolve(false);
    }
    // No database yet: do not create an empty one (the runner's store creates it with its schema).
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(false);
    request.onblocked = () => resolve(false);
    request.onsuccess = () => {
      const db = request.result;
      try {
        const index = db.transaction('jobs').objectStore('jobs').index('workspaceId');
        const all = index.getAll(workspaceId);
        all.onsuccess = () => {
          db.close();
          resolve((all.result as { state: string }[]).some((job) => job.state === 'queued' || job.state === 'running' || job.state === 'paused'));
        };
        all.onerror = () => {
          db.close();
          resolve(false);
        };
      } catch {
        db.close();
        resolve(false);
      }
    };
  });
}

/**
 * Loads the runner and starts it for `workspaceId` (workspace-runner.ts's `startJobRunner`), and fetches the `jobs`
 * catalog (issue 23) beside it, so the header's progress (job-indicator.tsx) shows as soon as its code is in.
 */
function loadRunner(workspaceId: string): void {
  void loadArea('jobs').catch(() => undefined);
  void import('./workspace-runner').then((runner) => runner.startJobRunner(workspaceId));
}

/**
 * True once `workspaceId` has (or had, in this tab's life) an unfinished job; the runner is then loaded and
 * started. Checks IndexedDB when the workspace opens and listens for jobs added in any tab.
 */
export function useJobWatch(workspaceId: string): boolean {
  const [active, setActive] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const activate = () => {
      if (cancelled) return;
      setActive(true);
      loadRunner(workspaceId);
    };
    void hasUnfinishedJob(workspaceId).then((found) => found && activate());
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(JOBS_CHANNEL) : null;
    const onMessage = (event: MessageEvent<JobMessage>) => {
      if (event.data?.workspaceId === workspaceId) activate();
    };
    // The runner's own channel object is another object: what this tab's runner announces is heard here too.
    channel?.addEventListener('message', onMessage);
    return () => {
      cancelled = true;
      channel?.close();
    };
  }, [workspaceId]);
  return active;
}
