/**
 * Organizations and workspaces: the operator command line creates them; `GET /workspaces` (endpoint 15) lists a
 * key's organization's workspaces with the filter and sort fields of docs/decisions.md section 6.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { FilterNode } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import type { Scope } from '../../src/api/scopes';
import { notFound } from '../errors';
import { type FieldMap, compileFilter, compileOrderBy } from '../filter/compile';
import type { Dialect } from './connection';
import { createApiKey } from './credentials';
import type { Database, WorkspaceTable } from './schema';

export const WORKSPACE_FIELDS: FieldMap = {
  id: { kind: 'column', column: 'workspaces.id', type: 'string' },
  name: { kind: 'column', column: 'workspaces.name', type: 'string' },
  created: { kind: 'column', column: 'workspaces.created', type: 'date' },
};
export const DEFAULT_WORKSPACE_ORDER: OrderByItem[] = [{ field: 'name', direction: 'asc' }];

/** The API shape of a listed workspace (docs/decisions.md section 7). */
export function toWorkspace(row: Selectable<WorkspaceTable>) {
  return { id: row.id, name: row.name, imageUrl: row.image_url, organizationId: row.organization_id, created: row.created };
}

/** Creates an organization; returns `{ id, name }`. */
export async function createOrganization(db: Kysely<Database>, name: string) {
  const org = { id: randomUUID(), name, created: new Date().toISOString() };
  await db.insertInto('organizations').values(org).execute();
  return { id: org.id, name: org.name };
}

/** Creates a workspace in `organizationId` (404 `Organization not found` when it does not exist). */
export async function createWorkspace(db: Kysely<Database>, input: { organizationId: string; name: string; imageUrl?: string | null; currency?: string }) {
  const org = await db.selectFrom('organizations').select('id').where('id', '=', input.organizationId).executeTakeFirst();
  if (!org) throw notFound('Organization not found');
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    name: input.name,
    image_url: input.imageUrl ?? null,
    currency: input.currency ?? 'USD',
    created: new Date().toISOString(),
  };
  await db.insertInto('workspaces').values(row).execute();
  return { id: row.id, name: row.name, organizationId: row.organization_id };
}

type WorkspaceInput = { organizationId: string; name: string; imageUrl?: string | null };
type CreatedWorkspace = Awaited<ReturnType<typeof createWorkspace>>;

/**
 * Creates a workspace in `input.organizationId` and, with `keyScopes`, its first API key holding them, in one
 * transaction (a key that cannot be made leaves no workspace behind): the operator command line's `workspace create
 * [--key-scope]` (docs/deploy.md). Returns the workspace, plus `key` (the plain key, shown once) and `scopes`
 * when a key was made. Throws 404 `Organization not found` like `createWorkspace`.
 */
export function createWorkspaceWithKey(db: Kysely<Database>, input: WorkspaceInput, keyScopes: Scope[]): Promise<CreatedWorkspace & { key: string; scopes: Scope[] }>;
export function createWorkspaceWithKey(db: Kysely<Database>, input: WorkspaceInput, keyScopes?: Scope[]): Promise<CreatedWorkspace | (CreatedWorkspace & { key: string; scopes: Scope[] })>;
export function createWorkspaceWithKey(db: Kysely<Database>, input: WorkspaceInput, keyScopes?: Scope[]) {
  return db.transaction().execute(async (trx) => {
    const workspace = await createWorkspace(trx, { ...input, imageUrl: input.imageUrl ?? null });
    return keyScopes ? { ...workspace, key: await createApiKey(trx, workspace.id, keyScopes), scopes: keyScopes } : workspace;
  });
}

/** The workspace with `id`, or undefined. */
export function findWorkspace(db: Kysely<Database>, id: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization with `id`, or undefined. */
export function findOrganization(db: Kysely<Database>, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of an organization's workspaces and the exact total. */
export async function listWorkspaces(
  db: Kysely<Database>,
  dialect: Dialect,
  organizationId: string,
  query: { filter?: FilterNode; orderBy: readonly OrderByItem[]; offset: number; limit: number },
) {
  let base = db.selectFrom('workspaces').where('workspaces.organization_id', '=', organizationId);
  if (query.filter) base = base.where(compileFilter(query.filter, WORKSPACE_FIELDS, dialect));
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy(compileOrderBy(query.orderBy, WORKSPACE_FIELDS, 'workspaces.id')).limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toWorkspace), maxResults: Number(total.n) };
}

/** True when the database has no organization yet (`DEMO_SEED=auto` seeds only then). */
export async function isEmpty(db: Kysely<Database>): Promise<boolean> {
  return !(await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst());
}
