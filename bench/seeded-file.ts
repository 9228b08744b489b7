/**
 * A seeded SQLite database for the browser benchmarks (bench:import, bench:ui), optionally kept between runs:
 * seeding a million contacts takes a minute or more on a loaded machine (bench/seed-contacts.ts), and its file
 * (about 1.4 GB with the search index) is the same every time, since the generator is deterministic.
 *
 * `seededFile(dir, count, { cacheDir })` makes `dir/app.sqlite` with one organization, one workspace, one API key
 * with every scope and `count` contacts. With `cacheDir`, a database seeded before with the same count is copied
 * from `cacheDir/contacts-<count>.<SEED_LAYOUT>.sqlite` (its workspace, organization and key from the `.json` beside
 * it) instead of being seeded again, and a fresh one is copied there for the next run. The copy is migrated by the server when it
 * starts (server/database.ts), so a cache made before a new migration still works. Throws what seeding or copying
 * throws.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { seedContacts } from './seed-contacts';

/**
 * What a cached file's name says it was seeded with: 2 since the seeder merges the search index (a file of layout 1
 * would have the service merging it for its first 20 to 30 s, beside what is measured).
 */
const SEED_LAYOUT = 2;

export type SeededFile = { file: string; organizationId: string; workspaceId: string; apiKey: string; seedSeconds: number | null };

export async function seededFile(dir: string, count: number, options: { cacheDir?: string; log?: (line: string) => void } = {}): Promise<SeededFile> {
  const log = options.log ?? (() => undefined);
  const file = join(dir, 'app.sqlite');
  const cached = options.cacheDir ? join(options.cacheDir, `contacts-${count}.${SEED_LAYOUT}.sqlite`) : null;
  if (cached && existsSync(cached) && existsSync(`${cached}.json`)) {
    const started = performance.now();
    copyFileSync(cached, file);
    log(`copied the seeded database from ${cached} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { file, ...(JSON.parse(readFileSync(`${cached}.json`, 'utf8')) as Omit<SeededFile, 'file' | 'seedSeconds'>), seedSeconds: null };
  }
  const database = await openMigratedDatabase(file);
  const organization = await createOrganization(database.db, 'Bench Org');
  const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Bench Workspace' });
  const apiKey = await createApiKey(database.db, workspace.id, SCOPES);
  await database.close();
  const started = performance.now();
  seedContacts(file, workspace.id, count, { onProgress: (done) => log(`seeded ${done.toLocaleString('en-US')}`) });
  const seedSeconds = (performance.now() - started) / 1000;
  log(`seeded ${count.toLocaleString('en-US')} contacts in ${seedSeconds.toFixed(1)} s`);
  const meta = { organizationId: organization.id, workspaceId: workspace.id, apiKey };
  if (cached) {
    // One file without its WAL, so a plain copy is the whole database.
    const sqlite = new SQLite(file);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.close();
    mkdirSync(options.cacheDir!, { recursive: true });
    copyFileSync(file, cached);
    writeFileSync(`${cached}.json`, JSON.stringify(meta));
    log(`kept a copy in ${cached} for the next run`);
  }
  return { file, ...meta, seedSeconds };
}
