/**
 * The activity log (docs/decisions.md section 11, issue 33): one row per record a write changed, written by the
 * write itself in its own transaction (`recordActivity`), listed by `GET /activity` (`ActivityStore.list`), made
 * unreadable for an erased person (`eraseHistory`) and pruned after `ACTIVITY_RETENTION_DAYS` (`prune`). Reverting
 * lives in db/revert.ts.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter, type Selectable, type Transaction, sql } from 'kysely';
import { ACTIVITY_RESOURCES, type ActivityAction, type ActivityResource } from '../../src/api/activity';
import type { VIEW_RESOURCE } from '../../src/api/live';
import type { FilterNode } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { type FieldMap, compileFilter } from '../filter/compile';
import type { Dialect } from './connection';
import type { ActivityTable, Database } from './schema';

/**
 * Who wrote and on whose behalf (docs/decisions.md section 11): the key's hint (`…a1b2`, null for keys made before the
 * log), the `Activity-Source` (default `api`) and `Activity-Batch` headers, the answer's `X-Trace-Id` and the
 * request's `Idempotency-Key`.
 */
export type Actor = { keyHint: string | null; source: string; batchId: string | null; requestId: string | null; idempotencyKey: string | null };

/** Every kind of record the log holds entries about: section 11's, and section 13's shared views. */
export type LoggedResource = ActivityResource | typeof VIEW_RESOURCE;
export const LOGGED_RESOURCES: readonly LoggedResource[] = [...ACTIVITY_RESOURCES, 'view'];

/** The PostgreSQL channel a committed write notifies with its workspace id (server/events/signals.ts). */
export const EVENTS_CHANNEL = 'wsa_events';

/** `changes` of an entry: each changed field to `[before, after]` (`tags` to `[added, removed]`). */
export type Changes = Record<string, [unknown, unknown]>;

/** One record's change, as a write reports it. `batchId` overrides the actor's (a revert's fresh batch). */
export type ActivityChange = {
  /** The record's kind: the log's resources, and `view` (a shared view, docs/decisions.md section 13). */
  resource: LoggedResource;
  resourceId: string;
  action: ActivityAction;
  changes: Changes | null;
  revertOf?: string;
  batchId?: string | null;
};

/** What a store's write method takes besides its own arguments: the actor to record (no entry without one). */
export type WriteContext = { actor?: Actor };

export type ActivityRow = Selectable<ActivityTable>;

/** The transactions that hold their workspace's row lock (`lockWorkspace`), and which workspace. */
const lockedWorkspaces = new WeakMap<object, string>();
/**
 * Only to measure what the lock costs (bench/workspace-lock.ts), never in the service: `first` (the service's), `in-record`
 * (taken by `recordActivity` only, in the middle of a write: the earlier design, which could deadlock) or `off`.
 */
let lockMode: 'first' | 'in-record' | 'off' = 'first';
export function setWorkspaceLockForBench(mode: typeof lockMode): void {
  lockMode = mode;
}

/**
 * PostgreSQL: locks workspace `workspaceId`'s row until `trx` ends (`for no key update`, the lock contact writes
 * take anyway to count their version, compatible with the key-share locks of foreign keys) and notifies
 * `EVENTS_CHANNEL` with the workspace id, which PostgreSQL delivers at commit and drops on rollback. Once per
 * transaction; nothing on SQLite, whose writes commit one at a time.
 *
 * The lock makes a workspace's log entries commit in `seq` order (the sequence hands `seq` out before commit), so a
 * reader that has seen entry n never sees one below n appear later: `GET /events` and its `Last-Event-ID` replay read
 * the log by `seq` (docs/decisions.md section 13, server/events/hub.ts, docs/live.md). Every write transaction that
 * records activity takes it as its FIRST lock, before any record's row, unique-index entry or transaction lock:
 * taken in the middle, a transaction holding it could wait for a row that another transaction holds while waiting
 * for this lock (a revert chunk over several records, an erase that then locks posts): a deadlock.
 * `recordActivity` takes it too, for a transaction that did not.
 */
