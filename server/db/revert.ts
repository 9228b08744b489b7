/**
 * `POST /activity/revert` (docs/decisions.md section 11, issue 33): undoes one activity entry or a whole batch, newest
 * first, each by a new write recorded as `revert` (with `revertOf` and the answer's fresh `batchId`), and names
 * every entry it left as it was, with the reason:
 * - `not-revertible`: an `erase`, `delete`, `withdraw` or `revert` entry;
 * - `already-reverted`: a revert of it exists (the unique index on `revert_of` settles two at once, on any process);
 * - `gone`: the record no longer exists (or its values were erased);
 * - `published`: a post request that is already public;
 * - `changed-since`: a later entry of another batch changed one of the same fields of the record (for a create, any
 *   later change of the record; a later change reverted since does not count), or the old value clashes with a
 *   record made since (a unique email or handle).
 * Entries are taken in chunks of one transaction each, so a large batch never holds the write lock for long; a refused
 * entry is found by reads before it writes anything, and a write that fails anyway sends its chunk again with a
 * savepoint an entry, so that it is rolled back alone (`revertChunk`). A run of contact creates (an import undone) is
 * checked and erased by a few statements for the whole chunk (`revertCreates`), not a dozen an entry.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type SqlBool, type Transaction, sql } from 'kysely';
import type { ActivityResource, RevertConflict, RevertConflictReason, RevertResult } from '../../src/api/activity';
import { CONTACT_PATCH_FIELDS, type ContactPatchParsed } from '../../src/api/extensions';
import { type Scope, grants } from '../../src/api/scopes';
import { HttpError, notFound } from '../errors';
import { type Actor, type ActivityRow, type Changes, lockWorkspace } from './activity';
import type { CatalogStore } from './catalog';
import type { Dialect } from './connection';
import type { ContactStore } from './contacts';
import type { PostStore } from './posts';
import { IdempotencyStore } from './idempotency';
import type { Database } from './schema';
import { TimedChunks, yieldToOthers } from './timed-chunks';

/** The scope a revert needs for each resource (docs/decisions.md section 11: read-write on every resource involved). */
export const REVERT_SCOPES: Partial<Record<string, Scope>> = {
  contact: 'contacts:read-write',
  product: 'products:read-write',
  collection: 'products:read-write',
  'post-request': 'posts:read-write',
};

/**
 * Entries undone in one transaction: at most PER_TRANSACTION, and no more once the transaction has run
 * TRANSACTION_MS, so other writers wait little for the write lock (docs/decisions.md section 11: in chunks).
 */
export const PER_TRANSACTION = 100;
export const TRANSACTION_MS = 40;
/** Contact creates undone in one transaction by `revertCreates`: sized to about TRANSACTION_MS, at most this many. */
export const CREATES_PER_TRANSACTION = 500;

const NOT_REVERTIBLE = new Set(['erase', 'delete', 'withdraw', 'revert']);
/** The table of each revertible resource; a shared view's entries (docs/decisions.md section 13) are not revertible. */
const TABLES: Partial<Record<string, 'contacts' | 'products' | 'collections' | 'posts'>> = {
  contact: 'contacts',
  product: 'products',
  collection: 'collections',
  'post-request': 'posts',
};

type Members = Map<string, Promise<Set<string>>>;

/**
 * The query of the entries a revert undoes, newest first (docs/decisions.md section 11): the one entry `activityId`,
 * or every entry of batch `batchId`, read by `activity_ws_batch`. Ordered by `+seq`: with a plain `seq`, SQLite's
 * planner (which has no statistics of the table) read every entry of the workspace backwards through `activity_ws_seq`
 * to spare itself a sort, about 0.5 s with 1,000,000 entries, holding the event loop while a writer beside the revert
 * waited that long (docs/benchmarks.md, "A merge under the benchmarks"); sorting a batch of 10,000 costs some 20 ms.
 */
export function entriesToRevert(db: Kysely<Database>, workspaceId: string, target: { activityId?: string; batchId?: string }) {
  const query = db.selectFrom('activity').selectAll().where('workspace_id', '=', workspaceId);
  return (target.activityId !== undefined ? query.where('activity_id', '=', target.activityId) : query.where('batch_id', '=', target.batchId!)).orderBy(
    sql`+${sql.ref('seq')}`,
    'desc',
  );
}
type Stores = { contacts: ContactStore; catalog: CatalogStore; posts: PostStore };

