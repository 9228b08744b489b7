/**
 * The background job that makes stored state catch up with time: every `intervalMs` it marks due scheduled posts
 * published (issue 3), and at most once a minute deletes activity entries older than the retention
 * (`ACTIVITY_RETENTION_DAYS`, docs/decisions.md section 11), at most 1,000 a transaction (ActivityStore.prune). Lists
 * never wait for it (they decide visibility at read time); it publishes each post exactly once even with several
 * processes on one database (see PostStore.publishDuePosts); processes pruning at once delete disjoint or no rows.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityStore } from './db/activity';
import type { PostStore } from './db/posts';

/** What the job works on: the posts, the activity log and its retention in days (0 keeps everything). */
export type SchedulerWork = { posts: PostStore; activity: ActivityStore; retentionDays: number };

/** How often the activity log is pruned, at most, in ms. */
const PRUNE_EVERY_MS = 60_000;

/** Starts the job; returns a function that stops it. Errors are logged and the job keeps running. */
export function startScheduler({ posts, activity, retentionDays }: SchedulerWork, intervalMs: number, log: FastifyBaseLogger): () => void {
  let running = false;
  let prunedAt = 0;
  const timer = setInterval(() => {
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
  return () => clearInterval(timer);
}
