// The V8 flags `npm start` (scripts/start.mjs) runs the service with, here so the tests that start the service
// as `npm start` does (server/test/started-service.ts) and the benchmark (bench/server-process.ts) use the same.
// What they bound and why: docs/benchmarks.md, "Memory under load" (issue 21 point 3).
// - `--max-semi-space-size=4` (MB): the young generation's two halves at most 4 MB each instead of 16 MB (Node 20 on
//   64-bit): under load every request's garbage filled 16 MB halves before a scavenge, 24 MB more of RSS.
// - `--max-old-space-size=160` (MB): V8 collects the old generation as it nears 160 MB instead of letting it grow
//   toward its default limit (over 2 GB) while garbage piles up; the service's live heap under the mixed load
//   stays far below it.
export const START_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=160'];
