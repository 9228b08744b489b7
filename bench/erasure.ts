/**
 * What an erasure costs on a large SQLite database (issue 22 point 3; docs/decisions.md section 10): `ContactStore.erase`
 * one contact at a time, as a bulk erasure job sends them, on a database of `--contacts` contacts (default 200,000,
 * seeded by seed-contacts.ts), in four interleaved-free phases of `--erasures` each (default 200):
 * 1. as shipped: `secure_delete` on, FTS5 `secure-delete` on, `wal_checkpoint(TRUNCATE)` after each erasure;
 * 2. without the checkpoint; 3. without the checkpoint and `secure_delete`; 4. as shipped again (order effects).
 * Prints one JSON object: per phase the median, p95 and mean milliseconds per erasure, and the checkpoint's own
 * median. Run: `npx tsx bench/erasure.ts [--contacts N] [--erasures M]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openMigratedDatabase } from '../server/database';
import { ContactStore } from '../server/db/contacts';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { seedContacts } from './seed-contacts';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const contacts = arg('contacts', 200_000);
const erasures = arg('erasures', 200);

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
const round = (value: number) => Math.round(value * 100) / 100;

const dir = mkdtempSync(join(tmpdir(), 'wsa-erasure-'));
const file = join(dir, 'bench.sqlite');
try {
  let database = await openMigratedDatabase(file);
  const organization = await createOrganization(database.db, 'Erasure bench');
  const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Erasure bench' });
  await database.close();
  const seeded = Date.now();
  seedContacts(file, workspace.id, contacts);
  const seedMs = Date.now() - seeded;
  database = await openMigratedDatabase(file);
  const store = new ContactStore(database.db, database.dialect);
  const ids = (await database.db.selectFrom('contacts').select('id').where('workspace_id', '=', workspace.id).orderBy(sql`random()`).limit(erasures * 4).execute()).map((row) => row.id);
  const realCheckpoint = store.checkpoint.bind(store);
  let checkpointMs: number[] = [];
  const phases: Record<string, unknown> = {};
  const phase = async (name: string, options: { checkpoint: boolean; secureDelete: boolean }) => {
    await sql.raw(`pragma secure_delete = ${options.secureDelete ? 'on' : 'off'}`).execute(database.db);
    checkpointMs = [];
    store.checkpoint = options.checkpoint
      ? async () => {
          const started = performance.now();
          const emptied = await realCheckpoint();
          checkpointMs.push(performance.now() - started);
          return emptied;
        }
      : async () => true;
    const times: number[] = [];
    for (const id of ids.splice(0, erasures)) {
      const started = performance.now();
      await store.erase(workspace.id, id);
      times.push(performance.now() - started);
    }
    phases[name] = {
      medianMs: round(percentile(times, 0.5)),
      p95Ms: round(percentile(times, 0.95)),
      meanMs: round(times.reduce((sum, time) => sum + time, 0) / times.length),
      checkpointMedianMs: checkpointMs.length ? round(percentile(checkpointMs, 0.5)) : null,
    };
  };
  await phase('shipped', { checkpoint: true, secureDelete: true });
  await phase('noCheckpoint', { checkpoint: false, secureDelete: true });
  await phase('noCheckpointNoSecureDelete', { checkpoint: false, secureDelete: false });
  await phase('shippedAgain', { checkpoint: true, secureDelete: true });
  console.log(JSON.stringify({ contacts, erasuresPerPhase: erasures, databaseMB: round(statSync(file).size / 1e6), seedMs, phases }, null, 2));
  await database.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