export async function lockWorkspace(trx: Transaction<Database> | Kysely<Database>, workspaceId: string, fromRecord = false): Promise<void> {
  if (lockMode === 'off' || (lockMode === 'in-record' && !fromRecord)) return;
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter) || lockedWorkspaces.get(trx) === workspaceId) return;
  await sql`select pg_notify(${EVENTS_CHANNEL}, id) from workspaces where id = ${workspaceId} for no key update`.execute(trx);
  lockedWorkspaces.set(trx, workspaceId);
}

/**
 * Adds one entry per change to the log, inside the write's transaction `trx`, all stamped `now` (ISO 8601 UTC).
 * Nothing without an actor (writes that do not come through the API: the demo seed, the operator command line)
 * or without changes. Returns the new entries' ids. On PostgreSQL the workspace's row is locked first
 * (`lockWorkspace`; a no-op where the transaction began with it, as it should).
 */
export async function recordActivity(trx: Transaction<Database> | Kysely<Database>, workspaceId: string, actor: Actor | undefined, changes: readonly ActivityChange[], now = new Date().toISOString()): Promise<string[]> {
  if (!actor || !changes.length) return [];
  await lockWorkspace(trx, workspaceId, true);
  const rows = changes.map((change) => ({
    activity_id: randomUUID(),
    workspace_id: workspaceId,
    created: now,
    resource: change.resource,
    resource_id: change.resourceId,
    action: change.action,
    changes: change.changes === null ? null : JSON.stringify(change.changes),
    key_hint: actor.keyHint,
    source: actor.source,
    batch_id: change.batchId === undefined ? actor.batchId : change.batchId,
    request_id: actor.requestId,
    idempotency_key: actor.idempotencyKey,
    revert_of: change.revertOf ?? null,
  }));
  // A plain statement rather than the query builder's insert: the builder's checks and compilation were most of what
  // the log added to a create's CPU on PostgreSQL (issue 33).
  const values = rows.map(
    (row) =>
      sql`(${row.activity_id}, ${row.workspace_id}, ${row.created}, ${row.resource}, ${row.resource_id}, ${row.action}, ${row.changes}, ${row.key_hint}, ${row.source}, ${row.batch_id}, ${row.request_id}, ${row.idempotency_key}, ${row.revert_of})`,
  );
  await sql`insert into activity (activity_id, workspace_id, created, resource, resource_id, action, changes, key_hint, source, batch_id, request_id, idempotency_key, revert_of) values ${sql.join(values)}`.execute(trx);
  return rows.map((row) => row.activity_id);
}

/**
 * The erasure of the people `contactIds` reaches the history (docs/decisions.md section 11): every entry about one keeps
 * its ids, time, action and key hint, and loses its `changes`. Runs in the erasure's transaction.
 */
export async function eraseHistory(trx: Transaction<Database>, workspaceId: string, contactIds: readonly string[]): Promise<void> {
  if (!contactIds.length) return;
  await trx.updateTable('activity').set({ changes: null }).where('workspace_id', '=', workspaceId).where('resource_id', 'in', contactIds).where('resource', '=', 'contact').execute();
}

/** `GET /activity` fields over the `activity` table (docs/decisions.md section 11). */
export const ACTIVITY_FIELDS: FieldMap = {
  resource: { kind: 'column', column: 'activity.resource', type: 'string' },
  resourceId: { kind: 'column', column: 'activity.resource_id', type: 'string' },
  action: { kind: 'column', column: 'activity.action', type: 'string' },
  batchId: { kind: 'column', column: 'activity.batch_id', type: 'string', nullable: true },
  source: { kind: 'column', column: 'activity.source', type: 'string' },
  keyHint: { kind: 'column', column: 'activity.key_hint', type: 'string', nullable: true },
  created: { kind: 'column', column: 'activity.created', type: 'date' },
};

export const DEFAULT_ACTIVITY_ORDER: OrderByItem[] = [{ field: 'created', direction: 'desc' }];

/** The fields of an entry as `GET /activity` lists it, in its order: name, then the expression (a column). */
const ENTRY_FIELDS: [string, string][] = [
  ['activityId', 'activity_id'], ['created', 'created'], ['resource', 'resource'], ['resourceId', 'resource_id'], ['action', 'action'],
  ['changes', 'changes'], ['keyHint', 'key_hint'], ['source', 'source'], ['batchId', 'batch_id'], ['requestId', 'request_id'],
  ['idempotencyKey', 'idempotency_key'], ['revertOf', 'revert_of'],
];
const entryArguments = (changes: string) => sql.raw(ENTRY_FIELDS.map(([name, column]) => `'${name}', ${column === 'changes' ? changes : column}`).join(', '));
const ENTRY_JSON_SQLITE = entryArguments('json(changes)');
const ENTRY_JSON_POSTGRES = entryArguments('changes::json');