/** A conflict that keeps an entry as it is, thrown by `check` (or, for an action it cannot undo, by `apply`). */
class Conflict extends Error {
  constructor(readonly reason: RevertConflictReason) {
    super(reason);
  }
}

/** What one transaction of a revert did: the entries reverted, those kept with their reason, and the next entry's index. */
type Chunk = { next: number; reverted: number; conflicts: RevertConflict[]; erased: boolean };

/** Thrown out of a chunk's fast pass when a write failed after its checks passed: the chunk runs again with savepoints. */
class RetryWithSavepoints extends Error {}

/** Reverts entries of the activity log of one database. */
export class Reverter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly stores: Stores,
  ) {}

  /**
   * Undoes `target` (one entry or a batch) in `workspaceId` for a key holding `scopes`. 404 for an unknown entry or
   * an empty batch; 403 naming the first scope missing for a resource the entries touch.
   */
  async revert(workspaceId: string, scopes: readonly Scope[], actor: Actor, target: { activityId?: string; batchId?: string }): Promise<RevertResult> {
    const entries = await entriesToRevert(this.db, workspaceId, target).execute();
    if (!entries.length) throw notFound(target.activityId !== undefined ? 'Activity entry not found' : `No activity entries in batch ${target.batchId}`);
    for (const resource of new Set(entries.map((entry) => entry.resource))) {
      const scope = REVERT_SCOPES[resource];
      if (scope && !grants(scopes, scope)) throw new HttpError(403, `Missing scope ${scope}`);
    }
    const batchId = randomUUID();
    const write = { actor: { ...actor, batchId }, batchId };
    const conflicts: RevertConflict[] = [];
    const known: Members = new Map();
    let reverted = 0;
    let erased = false;
    let next = 0;
    const sizes = new TimedChunks(20, TRANSACTION_MS, 20, CREATES_PER_TRANSACTION);
    while (next < entries.length) {
      const creates = contactCreates(entries, next, sizes.next());
      const started = performance.now();
      let chunk: Chunk;
      try {
        chunk = creates ? await this.revertCreates(workspaceId, entries, next, creates, write, known) : await this.revertChunk(workspaceId, entries, next, write, known, false);
        if (creates) sizes.record(creates, performance.now() - started);
      } catch (error) {
        if (!(error instanceof RetryWithSavepoints)) throw error;
        chunk = await this.revertChunk(workspaceId, entries, next, write, known, true);
      }
      next = chunk.next;
      reverted += chunk.reverted;
      conflicts.push(...chunk.conflicts);
      erased ||= chunk.erased;
      if (next < entries.length) await yieldToOthers();
    }
    if (erased) await this.stores.contacts.checkpoint();
    return { reverted, conflicts, batchId };
  }

  /**
   * Undoes entries from `first` on in one transaction (at most PER_TRANSACTION, or TRANSACTION_MS, and in the fast pass
   * not past the start of a run of contact creates, which `revertCreates` takes); resolves to what
   * it did and the index of the next entry left (`Chunk`). Each entry's conflicts are found by reads before it writes, so a
   * refused entry has written nothing. A write that fails all the same (a unique email met on another process)
   * throws RetryWithSavepoints out of the fast pass (`savepoints` false), whose transaction then rolls back whole,
   * and the chunk runs again with each entry in a savepoint of its own. Savepoints are not the default: on SQLite each
   * release flushes the contact search index's pending terms (FTS5), which made a reverted import cost 1.4 ms a
   * contact instead of about 0.5.
   */
  private async revertChunk(
    workspaceId: string,
    entries: readonly ActivityRow[],
    first: number,
    write: { actor: Actor; batchId: string },
    known: Members,
    savepoints: boolean,
  ): Promise<Chunk> {
    const chunk: Chunk = { next: first, reverted: 0, conflicts: [], erased: false };
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      const started = performance.now();
      const erasedIds: string[] = [];
      for (
        let count = 0;
        count < PER_TRANSACTION && chunk.next < entries.length && (count === 0 || (performance.now() - started < TRANSACTION_MS && (savepoints || !contactCreates(entries, chunk.next, 1))));
        count++
      ) {
        const entry = entries[chunk.next++]!;
        const erasedBefore = erasedIds.length;
        const entryWrite = { ...write, revertOf: entry.activity_id, erasedIds };
        let changes: Changes;
        try {
          changes = await this.check(trx, workspaceId, entry, known);
        } catch (error) {
          const reason = this.reasonOf(error, entry);
          if (!reason) throw error;
          chunk.conflicts.push({ activityId: entry.activity_id, resourceId: entry.resource_id, reason });
          continue;
        }
        if (savepoints) await sql`savepoint revert_entry`.execute(trx);
        try {
          chunk.erased = (await this.apply(trx, workspaceId, entry, changes, entryWrite)) || chunk.erased;
          if (savepoints) await sql`release revert_entry`.execute(trx);
        } catch (error) {
          const reason = this.reasonOf(error, entry);
          // Without a savepoint the entry cannot be rolled back alone: the chunk runs again with them.
          if (!savepoints) throw reason ? new RetryWithSavepoints() : error;
          await sql`rollback to revert_entry`.execute(trx);
          await sql`release revert_entry`.execute(trx);
          erasedIds.length = erasedBefore; // the erasure was rolled back with the entry
          if (!reason) throw error;
          chunk.conflicts.push({ activityId: entry.activity_id, resourceId: entry.resource_id, reason });
          continue;
        }
        chunk.reverted++;
      }
      await IdempotencyStore.eraseHoldingAny(trx, workspaceId, erasedIds);
    });
    return chunk;
  }

  /**
   * Undoes the `count` contact creates from `first` on (`contactCreates`) in one transaction, as `revertChunk` would one
   * by one, with the same checks in the same order, each read once for them all: their reverts, their contacts and the
   * contacts' later entries; then erases the contacts it keeps no conflict for by one `eraseManyIn`. Throws
   * RetryWithSavepoints (the transaction rolled back) when that erasure fails with a conflict's error.
   */
  private async revertCreates(
    workspaceId: string,
    entries: readonly ActivityRow[],
    first: number,
    count: number,
    write: { actor: Actor; batchId: string },
    known: Members,
  ): Promise<Chunk> {
    const creates = entries.slice(first, first + count);
    const chunk: Chunk = { next: first + count, reverted: 0, conflicts: [], erased: false };
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      const ids = creates.map((entry) => entry.resource_id);
      const revertedAlready = new Set(
        (await trx.selectFrom('activity').select('revert_of').where('revert_of', 'in', creates.map((entry) => entry.activity_id)).execute()).map((row) => row.revert_of),
      );
      const existing = await this.stores.contacts.idsInWorkspace(trx, workspaceId, ids);
      const later = await laterEntries(trx, workspaceId, ids, creates.at(-1)!.seq);
      const targets: { id: string; revertOf: string }[] = [];
      for (const entry of creates) {
        const reason: RevertConflictReason | null = revertedAlready.has(entry.activity_id)
          ? 'already-reverted'
          : !existing.has(entry.resource_id) || entry.changes === null
            ? 'gone'
            : (await this.changedSince(trx, workspaceId, entry, [], known, later))
              ? 'changed-since'
              : null;
        if (reason) chunk.conflicts.push({ activityId: entry.activity_id, resourceId: entry.resource_id, reason });
        else targets.push({ id: entry.resource_id, revertOf: entry.activity_id });
      }
      const erasedIds: string[] = [];
      try {
        await this.stores.contacts.eraseManyIn(trx, workspaceId, targets, { ...write, erasedIds });
      } catch (error) {
        throw this.reasonOf(error, creates[0]!) ? new RetryWithSavepoints() : error;
      }
      await IdempotencyStore.eraseHoldingAny(trx, workspaceId, erasedIds);
      chunk.reverted = targets.length;
      chunk.erased = targets.length > 0;
    });
    return chunk;
  }

  /** The conflict reason of an error thrown while undoing `entry`, or null for an error that is not one. */
  private reasonOf(error: unknown, entry: ActivityRow): RevertConflictReason | null {
    if (error instanceof Conflict) return error.reason;
    if (this.dialect.isUniqueViolation(error)) return String((error as Error).message).includes('revert_of') ? 'already-reverted' : 'changed-since';
    if (error instanceof HttpError) {
      if (error.statusCode === 404) return 'gone';
      if (error.statusCode === 409) return entry.resource === 'post-request' ? 'published' : 'changed-since';
      if (error.statusCode === 400) return 'changed-since';
    }
    return null;
  }

  /**
   * Throws the Conflict that keeps `entry` as it is (reads only), or resolves to its `changes` (an empty object for a
   * create).
   */
  private async check(trx: Transaction<Database>, workspaceId: string, entry: ActivityRow, known: Members): Promise<Changes> {
    if (NOT_REVERTIBLE.has(entry.action)) throw new Conflict('not-revertible');
    const revert = await trx.selectFrom('activity').select('activity_id').where('revert_of', '=', entry.activity_id).executeTakeFirst();
    if (revert) throw new Conflict('already-reverted');
    const resource = entry.resource as ActivityResource;
    const table = TABLES[resource];
    if (!table) throw new Conflict('not-revertible');
    const record = await trx.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).where('id', '=', entry.resource_id).executeTakeFirst();
    if (!record || entry.changes === null) throw new Conflict('gone');
    const changes = JSON.parse(entry.changes) as Changes;
    if (resource === 'post-request' && (await this.published(trx, entry.resource_id))) throw new Conflict('published');
    if (await this.changedSince(trx, workspaceId, entry, Object.keys(changes), known, await laterEntries(trx, workspaceId, [entry.resource_id], entry.seq)))
      throw new Conflict('changed-since');
    return changes;
  }

  /**
   * Writes the undoing of `entry` (checked by `check`) in `trx`; resolves to whether a contact was erased (the caller
   * then checkpoints). Throws what the store throws (a unique clash, a 404 or 409), or Conflict for an entry of an
   * action it cannot undo.
   */
  private async apply(
    trx: Transaction<Database>,
    workspaceId: string,
    entry: ActivityRow,
    changes: Changes,
    write: { actor: Actor; batchId: string; revertOf: string; erasedIds: string[] },
  ): Promise<boolean> {
    const resource = entry.resource as ActivityResource;
    const { contacts, catalog, posts } = this.stores;
    if (entry.action === 'create') {
      if (resource === 'contact') await contacts.eraseIn(trx, workspaceId, entry.resource_id, write);
      else if (resource === 'product') await catalog.deleteProductIn(trx, workspaceId, entry.resource_id, write);
      else if (resource === 'collection') await catalog.deleteCollectionIn(trx, workspaceId, entry.resource_id, write);
      else await posts.withdrawIn(trx, workspaceId, entry.resource_id, new Date(), write);
      return resource === 'contact';
    }
    if (entry.action === 'tags' && resource === 'contact') {
      const [added, removed] = changes.tags as [string[], string[]];
      await contacts.patchTagsIn(trx, workspaceId, entry.resource_id, removed ?? [], added ?? [], write);
      return false;
    }
    if (entry.action === 'notifications' && resource === 'contact') {
      await contacts.restoreConsentIn(trx, workspaceId, entry.resource_id, { state: changes.state?.[0], notificationSettings: changes.notificationSettings?.[0] }, write);
      return false;
    }
    if (entry.action === 'update') {
      const before = Object.fromEntries(Object.entries(changes).map(([field, [was]]) => [field, was]));
      if (resource === 'contact') {
        // A correction's fields only: consent a cleared address turned off is not given back by a revert (only the
        // person gives consent, through the notification settings).
        const patch = Object.fromEntries(Object.entries(before).filter(([field]) => (CONTACT_PATCH_FIELDS as readonly string[]).includes(field)));
        await contacts.updateIn(trx, workspaceId, entry.resource_id, patch as ContactPatchParsed, write);
      } else if (resource === 'product' || resource === 'collection') {
        await catalog.restoreIn(trx, resource === 'product' ? 'products' : 'collections', workspaceId, entry.resource_id, before, write);
      }
      return false;
    }
    throw new Conflict('not-revertible');
  }

  /** The entry ids of batch `batchId`, looked up once per revert (`known`, by batch id), not once per entry. */
  private batchMembers(trx: Transaction<Database>, workspaceId: string, batchId: string | null, known: Members): Promise<Set<string>> {
    if (batchId === null) return Promise.resolve(new Set());
    let members = known.get(batchId);
    if (!members) {
      members = trx.selectFrom('activity').select('activity_id').where('workspace_id', '=', workspaceId).where('batch_id', '=', batchId).execute().then((rows) => new Set(rows.map((row) => row.activity_id)));
      known.set(batchId, members);
    }
    return members;
  }

  /** True when post request `id` is public: published, or scheduled and due. */
  private async published(trx: Transaction<Database>, id: string): Promise<boolean> {
    const post = await trx.selectFrom('posts').select(['state', 'published_date']).where('id', '=', id).executeTakeFirst();
    if (!post) return false;
    return post.state === 'published' || (post.state === 'scheduled' && post.published_date !== null && post.published_date <= new Date().toISOString());
  }

  /**
   * True when an entry written after `entry`, not of its batch (nor a revert of an entry of its batch), changed one
   * of `fields` of the same record; for a create, any later change of the record. `later` holds at least every entry
   * of the record written after it (`laterEntries`).
   */
  private async changedSince(trx: Transaction<Database>, workspaceId: string, entry: ActivityRow, fields: readonly string[], known: Members, later: readonly LaterEntry[]): Promise<boolean> {
    const mine = later.filter((row) => row.resource_id === entry.resource_id && Number(row.seq) > Number(entry.seq));
    if (!mine.length) return false;
    const inBatch = await this.batchMembers(trx, workspaceId, entry.batch_id, known);
    // A later change that was itself reverted since, and that revert, cancel out: the record is as `entry` left it.
    const laterIds = new Set(mine.map((row) => row.activity_id));
    const undone = new Set(mine.filter((row) => row.revert_of !== null && laterIds.has(row.revert_of)).map((row) => row.revert_of));
    return mine.some((row) => {
      if (entry.batch_id !== null && row.batch_id === entry.batch_id) return false;
      if (row.revert_of !== null && inBatch.has(row.revert_of)) return false;
      if (undone.has(row.activity_id) || (row.revert_of !== null && undone.has(row.revert_of))) return false;
      if (entry.action === 'create' || row.changes === null) return true;
      const touched = Object.keys(JSON.parse(row.changes) as object);
      return touched.some((field) => fields.includes(field));
    });
  }
}

