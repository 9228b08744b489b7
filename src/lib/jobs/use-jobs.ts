/**
 * React views of a workspace's durable jobs (issue 20 point 5), for the header's progress and the jobs page:
 * `useJobs(workspaceId)` reads the jobs from IndexedDB, then follows every tab's `changed` (read again) and
 * `progress` (the running job's record, a few times a second) messages; `useNow` ticks for rates and countdowns;
 * `useJobPace` says a running job's smoothed rate, time left as a range and why it waits (issue 34 point 6,
 * job-estimate.ts); `useKindsReady` says when the job kinds' specs are registered (job-kinds.ts).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { BudgetState } from '@/api/rate-budget';
import { useWorkspaceBudget } from '@/lib/use-rate-budget';
import { type RateEstimate, type TimeLeft, type WaitReason, observe, samplePeriod, startEstimate, timeLeft, waitReason } from './job-estimate';
import { jobStore, listen } from './workspace-runner';
import { kindsReady } from './job-names';
import type { JobRecord } from './job-types';

/** The workspace's jobs, newest first; null until read. */
export function useJobs(workspaceId: string): JobRecord[] | null {
  const [jobs, setJobs] = useState<JobRecord[] | null>(null);
  useEffect(() => {
    let alive = true;
    const read = () =>
      void jobStore()
        .then((store) => store.listJobs(workspaceId))
        .then((list) => alive && setJobs(list));
    read();
    const stop = listen((message) => {
      if (message.workspaceId !== workspaceId) return;
      if (message.type === 'changed') read();
      else setJobs((list) => list?.map((job) => (job.id === message.job.id ? { ...message.job, undoneBy: message.job.undoneBy ?? job.undoneBy } : job)) ?? list);
    });
    return () => {
      alive = false;
      stop();
    };
  }, [workspaceId]);
  return jobs;
}

/**
 * False until the job kinds' specs are registered (job-names.ts `kindsReady`, issue 38 point 4), then true: a view
 * that reads a kind's spec as it renders (its name, its undo: job-kinds.ts `findJobKind`) waits for it. True too
 * when their module failed to load: a job whose kind has no spec then shows what its record holds.
 */
export function useKindsReady(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let alive = true;
    const done = () => alive && setReady(true);
    kindsReady().then(done, done);
    return () => {
      alive = false;
    };
  }, []);
  return ready;
}

/** The epoch ms, refreshed every `ms` while `active`. */
export function useNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}

/** Each running job's smoothed rate in this tab, by job id, with the run it belongs to (job-estimate.ts). */
const estimates = new Map<string, { run: number | null; estimate: RateEstimate }>();

/** Whether the browser says it is online, following its `online` and `offline` events. */
function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

/** What the jobs page says of a running job's pace: its smoothed rate, time left as a range, and why it waits. */
export type JobPace = {
  perSecond: number | null;
  /** The rate measured over at least a window (null before: `perSecond` is then the job's share of the budget). */
  measured: number | null;
  left: TimeLeft | null;
  reason: WaitReason | null;
  waitSeconds: number;
};

/**
 * Folds `job`'s progress at `now` into its smoothed rate (kept for the tab's life, so leaving the jobs page and
 * coming back keeps it) and says its pace against `budget` (the key's, `BudgetState`). Nothing for a job that is
 * not running. Pure but for that map: calling it twice with the same arguments gives the same answer.
 */
export function jobPace(job: JobRecord, budget: BudgetState | null, online: boolean, now: number): JobPace {
  const none: JobPace = { perSecond: null, measured: null, left: null, reason: null, waitSeconds: 0 };
  if (job.state !== 'running') {
    estimates.delete(job.id);
    return none;
  }
  const share = budget ? { limit: budget.limit, reserve: budget.reserve, windowMs: budget.windowMs } : null;
  const reason = waitReason(job, budget, online, now);
  const paused = job.waitingUntil !== null && job.waitingUntil > now;
  let kept = estimates.get(job.id);
  if (!kept || kept.run !== job.runStartedAt) kept = { run: job.runStartedAt, estimate: startEstimate(now, job.settled) };
  kept = { ...kept, estimate: observe(kept.estimate, now, job.settled, samplePeriod(share), paused || !online) };
  estimates.set(job.id, kept);
  const until = reason === 'budget' ? (budget?.resetAt ?? now) : reason === 'throttled' ? Math.max(job.waitingUntil ?? 0, budget?.throttledUntil ?? 0) : (job.waitingUntil ?? now);
  const waitMs = reason ? Math.max(0, until - now) : 0;
  // A budget wait is part of the rate a minute already measures; a 429 or a lost connection is added.
  const left = timeLeft(kept.estimate, job.total - job.settled, share, reason === 'budget' ? 0 : waitMs);
  return { perSecond: kept.estimate.rate ?? left?.rate ?? null, measured: kept.estimate.rate, left, reason, waitSeconds: Math.ceil(waitMs / 1000) };
}

/** `jobPace` for the jobs page: reads the key's budget and the browser's online state, and re-renders as they change. */
export function useJobPace(job: JobRecord, now: number): JobPace {
  const budget = useWorkspaceBudget();
  const state = useSyncExternalStore(budget.subscribe, budget.state);
  const online = useOnline();
  return jobPace(job, state, online, now);
}
