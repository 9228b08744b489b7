/**
 * Backups (issue 37 point 1): `cli backup --to FILE` taken while 12 writers create contacts through the real
 * service, then `cli restore --from FILE` into another path: the restored database passes `PRAGMA
 * integrity_check` and holds every contact whose creation was acknowledged (201) before the backup command was
 * started. The commands run as child processes (server/cli.ts compiled, run by Node), as an operator runs them, so the backup's
 * read and the service's writes are two processes, as in production. Also prints the writers' slowest answer
 * while the backup ran (docs/deploy.md, Backups). SQLite only: PostgreSQL is backed up with pg_dump.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from './harness';
import { buildService } from './started-service';
import { TEST_DATABASE } from './test-database';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs the compiled operator command line (started-service.ts `buildService`) with `args` on `databaseUrl`. */
async function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const compiled = (await buildService()).cli;
  return new Promise((done) =>
    execFile(process.execPath, [compiled, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 120_000 }, (error, stdout, stderr) =>
      done({ code: error ? 1 : 0, stdout, stderr }),
    ),
  );
}

describe.skipIf(TEST_DATABASE !== 'sqlite')('cli backup and restore under 12 writers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('restores a copy that passes the integrity check and holds every write acknowledged before the backup began', async () => {
    const file = join(server.dir, 'app.sqlite');
    const backup = join(server.dir, 'backup.sqlite');
    const acknowledged: { id: string; at: number }[] = [];
    const during: number[] = [];
    const statuses: number[] = [];
    let backupRunning = false;
    let stop = false;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const sent = performance.now();
        const response = await fetch(`${server.baseUrl}/contacts`, {
          method: 'POST',
          headers: { 'x-api-key': server.a.key, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Writer ${n} contact ${i}`, tags: ['backup'] }),
        });
        const body = (await response.json()) as { id: string };
        if (backupRunning) during.push(performance.now() - sent);
        if (response.status === 201) acknowledged.push({ id: body.id, at: performance.now() });
        else statuses.push(response.status);
      }
    };
    const writers = Array.from({ length: 12 }, (_, n) => writer(n));
    for (let waited = 0; acknowledged.length < 50 && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    if (statuses.length) stop = true;
    expect(statuses).toEqual([]);
    const backupStarted = performance.now();
    backupRunning = true;
    const taken = await cli(file, 'backup', '--to', backup);
    backupRunning = false;
    stop = true;
    await Promise.all(writers);
    expect(taken.code, taken.stderr).toBe(0);
    expect(JSON.parse(taken.stdout)).toMatchObject({ file: backup, bytes: expect.any(Number) });
    const before = acknowledged.filter((write) => write.at < backupStarted).map((write) => write.id);
    expect(before.length).toBeGreaterThan(0);
    console.log(`backup: ${before.length} writes acknowledged before it, ${during.length} during it; slowest write during it ${Math.max(...during).toFixed(0)} ms`);

    const restoredFile = join(server.dir, 'restored.sqlite');
    const restored = await cli(restoredFile, 'restore', '--from', backup);
    expect(restored.code, restored.stderr).toBe(0);
    const database = new SQLite(restoredFile, { readonly: true });
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(database.prepare('select id from contacts').pluck().all() as string[]);
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      database.close();
    }
  }, 180_000);

  it('refuses to restore a file that fails the integrity check, touching nothing', async () => {
    const bad = join(server.dir, 'not-a-database.sqlite');
    (await import('node:fs')).writeFileSync(bad, 'this is not SQLite'.repeat(100));
    const target = join(server.dir, 'untouched.sqlite');
    const result = await cli(target, 'restore', '--from', bad);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/not a readable SQLite database|failed its integrity check/);
    expect((await import('node:fs')).existsSync(target)).toBe(false);
  }, 60_000);
});
