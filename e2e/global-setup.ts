/**
 * Browser-test setup (issue 4): builds the dashboard when dist/ is missing and compiles the service and its command
 * line (dist-server/, as `npm start` runs them), creates a fresh SQLite file, seeds it
 * through the operator command line (the demo organization, a key with few scopes, a workspace without a key),
 * starts the real server on a free port, and writes what the tests need to e2e/.state.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, cli, compileService, startService } from './server';
import { type E2eState, stateFile } from './state';

export default async function globalSetup() {
  if (!existsSync(join(process.env.DASHBOARD_DIR ?? join(ROOT, 'dist'), 'index.html'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  compileService();
  const dir = mkdtempSync(join(tmpdir(), 'wsa-e2e-'));
  const databaseUrl = join(dir, 'app.sqlite');
  const demo = cli<E2eState['demo']>(databaseUrl, 'demo', 'seed');
  const first = demo.workspaces[0]!;
  const limited = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', first.id, '--scope', 'contacts:read-only');
  const keyless = cli<{ id: string; name: string }>(databaseUrl, 'workspace', 'create', '--org', demo.organization.id, '--name', 'Keyless Kiosk');
  const server = await startService(databaseUrl);
  const state: E2eState = { baseURL: server.baseURL, pid: server.process.pid ?? 0, dir, databaseUrl, demo, limitedKey: limited.key, keylessWorkspace: keyless };
  writeFileSync(stateFile(), JSON.stringify(state, null, 2));
  process.env.E2E_BASE_URL = server.baseURL;
}
