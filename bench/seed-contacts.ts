/**
 * Fast, deterministic bulk seeding of contacts for the API benchmark. Writes the same columns as
 * `fakeContacts`/`insertContacts` (server/db/seed.ts), including the `contact_tags` rows, and bumps the
 * workspace's `contacts_version`, but draws every value from a seeded PRNG over small pools of faker-made
 * values (`generateContacts`, one generator for both databases) and inserts in bulk with the secondary indexes
 * dropped and rebuilt afterwards: prepared better-sqlite3 statements on SQLite (`seedContacts`), multi-row
 * `insert ... select from unnest(...)` batches on PostgreSQL (`seedContactsPostgres`, issue 8), the SQLite search
 * index's triggers dropped too and the index rebuilt in one pass (issue 13), the kept counts recounted once (their
 * triggers dropped while loading on SQLite, kept on PostgreSQL: one aggregated upsert per statement), so a million
 * contacts take seconds, not minutes. Distribution: 10% carry tag `vip`, 70% are `active`, 2-3% have a name
 * containing "ann", creation times spread evenly over the two years before `now`.
 */
import { faker } from '@faker-js/faker';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { recountStatement } from '../server/db/contact-counts';
import { CONTACT_SEARCH_TABLE } from '../server/db/contact-search';
import { DEMO_TAGS } from '../server/db/seed';

/** A small, fast, seeded PRNG (mulberry32): returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pools = {
  firstNames: string[];
  lastNames: string[];
  domains: string[];
  streets: string[];
  cities: string[];
  postalCodes: string[];
  regions: string[];
  bios: string[];
};

/** Pools of realistic values made once by faker under a fixed seed. Last names containing "ann" are left out. */
function makePools(): Pools {
  faker.seed(20260701);
  const first = faker.definitions.person.first_name as { generic?: string[]; female?: string[]; male?: string[] };
  const last = faker.definitions.person.last_name as { generic?: string[] };
  const many = (make: () => string, n: number) => Array.from({ length: n }, make);
  return {
    firstNames: [...new Set([...(first.generic ?? []), ...(first.female ?? []), ...(first.male ?? [])])],
    lastNames: (last.generic ?? []).filter((name) => !/ann/i.test(name)),
    domains: ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'proton.me', ...many(() => faker.internet.domainName(), 200)],
    streets: many(() => faker.location.streetAddress(), 5000),
    cities: many(() => faker.location.city(), 1000),
    postalCodes: many(() => faker.location.zipCode(), 5000),
    regions: many(() => faker.location.state(), 50),
    bios: many(() => faker.person.bio(), 500),
  };
}

const SOURCES = ['import', 'signup-form', 'api', 'event', 'shop'];
const SYSTEM_SOURCES = ['web', 'ios', 'android', null];
const OTHER_TAGS = DEMO_TAGS.filter((tag) => tag !== 'vip');
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A version-4-shaped UUID from the PRNG (deterministic, unlike randomUUID). */
function uuid(random: () => number): string {
  const b = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((byte) => HEX[byte]);
  return `${h.slice(0, 4).join('')}-${h.slice(4, 6).join('')}-${h.slice(6, 8).join('')}-${h.slice(8, 10).join('')}-${h.slice(10).join('')}`;
}

export type SeedResult = { contacts: number; tagRows: number; vip: number; active: number; nameAnn: number };
export type SeedOptions = { seed?: number; now?: Date; onProgress?: (done: number) => void };

/** One generated contact: its columns in `CONTACT_COLUMNS` order, and its tags. */
export type GeneratedContact = { values: (string | number | null)[]; tags: string[] };

/** The contact columns the seeders write, in the order of `GeneratedContact.values`; the rest stay null. */
export const CONTACT_COLUMNS = [
  'id', 'workspace_id', 'name', 'email', 'email_key', 'phone', 'bio', 'address', 'city', 'postal_code', 'region', 'source',
  'system_source', 'state', 'tags', 'notify_email', 'notify_sms', 'created', 'updated',
] as const;
/** Where `created` is in a generated row (contact_tags rows carry it too). */
const CREATED = CONTACT_COLUMNS.indexOf('created');

/**
 * `count` contacts of `workspaceId`, deterministic for a given `seed` apart from `now`, counted into `result`
 * as they are produced. Both seeders draw from this, so both databases get the same rows.
 */
