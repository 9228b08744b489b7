/**
 * Shared views (docs/decisions.md section 13, issue 36; docs/live.md): saved contact-list queries every key of a
 * workspace sees. Each write records an activity entry (resource `view`) in its own transaction, so it reaches the
 * `GET /events` streams like any other write. A name is unique in the workspace ignoring case: the unique index on
 * `(workspace_id, name_key)` (migration 0009) settles two writers on any process.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { MAX_VIEWS_PER_WORKSPACE, type SharedView, VIEW_RESOURCE, type ViewInputParsed } from '../../src/api/live';
import { conflict, notFound } from '../errors';
import { type Changes, type WriteContext, lockWorkspace, recordActivity } from './activity';
import type { Dialect } from './connection';
import type { Database, ViewTable } from './schema';

type ViewRow = Selectable<ViewTable>;
type ViewQuery = SharedView['query'];

/** A view as the routes answer it. */
function toView(row: ViewRow): SharedView {
  return { viewId: row.id, name: row.name, resource: row.resource, query: JSON.parse(row.query) as ViewQuery, keyHint: row.key_hint, created: row.created, updated: row.updated };
}

/** The name as compared for uniqueness: lower case (docs/decisions.md section 13: "unique ignoring case"). */
const nameKey = (name: string) => name.toLowerCase();

/** The views of one database. Inputs are already checked (src/api/live.ts, and the filter by the route). */
export class ViewStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Every view of `workspaceId`, by name ignoring case, then id. */
  async list(workspaceId: string): Promise<SharedView[]> {
    const rows = await this.db.selectFrom('views').selectAll().where('workspace_id', '=', workspaceId).orderBy('name_key').orderBy('id').execute();
    return rows.map(toView);
  }

  /**
   * Creates a view in `workspaceId`, made by the key with hint `keyHint` (`…a1b2`, or null). 409 when another view of the workspace has the
   * name (ignoring case) or the workspace already holds MAX_VIEWS_PER_WORKSPACE views.
   */
  async create(workspaceId: string, input: ViewInputParsed, keyHint: string | null, write: WriteContext): Promise<SharedView> {
    const now = new Date().toISOString();
    const row: ViewRow = {
      id: randomUUID(),
      workspace_id: workspaceId,
      name: input.name,
      name_key: nameKey(input.name),
      resource: input.resource,
      query: JSON.stringify(input.query),
      key_hint: keyHint,
      created: now,
      updated: now,
    };
    await this.unique(workspaceId, input.name, async (trx) => {
      await this.lockViews(trx, workspaceId);
      const { n } = await trx.selectFrom('views').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
      if (Number(n) >= MAX_VIEWS_PER_WORKSPACE) throw conflict(`A workspace may hold at most ${MAX_VIEWS_PER_WORKSPACE} views`);
      await trx.insertInto('views').values(row).execute();
      await recordActivity(trx, workspaceId, write.actor, [{ resource: VIEW_RESOURCE, resourceId: row.id, action: 'create', changes: { name: [null, row.name], query: [null, input.query] } }], now);
    });
    return toView(row);
  }

  /** Replaces view `viewId` of `workspaceId` (PUT). 404 `View not found` elsewhere; 409 for a name another view has. */
  async replace(workspaceId: string, viewId: string, input: ViewInputParsed, write: WriteContext): Promise<SharedView> {
    return this.unique(workspaceId, input.name, async (trx) => {
      const before = await this.find(trx, workspaceId, viewId);
      const now = new Date().toISOString();
      const after: ViewRow = { ...before, name: input.name, name_key: nameKey(input.name), resource: input.resource, query: JSON.stringify(input.query), updated: now };
      await trx.updateTable('views').set({ name: after.name, name_key: after.name_key, resource: after.resource, query: after.query, updated: now }).where('id', '=', viewId).execute();
      const changes: Changes = {};
      if (before.name !== after.name) changes.name = [before.name, after.name];
      if (before.query !== after.query) changes.query = [JSON.parse(before.query), input.query];
      if (Object.keys(changes).length) await recordActivity(trx, workspaceId, write.actor, [{ resource: VIEW_RESOURCE, resourceId: viewId, action: 'update', changes }], now);
      return toView(after);
    });
  }

  /** Deletes view `viewId` of `workspaceId`. 404 `View not found` elsewhere. */
  async delete(workspaceId: string, viewId: string, write: WriteContext): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      const before = await this.find(trx, workspaceId, viewId);
      await trx.deleteFrom('views').where('id', '=', viewId).execute();
      await recordActivity(trx, workspaceId, write.actor, [{ resource: VIEW_RESOURCE, resourceId: viewId, action: 'delete', changes: { name: [before.name, null], query: [JSON.parse(before.query), null] } }]);
    });
  }

  /** The view row, locked for the transaction; 404 when `workspaceId` has no view `viewId`. */
  private async find(trx: Transaction<Database>, workspaceId: string, viewId: string): Promise<ViewRow> {
    const row = await this.dialect.forUpdate(trx.selectFrom('views').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', viewId)).executeTakeFirst();
    if (!row) throw notFound('View not found');
    return row;
  }

  /** Creates in one workspace run one after the other (PostgreSQL; SQLite's transactions already do), so the cap holds. */
  private async lockViews(trx: Transaction<Database>, workspaceId: string): Promise<void> {
    const lock = this.dialect.transactionLock(`views:${workspaceId}`);
    if (lock) await lock.execute(trx);
  }

  /** Runs `body` in a transaction; a clash on the unique name is the 409 of docs/decisions.md section 13. */
  private async unique<T>(workspaceId: string, name: string, body: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        return body(trx);
      });
    } catch (error) {
      if (this.dialect.isUniqueViolation(error)) throw conflict(`A view named ${name} already exists`);
      throw error;
    }
  }
}
