import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { catalogs } from './vite-catalogs';

/**
 * Unit and HTTP tests. Three projects (issue 8: one suite, two database targets): `console` runs the console's tests
 * (src/, against real servers on SQLite where they talk to one), `sqlite` the server's, and `postgres` runs the
 * server tests again with `TEST_DATABASE=postgres` (server/test/test-database.ts), which
 * fails with what to do when PostgreSQL is not reachable. `TEST_POSTGRES=off` leaves that project out, and
 * says so.
 */
const postgres = process.env.TEST_POSTGRES !== 'off';
if (!postgres) console.warn('TEST_POSTGRES=off: the server tests run on SQLite only, not on PostgreSQL.');

/**
 * Vitest's default in a run is one worker fewer than the cores: one on CI's two. The server tests wait on sockets,
 * child processes and PostgreSQL as much as they compute, so two files at a time keep both cores busy.
 */
const maxWorkers = Math.max(2, availableParallelism() - 1);

/**
 * Every project runs with `isolate: false`: a worker imports zod, Fastify, Kysely and the catalogs once and runs file
 * after file on them, instead of importing them again for each file; each server file still starts its own server on
 * its own database. Measured on this machine: the server suite 3 min 53 s instead of 6 min 8 s, the console's 29 s
 * instead of 53 s. The setup file activates English again before each file. A console test that checks module state
 * from the start (the parser loaded on demand) starts from `vi.resetModules()`; the files pass in any order
 * (`--sequence.shuffle.files`).
 */
const shared = { isolate: false, setupFiles: ['src/i18n/test-setup.ts'], environment: 'node' as const, pool: 'forks' as const, testTimeout: 20_000, hookTimeout: 30_000 };

export default defineConfig({
  plugins: [catalogs()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    maxWorkers,
    projects: [
      { extends: true as const, test: { ...shared, name: 'console', include: ['src/**/*.test.ts'] } },
      { extends: true as const, test: { ...shared, name: 'sqlite', include: ['server/**/*.test.ts'] } },
      ...(postgres ? [{ extends: true as const, test: { ...shared, name: 'postgres', include: ['server/**/*.test.ts'], env: { TEST_DATABASE: 'postgres' } } }] : []),
    ],
  },
});