/**
 * `prune` deletes at most PRUNE_BATCH entries a transaction, fewer when a transaction of that many took longer than
 * PRUNE_TRANSACTION_MS: each entry leaves six indexes, and on a large log a transaction of 1,000 held the write lock
 * for up to 700 ms (issue 33's goal: no other write waits more than 200 ms).
 */
export const PRUNE_BATCH = 1000;
export const PRUNE_TRANSACTION_MS = 25;

/** Reads and prunes the activity log of one database. */
export class ActivityStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * One page of the workspace's entries about `resources` (those the key can read), as a JSON array text of the
   * ActivityEntry shape (src/api/activity.ts), and their exact count.
   * `created` orders, ties in the order of writing (`seq`).
   */
  async list(workspaceId: string, resources: readonly LoggedResource[], query: { filter?: FilterNode; orderBy: readonly OrderByItem[]; offset: number; limit: number }) {
    if (!resources.length) return { items: '[]', maxResults: 0 };
    let base = this.db.selectFrom('activity').where('activity.workspace_id', '=', workspaceId);
    if (LOGGED_RESOURCES.some((resource) => !resources.includes(resource))) base = base.where('activity.resource', 'in', [...resources]);
    if (query.filter) base = base.where(compileFilter(query.filter, ACTIVITY_FIELDS, this.dialect));
    const direction = query.orderBy[0]?.direction === 'asc' ? 'asc' : 'desc';
    // The page is written as one JSON array by the database (json_object and json_group_array, or PostgreSQL's
    // json_build_object and json_agg), each entry's stored `changes` taken as JSON: a page of 100 entries read as
    // rows and written in JavaScript cost twice as much (issue 33, docs/benchmarks.md "Activity log").
    const postgres = this.dialect.name === 'postgres';
    const entry = postgres ? sql`json_build_object(${ENTRY_JSON_POSTGRES})` : sql`json_object(${ENTRY_JSON_SQLITE})`;
    const page = base.select(entry.as('entry')).orderBy('activity.created', direction).orderBy('activity.seq', direction).limit(query.limit).offset(query.offset);
    const array = postgres ? sql<string>`coalesce(json_agg(page.entry)::text, '[]')` : sql<string>`coalesce(json_group_array(json(page.entry)), '[]')`;
    const [items, total] = await Promise.all([
      this.db.selectFrom(page.as('page')).select(array.as('items')).executeTakeFirstOrThrow(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: items.items, maxResults: Number(total.n) };
  }

  /**
   * Deletes entries older than `retentionDays` days before `now`, in transactions sized so that each holds the write
   * lock about PRUNE_TRANSACTION_MS (from 100 entries, doubled while a transaction takes under half of it, halved when
   * one takes longer, at most PRUNE_BATCH), yielding to other work between them (docs/decisions.md section 11: in
   * batches, so no other writer waits long). Returns how many were deleted. 0 days keeps all.
   */
  async prune(retentionDays: number, now = Date.now()): Promise<number> {
    if (retentionDays <= 0) return 0;
    const before = new Date(now - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    let size = 100;
    for (;;) {
      const started = performance.now();
      const limit = size;
      const batch = await this.db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('activity').select('seq').where('created', '<', before).orderBy('created').orderBy('seq').limit(limit).execute();
        if (!rows.length) return 0;
        await trx.deleteFrom('activity').where('seq', 'in', rows.map((row) => row.seq)).execute();
        return rows.length;
      });
      deleted += batch;
      if (batch < limit) return deleted;
      const took = performance.now() - started;
      if (took > PRUNE_TRANSACTION_MS) size = Math.max(10, Math.floor(size / 2));
      else if (took < PRUNE_TRANSACTION_MS / 2) size = Math.min(PRUNE_BATCH, size * 2);
      await this.dialect.betweenChunks();
    }
  }
}
