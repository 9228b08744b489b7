import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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
/**
 * Server test files whose subject no database changes, run once (on SQLite) rather than again on PostgreSQL (issue
 * 38 point 2, the suite's time): the HTTP layer below the routes (transport), proxy mode (it forwards to another
 * service, with no database of its own), the dashboard's serving and headers, the OpenAPI document, the
 * environment's parsing, the export's quoters, the chunk sizing and the deep pages' anchor cache. Files that only
 * skip some of their tests on PostgreSQL do that themselves (`TEST_DATABASE`).
 */
const SQLITE_ONLY = ['server/test/transport.test.ts', 'server/test/timed-chunks.test.ts', 'server/test/anchor-cache.test.ts', 'server/test/proxy.test.ts', 'server/test/dashboard.test.ts', 'server/test/openapi.test.ts', 'server/test/config.test.ts', 'server/test/export-encoding.test.ts'];

/**
 * Server test files that spend most of their time waiting on timers (a socket left idle until the service closes it,
 * the shipped timeouts), not computing: started before the rest, so their waits overlap the other files' work instead
 * of being the run's last minute. Vitest otherwise starts the largest files first on a clean clone (no timings kept),
 * and these small ones came last: in CI at 5dabedd the last three files, 13 to 23 s each, ran nearly alone.
 */
const WAITING_FIRST = ['server/test/keyless-upload.test.ts', 'server/test/silent-sockets.test.ts', 'server/test/default-timeouts.test.ts'];

/** Vitest's order (failed first, then the longest or largest), with `WAITING_FIRST` moved to the front. */
class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) => WAITING_FIRST.some((name) => file.moduleId.endsWith(name));
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}

const shared = { isolate: false, setupFiles: ['src/i18n/test-setup.ts'], environment: 'node' as const, pool: 'forks' as const, testTimeout: 20_000, hookTimeout: 30_000 };

export default defineConfig({
  plugins: [catalogs()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    maxWorkers,
    sequence: { sequencer: WaitingFirst },
    projects: [
      { extends: true as const, test: { ...shared, name: 'console', include: ['src/**/*.test.ts'] } },
      { extends: true as const, test: { ...shared, name: 'sqlite', include: ['server/**/*.test.ts'] } },
      ...(postgres ? [{ extends: true as const, test: { ...shared, name: 'postgres', include: ['server/**/*.test.ts'], exclude: SQLITE_ONLY, env: { TEST_DATABASE: 'postgres' }, globalSetup: ['server/test/postgres-global-setup.ts'] } }] : []),
    ],
  },
});