type LaterEntry = Pick<ActivityRow, 'activity_id' | 'resource_id' | 'seq' | 'changes' | 'batch_id' | 'revert_of'>;

/**
 * The entries of records `resourceIds` written after entry `seq` (by `activity_ws_resource`). `+seq`: with a plain
 * `seq > ?` SQLite's planner took `activity_ws_seq` and read every later entry of the workspace, for each entry
 * reverted: a batch's own entries came after it, so reverting a batch of n creates read n * n / 2 entries (1.2 ms an
 * entry at 5,000, docs/benchmarks.md "The search index merged").
 */
function laterEntries(trx: Transaction<Database>, workspaceId: string, resourceIds: readonly string[], seq: number | string): Promise<LaterEntry[]> {
  return trx
    .selectFrom('activity')
    .select(['activity_id', 'resource_id', 'seq', 'changes', 'batch_id', 'revert_of'])
    .where('workspace_id', '=', workspaceId)
    .where('resource_id', 'in', resourceIds)
    .where(sql<SqlBool>`+${sql.ref('seq')} > ${seq}`)
    .execute();
}

/** How many of the at most `limit` entries from `first` on are contact creates, one after another (0 when the first is not). */
function contactCreates(entries: readonly ActivityRow[], first: number, limit: number): number {
  let count = 0;
  while (count < limit && first + count < entries.length && entries[first + count]!.resource === 'contact' && entries[first + count]!.action === 'create') count++;
  return count;
}
