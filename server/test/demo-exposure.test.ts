/**
 * The one-click demo only where only this machine can reach the server (issue 21 point 4): `/app-config.json`
 * hands out the demo keys when `HOST` is a loopback address or `DEMO_PUBLIC=on`, and the start warns when
 * `HOST` is not loopback. The process tests start the service as `npm start` runs it (started-service.ts), on
 * SQLite only: the demo keys are kept beside an SQLite file (demo-credentials.ts), so a PostgreSQL database never
 * offers them whatever `HOST` is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { demoWarning, isLoopbackHost, offersDemo } from '../demo-exposure';
import { buildService, startService } from './started-service';
import { TEST_DATABASE } from './test-database';

describe('which addresses are loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(offersDemo(host, false)).toBe(true);
    expect(demoWarning(host, false, true)).toBeNull();
  });

  it.each(['0.0.0.0', '::', '10.0.0.5', '192.168.1.20', '::ffff:10.0.0.1', 'fe80::1', 'admin.example.com', '128.0.0.1'])('%s is exposed', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(offersDemo(host, false)).toBe(false);
    expect(offersDemo(host, true)).toBe(true);
    expect(demoWarning(host, false, true)).toMatch(/^WARNING: .*one-click demo is off/);
    expect(demoWarning(host, true, true)).toMatch(/^WARNING: .*DEMO_PUBLIC=on: \/app-config\.json hands the demo workspaces' keys to anyone/);
    expect(demoWarning(host, true, false)).toBeNull();
  });

  it('reads DEMO_PUBLIC as on or off (default off) and refuses anything else', () => {
    expect(loadConfig({}).demoPublic).toBe(false);
    expect(loadConfig({ DEMO_PUBLIC: 'on' }).demoPublic).toBe(true);
    expect(loadConfig({ DEMO_PUBLIC: 'off' }).demoPublic).toBe(false);
    expect(() => loadConfig({ DEMO_PUBLIC: 'yes' })).toThrow("DEMO_PUBLIC must be on or off, got 'yes'");
  });
});

// The first start seeds the demo (2,500 contacts), which on a busy machine takes more than the default 20 s.
describe.skipIf(TEST_DATABASE !== 'sqlite')('the started service (npm start)', { timeout: 60_000 }, () => {
  let service: Awaited<ReturnType<typeof buildService>>;
  let dir: string;
  beforeAll(async () => {
    service = await buildService();
    dir = mkdtempSync(join(tmpdir(), 'wsa-demo-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** The demo of /app-config.json and the start's stderr with `env` (the database seeded by the first start). */
  async function startWith(env: Record<string, string>) {
    const started = await startService(service.entry, { DATABASE_URL: join(dir, 'app.sqlite'), ...env });
    try {
      const config = (await (await fetch(`${started.origin}/app-config.json`)).json()) as { demo: { workspaces: { key: string }[] } | null };
      return { demo: config.demo, stderr: started.stderr(), stdout: started.stdout() };
    } finally {
      await started.stop();
    }
  }

  it('offers the demo keys on the default HOST (127.0.0.1), without a warning', async () => {
    const { demo, stderr, stdout } = await startWith({});
    expect(demo?.workspaces.length).toBeGreaterThan(0);
    expect(stdout).toContain(demo!.workspaces[0]!.key); // the operator's console still gets them
    expect(stderr).not.toMatch(/WARNING/);
  });

  it('offers no demo key on HOST=0.0.0.0 and warns at start', async () => {
    const { demo, stderr } = await startWith({ HOST: '0.0.0.0' });
    expect(demo).toBeNull();
    expect(stderr).toMatch(/WARNING: HOST=0\.0\.0\.0 is not a loopback address: the one-click demo is off/);
  });

  it('offers the demo keys on HOST=0.0.0.0 with DEMO_PUBLIC=on, and warns that anyone can take them', async () => {
    const { demo, stderr } = await startWith({ HOST: '0.0.0.0', DEMO_PUBLIC: 'on' });
    expect(demo?.workspaces.length).toBeGreaterThan(0);
    expect(stderr).toMatch(/WARNING: HOST=0\.0\.0\.0 is not a loopback address and DEMO_PUBLIC=on: .*anyone who can reach this server/);
  });
});
