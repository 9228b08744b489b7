/**
 * React views of a workspace's durable jobs (issue 20 point 5), for the header's progress and the jobs page:
 * `useJobs(workspaceId)` reads the jobs from IndexedDB, then follows every tab's `changed` (read again) and
 * `progress` (the running job's record, a few times a second) messages; `useNow` ticks for rates and countdowns.
 */
import { useEffect, useState } from 'react';
import { jobStore, listen } from './job-runner';
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

/**
 * Steps a second since the job's current run began, and seconds left at that rate; nulls until a second has
 * passed and a step settled in this run.
 */
export function jobRate(job: JobRecord, now = Date.now()): { perSecond: number | null; secondsLeft: number | null } {
  if (job.state !== 'running' || job.runStartedAt === null) return { perSecond: null, secondsLeft: null };
  const elapsed = (now - job.runStartedAt) / 1000;
  const done = job.settled - job.settledAtRunStart;
  if (elapsed < 1 || done < 1) return { perSecond: null, secondsLeft: null };
  const perSecond = done / elapsed;
  return { perSecond, secondsLeft: (job.total - job.settled) / perSecond };
}
