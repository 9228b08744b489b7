/**
 * The background job that makes stored state catch up with time: every `intervalMs` it marks due scheduled posts
 * published (issue 3), and at most once a minute deletes activity entries older than the retention
 * (`ACTIVITY_RETENTION_DAYS`, docs/decisions.md section 11), at most 1,000 a transaction (ActivityStore.prune). Lists
 * never wait for it (they decide visibility at read time); it publishes each post exactly once even with several
 * processes on one database (see PostStore.publishDuePosts); processes pruning at once delete disjoint or no rows. On
 * SQLite, at most once a minute, it merges the contact search index when its segments call for it
 * (server/db/search-upkeep.ts); two processes merging at once take turns step by step.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityStore } from './db/activity';
import type { PostStore } from './db/posts';
import type { SearchIndexUpkeep } from './db/search-upkeep';

/**
 * What the job works on: the posts, the activity log and its retention in days (0 keeps everything), and on SQLite
 * the contact search index's upkeep.
 */
export type SchedulerWork = { posts: PostStore; activity: ActivityStore; retentionDays: number; search?: SearchIndexUpkeep };

/** How often the activity log is pruned, at most, in ms. */
const PRUNE_EVERY_MS = 60_000;

/** How often the search index's segments are looked at (and merged when `needsMerge` says so), at most, in ms. */
const SEARCH_CHECK_EVERY_MS = 60_000;

/**
 * Starts the job; returns a function that stops it, resolving once a search index merge under way has ended its
 * step. Errors are logged and the job keeps running.
 */
export function startScheduler({ posts, activity, retentionDays, search }: SchedulerWork, intervalMs: number, log: FastifyBaseLogger): () => Promise<void> {
  let running = false;
  let prunedAt = 0;
  let checkedAt = 0;
  let merging: Promise<void> | null = null;
  const timer = setInterval(() => {
    // Apart from the posts: a merge takes seconds on a large index (steps of 25 ms, other requests served between).
    if (search && !merging && Date.now() - checkedAt >= SEARCH_CHECK_EVERY_MS) {
      checkedAt = Date.now();
      merging = search
        .mergeIfNeeded()
        .then((run) => {
          if (run) log.info({ steps: run.steps, ms: Math.round(run.ms), complete: run.complete }, 'merged the contact search index');
        })
        .catch((error: unknown) => log.error({ err: error }, 'merging the contact search index failed'))
        .finally(() => {
          merging = null;
        });
    }
    if (running) return;
    running = true;
    const prune = retentionDays > 0 && Date.now() - prunedAt >= PRUNE_EVERY_MS;
    if (prune) prunedAt = Date.now();
    posts
      .publishDuePosts()
      .then((ids) => {
        if (ids.length) log.info({ posts: ids }, 'published scheduled posts');
        return prune ? activity.prune(retentionDays) : 0;
      })
      .then((deleted) => {
        if (deleted) log.info({ deleted }, 'deleted old activity entries');
      })
      .catch((error: unknown) => log.error({ err: error }, 'publishing scheduled posts failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    search?.stop();
    await merging;
  };
}
