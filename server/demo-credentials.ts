/**
 * The demo workspaces' keys in clear, kept in `demo-credentials.json` beside the SQLite file (mode 0600) so
 * `npm start` can print them again and the dashboard can offer them (issue 4). Only the demo seed writes it;
 * the database itself stores every key hashed (docs/decisions.md section 1).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isPostgresUrl, sqliteFile } from './db/connection';
import type { DemoSeedResult } from './db/seed';

/** Where the demo credentials of the database at `databaseUrl` live; null for a non-file database. */
export function demoCredentialsPath(databaseUrl: string): string | null {
  if (isPostgresUrl(databaseUrl)) return null;
  const file = sqliteFile(databaseUrl);
  return file === ':memory:' ? null : join(dirname(file), 'demo-credentials.json');
}

export function saveDemoCredentials(databaseUrl: string, result: DemoSeedResult): void {
  const path = demoCredentialsPath(databaseUrl);
  if (!path) return;
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function loadDemoCredentials(databaseUrl: string): DemoSeedResult | null {
  const path = demoCredentialsPath(databaseUrl);
  if (!path || !existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DemoSeedResult;
  } catch {
    return null;
  }
}
