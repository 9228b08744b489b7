/**
 * `npm run bench:counts` (issue 39 point 2, issue 35's `GET /stats`): what the kept counts (migrations 0010 and 0011,
 * server/db/contact-counts.ts) save a read and cost a write, as ratios measured in one run, interleaved A B A B, on
 * SQLite and PostgreSQL:
 *
 *   npm run bench:counts -- [--database sqlite|postgres|both] [--contacts N] [--rounds R] [--postgres-url URL]
 *
 * Reads (each on a new ContactStore, so no cached count; the database's own caches warm for both):
 * - a tag's count (`meta.maxResults` of `tags eq 'vip'`, 10% of the contacts) and a state's (`state eq 'active'`,
 *   70%): read from the kept counts, against the scan the store ran before (the filter's count query);
 * - `GET /contacts/stats` of `tags eq 'vip'`: its states from the kept counts (a tag's contacts per state, migration
 *   0011) and its top tags from its tag rows alone, against the store's query over the matching contacts;
 * - the contact figures of `GET /stats` (total, per state, top 20 tags, created per day over 12 weeks): from the kept
 *   counts, against the three grouped scans the store ran before.
 * Writes (with the count triggers, against the same database with them dropped; recreated after):
 * - `POST /contacts/batch`'s write of 1,000 new contacts (`ContactStore.createMany`);
 * - `POST /contacts/tags`' write adding a tag to 10,000 contacts and removing it again (`patchTagsMany`).
 * Prints one table per database: medians of R rounds (default 5) and the ratio. N defaults to 1,000,000; SQLite's
 * seeded file is kept in /tmp/wsa-bench-seeded (bench/seeded-file.ts), PostgreSQL is seeded into a new database that is
 * dropped at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { contactCreateSchema } from '../src/api/contacts';
import { parseFilter } from '../src/api/filter/parse';
import { openMigratedDatabase } from '../server/database';
import type { ServiceDatabase } from '../server/db/connection';
import { countTriggers } from '../server/db/contact-counts';
import { ContactStore } from '../server/db/contacts';
import { lastTwelveWeeks } from '../server/db/stats';
import { DEFAULT_POSTGRES_URL, createBenchDatabase, loadAverage } from './bench-database';
import { median } from './export-compare';
import { seededFile } from './seeded-file';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    contacts: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
    'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
  },
});
const CONTACTS = Number(values.contacts);
const ROUNDS = Number(values.rounds);
const log = (line: string) => console.error(line);

/** Milliseconds `run` takes. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

type Row = { name: string; a: number; b: number; aName: string; bName: string };

/** A and B `ROUNDS` times each, interleaved (`between` after each pair); the medians. */
async function compare(name: string, aName: string, a: () => Promise<unknown>, bName: string, b: () => Promise<unknown>, between?: (side: 'a' | 'b') => Promise<void>): Promise<Row> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await between?.('a');
    as.push(await timed(a));
    await between?.('b');
    bs.push(await timed(b));
  }
  const row = { name, a: median(as), b: median(bs), aName, bName };
  log(`  ${name}: ${aName} ${row.a.toFixed(1)} ms, ${bName} ${row.b.toFixed(1)} ms`);
  return row;
}

