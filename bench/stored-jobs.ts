/**
 * The console's durable jobs as the benchmarks read them: the first job record in the page's IndexedDB
 * (`workspace-admin.jobs`, store `jobs`; src/lib/jobs/job-store.ts), read from inside the page.
 */
import type { Page } from '@playwright/test';

/** A stored job's fields the benchmarks print; times are epoch ms, counts per outcome. */
export type StoredJob = { state: string; total: number; settled: number; counts: Record<string, number>; runStartedAt: number; finishedAt: number };

/**
 * The expression, evaluated in a page, whose promise resolves to its first stored job, or null when there is none or
 * the database cannot be read. A string, not a function: tsx's transform would add helpers (`__name`) the page does
 * not have.
 */
export const FIRST_JOB = `new Promise((resolve) => {
    const open = indexedDB.open('workspace-admin.jobs');
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const all = open.result.transaction('jobs').objectStore('jobs').getAll();
      all.onsuccess = () => { open.result.close(); resolve(all.result[0] ?? null); };
      all.onerror = () => { open.result.close(); resolve(null); };
    };
  })`;

/** The first stored job of `page` (`FIRST_JOB`). */
export function readFirstJob(page: Page): Promise<StoredJob | null> {
  return page.evaluate<StoredJob | null>(FIRST_JOB);
}

/** Reads the first stored job every 250 ms until its state is `done`; resolves with it. */
export async function waitForFinishedJob(page: Page): Promise<StoredJob> {
  for (;;) {
    const job = await readFirstJob(page);
    if (job?.state === 'done') return job;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
