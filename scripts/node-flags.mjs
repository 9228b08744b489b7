// The V8 flags `npm start` (scripts/start.mjs) runs the service with, here so the tests that start the service
// as `npm start` does (server/test/started-service.ts) and the benchmark (bench/server-process.ts) use the same.
// What they bound and why: docs/benchmarks.md, "Memory under load" (issue 21 point 3).
export const START_NODE_FLAGS = [];
