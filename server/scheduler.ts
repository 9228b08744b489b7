/**
 * The background job that makes stored post states catch up with time (issue 3): every `intervalMs` it marks
 * due scheduled posts published. Lists never wait for it (they decide visibility at read time); it publishes
 * each post exactly once even with several processes on one database (see PostStore.publishDuePosts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PostStore } from './db/posts';

/** Starts the job; returns a function that stops it. Errors are logged and the job keeps running. */
export function startScheduler(posts: PostStore, intervalMs: number, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    posts
      .publishDuePosts()
      .then((ids) => {
        if (ids.length) log.info({ posts: ids }, 'published scheduled posts');
      })
      .catch((error: unknown) => log.error({ err: error }, 'publishing scheduled posts failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