async function measure(database: ServiceDatabase, workspaceId: string): Promise<Row[]> {
  const { db, dialect } = database;
  const rows: Row[] = [];
  const fresh = () => new ContactStore(db, dialect, { anchorsFrom: 0 });
  const scanning = () => new ContactStore(db, dialect, { anchorsFrom: 0, keptCounts: false });
  for (const filter of ["tags eq 'vip'", "state eq 'active'"]) {
    rows.push(await compare(`count of ${filter}`, 'kept', () => fresh().count(workspaceId, parseFilter(filter)), 'scan', () => scanning().count(workspaceId, parseFilter(filter))));
  }
  // A tag filter's figures (issue 35): its states from the kept counts and its tags from the tag rows alone (kept),
  // against the query the store ran before (the matching contacts materialized, their states and tag rows read).
  const vip = parseFilter("tags eq 'vip'");
  rows.push(await compare("GET /contacts/stats of tags eq 'vip'", 'kept', () => fresh().stats(workspaceId, vip), 'scan', () => scanning().stats(workspaceId, vip)));
  const from = lastTwelveWeeks(Date.now())[0] as string;
  rows.push(
    await compare(
      'GET /stats contact figures',
      'kept',
      async () => {
        const store = fresh();
        await Promise.all([store.stats(workspaceId, undefined), store.createdPerDay(workspaceId, from)]);
      },
      'scan',
      () =>
        Promise.all([
          db.selectFrom('contacts').select(['state', (eb) => eb.fn.countAll().as('n')]).where('workspace_id', '=', workspaceId).groupBy('state').execute(),
          db.selectFrom('contact_tags').select(['tag', (eb) => eb.fn.countAll<number>().as('n')]).where('workspace_id', '=', workspaceId).groupBy('tag').orderBy('n', 'desc').orderBy('tag').limit(20).execute(),
          db
            .selectFrom('contacts')
            .select([sql<string>`substr(created, 1, 10)`.as('day'), (eb) => eb.fn.countAll().as('n')])
            .where('workspace_id', '=', workspaceId)
            .where('created', '>=', from)
            .groupBy(sql`substr(created, 1, 10)`)
            .execute(),
        ]),
    ),
  );

  // Writes: with the triggers (A) and without them (B), the triggers dropped and made again between the two.
  const triggers = countTriggers(dialect.name).filter((statement) => statement.startsWith('create trigger'));
  const triggerNames = triggers.map((statement) => {
    const [, name, table] = /create trigger (\w+) .*? on (\w+)/s.exec(statement) ?? [];
    return { name, table };
  });
  let withTriggers = true;
  const setTriggers = async (side: 'a' | 'b') => {
    const wanted = side === 'a';
    if (wanted === withTriggers) return;
    for (const { name, table } of triggerNames) {
      if (!wanted) await sql.raw(dialect.name === 'postgres' ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`).execute(db);
    }
    if (wanted) for (const statement of triggers) await sql.raw(statement).execute(db);
    withTriggers = wanted;
  };
  const writer = new ContactStore(db, dialect);
  let made = 0;
  const batch = (size: number) => () => {
    const items = Array.from({ length: size }, () => contactCreateSchema.parse({ name: `Bench ${made}`, email: `kept-counts-${made++}@example.com`, tags: ['bench', 'vip'] }));
    return writer.createMany(workspaceId, items);
  };
  // After the DDL, one small write of the same kind, untimed: the first statements after a schema change plan again on
  // every pooled connection, a cost of the toggling and not of the triggers.
  const toggled = (warm: () => Promise<unknown>) => async (side: 'a' | 'b') => {
    await setTriggers(side);
    await warm();
  };
  rows.push(await compare('POST /contacts/batch of 1,000 (write)', 'triggers', batch(1000), 'none', batch(1000), toggled(batch(20))));
  const ids = (await db.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).orderBy('id').limit(10_000).execute()).map((row) => row.id);
  const tagging = (some: readonly string[]) => async () => {
    await writer.patchTagsMany(workspaceId, some, ['bench-counted'], []);
    await writer.patchTagsMany(workspaceId, some, [], ['bench-counted']);
  };
  rows.push(await compare('POST /contacts/tags on 10,000, add and remove (write)', 'triggers', tagging(ids), 'none', tagging(ids), toggled(tagging(ids.slice(0, 50)))));
  await setTriggers('a');
  return rows;
}

function table(title: string, rows: Row[]): string {
  const lines = [`\n${title} (${CONTACTS.toLocaleString('en-US')} contacts, medians of ${ROUNDS} interleaved rounds, load ${loadAverage()})`, '| case | A | ms | B | ms | A/B |', '|---|---|---:|---|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.name} | ${row.aName} | ${row.a.toFixed(1)} | ${row.bName} | ${row.b.toFixed(1)} | ${(row.a / row.b).toFixed(3)} |`);
  return lines.join('\n');
}

async function main() {
  const kinds = values.database === 'both' ? (['sqlite', 'postgres'] as const) : ([values.database as 'sqlite' | 'postgres'] as const);
  const output: string[] = [];
  for (const kind of kinds) {
    log(`${kind}:`);
    if (kind === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'wsa-counts-'));
      try {
        const seeded = await seededFile(dir, CONTACTS, { log, cacheDir: join(tmpdir(), 'wsa-bench-seeded') });
        const started = performance.now();
        const database = await openMigratedDatabase(seeded.file);
        log(`  migrated (0010 fills the counts when the cached file predates it) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        try {
          output.push(table('SQLite', await measure(database, seeded.workspaceId)));
        } finally {
          await database.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      const bench = await createBenchDatabase({ kind: 'postgres', contacts: CONTACTS, postgresUrl: values['postgres-url'], log });
      try {
        const database = await openMigratedDatabase(bench.databaseUrl);
        try {
          output.push(table(bench.engine, await measure(database, bench.workspaceId)));
        } finally {
          await database.close();
        }
      } finally {
        await bench.drop();
      }
    }
  }
  console.log(output.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