export function* generateContacts(workspaceId: string, count: number, options: SeedOptions, result: SeedResult): Generator<GeneratedContact> {
  const pools = makePools();
  const random = mulberry32(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const now = (options.now ?? new Date()).getTime();
  const span = 730 * 24 * 3600 * 1000;
  for (let serial = 0; serial < count; serial++) {
    const id = uuid(random);
    const firstName = pick(pools.firstNames);
    const lastName = pick(pools.lastNames);
    const name = `${firstName} ${lastName}`;
    const email = random() < 0.95 ? `${firstName}.${lastName}.${serial}@${pick(pools.domains)}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '') : null;
    const phone = random() < 0.7 ? `+47${String(serial).padStart(8, '0')}` : null;
    const tags: string[] = [];
    if (random() < 0.1) tags.push('vip');
    for (const tag of OTHER_TAGS) if (random() < 0.12) tags.push(tag);
    const created = new Date(now - Math.floor(random() * span)).toISOString();
    const state = random() < 0.7 ? 'active' : 'pending';
    const bio = random() < 0.3 ? pick(pools.bios) : null;
    const values = [
      id, workspaceId, name, email, email, phone, bio, pick(pools.streets), pick(pools.cities), pick(pools.postalCodes), pick(pools.regions),
      pick(SOURCES), pick(SYSTEM_SOURCES), state, JSON.stringify(tags), email ? 1 : 0, phone ? 1 : 0, created, created,
    ];
    result.contacts++;
    result.tagRows += tags.length;
    if (tags[0] === 'vip') result.vip++;
    if (state === 'active') result.active++;
    if (/ann/i.test(name)) result.nameAnn++;
    yield { values, tags };
  }
}

const emptyResult = (): SeedResult => ({ contacts: 0, tagRows: 0, vip: 0, active: 0, nameAnn: 0 });

/**
 * Inserts `count` contacts into `workspaceId` of the (migrated, otherwise unused) SQLite database `file`, in
 * transactions of 50,000, then rebuilds the secondary indexes and the search index (merged into one segment) and bumps
 * `contacts_version`. Synchronous: a signal arriving meanwhile is handled when it returns. `now` is the newest creation
 * time; `onProgress` gets the number inserted so far after each transaction. Deterministic for a given `seed`, apart from `now`.
 */
export function seedContacts(file: string, workspaceId: string, count: number, options: SeedOptions = {}): SeedResult {
  const result = emptyResult();
  const rows = generateContacts(workspaceId, count, options, result);
  const db = new SQLite(file);
  // A throwaway database: no journal, no fsync, a big page cache while loading.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -2000000');
  db.pragma('foreign_keys = OFF');
  const insertContact = db.prepare(`insert into contacts (${CONTACT_COLUMNS.join(', ')}) values (${CONTACT_COLUMNS.map(() => '?').join(', ')})`);
  const insertTag = db.prepare('insert into contact_tags (workspace_id, contact_id, tag, created) values (?, ?, ?, ?)');

  const insertChunk = db.transaction((size: number) => {
    for (let i = 0; i < size; i++) {
      const { values, tags } = rows.next().value as GeneratedContact;
      insertContact.run(...values);
      for (const tag of tags) insertTag.run(workspaceId, values[0], tag, values[CREATED]);
    }
  });

  // Secondary indexes are dropped while loading and rebuilt afterwards from their own stored DDL (a sort
  // per index beats a million random b-tree inserts into each); the primary keys stay. So are the triggers that
  // keep the search index in step (issue 13): the index is rebuilt in one pass at the end.
  const indexes = db
    .prepare("select type, name, sql from sqlite_master where type in ('index', 'trigger') and tbl_name in ('contacts', 'contact_tags') and sql is not null")
    .all() as { type: 'index' | 'trigger'; name: string; sql: string }[];
  try {
    for (const index of indexes) db.exec(`drop ${index.type} "${index.name}"`);
    const CHUNK = 50_000;
    for (let from = 0; from < count; from += CHUNK) {
      insertChunk(Math.min(count, from + CHUNK) - from);
      options.onProgress?.(Math.min(count, from + CHUNK));
    }
    for (const index of indexes) db.exec(index.sql);
    // The kept counts' triggers were dropped too (server/db/contact-counts.ts): the workspace is recounted at once.
    db.prepare("delete from contact_counts where workspace_id = ?").run(workspaceId);
    db.prepare(recountStatement('sqlite', '?')).run(workspaceId, workspaceId, workspaceId);
    const search = db.prepare("select name from sqlite_master where type = 'table' and name = ?").get(CONTACT_SEARCH_TABLE);
    // Rebuilt, then merged into one segment, as a service that has run a while keeps it (server/db/search-upkeep.ts).
    // A rebuild alone leaves some 16 segments at 1,000,000 contacts, which the service then merges in its first 20 to
    // 30 s, a 25 ms step at a time on its event loop: every benchmark's first cases were measured beside that merge
    // (a page of contacts 30 to 60 ms instead of 3 to 6; docs/benchmarks.md, "A merge under the benchmarks").
    if (search) db.exec(`insert into ${CONTACT_SEARCH_TABLE}(${CONTACT_SEARCH_TABLE}) values ('rebuild'); insert into ${CONTACT_SEARCH_TABLE}(${CONTACT_SEARCH_TABLE}) values ('optimize')`);
    db.prepare('update workspaces set contacts_version = contacts_version + 1 where id = ?').run(workspaceId);
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  return result;
}

/** PostgreSQL array types of `CONTACT_COLUMNS` for `unnest` (the 0/1 flags are integers). */
const PG_TYPES: Record<(typeof CONTACT_COLUMNS)[number], string> = Object.fromEntries(
  CONTACT_COLUMNS.map((column) => [column, column === 'notify_email' || column === 'notify_sms' ? 'integer[]' : 'text[]']),
) as Record<(typeof CONTACT_COLUMNS)[number], string>;

/**
 * The PostgreSQL twin of `seedContacts` (issue 8): the same rows into the migrated, otherwise unused database at
 * `url`, in batches of 10,000 sent as one `insert ... select from unnest($1::text[], ...)` each (plus one for
 * their tag rows), with the secondary indexes of `contacts` and `contact_tags` dropped meanwhile and rebuilt
 * from their `pg_indexes` definitions, then `vacuum analyze` and the `contacts_version` bump. Rejects on a database
 * error; the database is then left half-seeded (the caller drops it).
 */
export async function seedContactsPostgres(url: string, workspaceId: string, count: number, options: SeedOptions = {}): Promise<SeedResult> {
  const result = emptyResult();
  const rows = generateContacts(workspaceId, count, options, result);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A throwaway database: no waiting for the WAL flush at each commit, memory enough to sort index builds.
    await client.query("set synchronous_commit = off; set maintenance_work_mem = '512MB'");
    const { rows: indexes } = await client.query<{ name: string; sql: string }>(
      `select indexname as name, indexdef as sql from pg_indexes i
        where schemaname = current_schema() and tablename in ('contacts', 'contact_tags')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`drop index "${index.name}"`);
    const insertContacts = `insert into contacts (${CONTACT_COLUMNS.join(', ')}) select * from unnest(${CONTACT_COLUMNS.map((column, i) => `$${i + 1}::${PG_TYPES[column]}`).join(', ')})`;
    const insertTags = 'insert into contact_tags (workspace_id, contact_id, tag, created) select $1, * from unnest($2::text[], $3::text[], $4::text[])';
    const BATCH = 10_000;
    for (let from = 0; from < count; from += BATCH) {
      const size = Math.min(count, from + BATCH) - from;
      const columns = CONTACT_COLUMNS.map(() => new Array<string | number | null>(size));
      const tagOwners: string[] = [];
      const tagNames: string[] = [];
      const tagCreated: string[] = [];
      for (let i = 0; i < size; i++) {
        const { values, tags } = rows.next().value as GeneratedContact;
        values.forEach((value, c) => {
          columns[c]![i] = value;
        });
        for (const tag of tags) {
          tagOwners.push(values[0] as string);
          tagNames.push(tag);
          tagCreated.push(values[CREATED] as string);
        }
      }
      await client.query('begin');
      await client.query(insertContacts, columns);
      if (tagOwners.length) await client.query(insertTags, [workspaceId, tagOwners, tagNames, tagCreated]);
      await client.query('commit');
      options.onProgress?.(from + size);
    }
    for (const index of indexes) await client.query(index.sql);
    // What autovacuum would do soon after such a load: planner statistics, and the visibility map that lets
    // index-only scans skip the table.
    await client.query('vacuum analyze contacts, contact_tags');
    await client.query('update workspaces set contacts_version = contacts_version + 1 where id = $1', [workspaceId]);
  } finally {
    await client.end();
  }
  return result;
}
