/**
 * Where a bulk write's time goes, statement by statement (issue 35; docs/benchmarks.md, "Checkpoints off the write
 * path"): on a copy of the seeded 1,000,000-contact SQLite file (bench/seeded-file.ts), runs six rounds of
 * `ContactStore.createMany` of 1,000 new contacts (`batch`) or `patchTagsMany` adding a tag to 10,000 `vip` contacts
 * (`tags`), with every better-sqlite3 statement's run timed, and prints each round's milliseconds and, for rounds 2
 * to 6, the 15 costliest statements (ms, count, the SQL's start) and the SQL's total:
 *
 *   npx tsx bench/statement-times.ts [batch|tags|revert] [--setup "pragma ...; ..."] [--order id|updated|rowid]
 *
 * `--setup` runs statements on the service's connection first (e.g. `pragma wal_autocheckpoint = 0`). In process, no
 * HTTP; the figures are the store's and the database's alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { contactCreateSchema } from '../src/api/contacts';
import { openMigratedDatabase } from '../server/database';
import type { Actor } from '../server/db/activity';
import { CatalogStore } from '../server/db/catalog';
import { ContactStore } from '../server/db/contacts';
import { PostStore } from '../server/db/posts';
import { Reverter } from '../server/db/revert';
import { seededFile } from './seeded-file';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { setup: { type: 'string', default: '' }, order: { type: 'string', default: 'id' } } });
const mode = positionals[0] ?? 'batch';

/** Whether statements are timed now (`revert` does not time the creates it reverts). */
let recording = true;
/** Milliseconds and runs per statement, by the first 90 characters of its SQL. */
const times = new Map<string, { n: number; ms: number }>();
type Statement = Record<string, (...args: unknown[]) => unknown>;
const prototype = SQLite.prototype as unknown as { prepare: (text: string) => Statement };
const prepare = prototype.prepare;
prototype.prepare = function (this: unknown, text: string) {
  const statement = prepare.call(this, text);
  const key = text.replace(/\s+/g, ' ').slice(0, 90);
  for (const method of ['run', 'all', 'get']) {
    const run = statement[method];
    if (!run) continue;
    statement[method] = function (this: unknown, ...args: unknown[]) {
      if (!recording) return run.apply(this, args);
      const started = performance.now();
      try {
        return run.apply(this, args);
      } finally {
        const entry = times.get(key) ?? { n: 0, ms: 0 };
        entry.n++;
        entry.ms += performance.now() - started;
        times.set(key, entry);
      }
    };
  }
  return statement;
};

const dir = mkdtempSync(join(tmpdir(), 'wsa-statement-times-'));
const { file, workspaceId } = await seededFile(dir, 1_000_000, { cacheDir: join(tmpdir(), 'wsa-bench-seeded'), log: (line) => console.error(line) });
const database = await openMigratedDatabase(file);
const { db, dialect } = database;
for (const statement of values.setup.split(';').filter((part) => part.trim())) await sql.raw(statement).execute(db);
const store = new ContactStore(db, dialect);
const reverter = new Reverter(db, dialect, { contacts: store, catalog: new CatalogStore(db, dialect), posts: new PostStore(db, dialect) });
const actor: Actor = { keyHint: 'abcd', source: 'bench', batchId: null, requestId: null, idempotencyKey: null };
let made = 0;
for (let round = 0; round < 6; round++) {
  if (round === 1) times.clear();
  const started = performance.now();
  if (mode === 'batch') {
    const items = Array.from({ length: 1000 }, () =>
      contactCreateSchema.parse({ name: `Bench Person ${made}`, email: `statement-times-${made}@example.com`, phone: `+4791${String(made++).padStart(6, '0')}`, city: 'Oslo', tags: ['bench', 'vip'] }),
    );
    await store.createMany(workspaceId, items, { actor });
  } else if (mode === 'revert') {
    const batchId = crypto.randomUUID();
    const items = Array.from({ length: 1000 }, () => contactCreateSchema.parse({ name: `Bench Person ${made}`, email: `statement-times-${made}@example.com`, phone: `+4791${String(made++).padStart(6, '0')}`, city: 'Oslo', tags: ['bench', 'vip'] }));
    recording = false;
    await store.createMany(workspaceId, items, { actor: { ...actor, batchId } });
    recording = true;
    const created = performance.now();
    const result = await reverter.revert(workspaceId, ['contacts:read-write'], actor, { batchId });
    console.log(`revert round ${round + 1}: ${result.reverted} reverted in ${(performance.now() - created).toFixed(1)} ms`);
    continue;
  } else {
    // The ids in the order `POST /contacts/tags` gives them (`--order id`, ContactStore.matchingIdsQuery), or in the
    // order of the contacts' `updated` (`--order updated`) or rowid (`--order rowid`).
    const order = { id: sql`t.contact_id`, updated: sql`c.updated desc, c.id`, rowid: sql`c.rowid` }[values.order as 'id' | 'updated' | 'rowid'];
    if (!order) throw new Error(`--order is id, updated or rowid, not ${values.order}`);
    const ids = (
      await sql<{ id: string }>`select t.contact_id as id from contact_tags t join contacts c on c.id = t.contact_id where t.workspace_id = ${workspaceId} and t.tag = 'vip' order by ${order} limit 10000 offset ${round * 10_000}`.execute(db)
    ).rows.map((row) => row.id);
    await store.patchTagsMany(workspaceId, ids, [`statement-times-${round}`], [], { actor, batchId: crypto.randomUUID() });
  }
  console.log(`${mode} round ${round + 1}: ${(performance.now() - started).toFixed(1)} ms`);
}
const total = [...times.values()].reduce((sum, entry) => sum + entry.ms, 0);
for (const [key, entry] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) console.log(`${entry.ms.toFixed(0).padStart(6)} ms ${String(entry.n).padStart(6)}x  ${key}`);
console.log(`SQL in rounds 2 to 6: ${total.toFixed(0)} ms`);
await database.close();
rmSync(dir, { recursive: true, force: true });
