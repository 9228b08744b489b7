/**
 * Products and collections (endpoints 7 to 10), taking plain values. Upserts follow docs/decisions.md section 7:
 * `id` given updates that record (404 when not in the workspace) and sets an `externalId` given beside it;
 * otherwise a found `externalId` updates; otherwise a new record is created. Absent fields stay as they were;
 * `tags`, collections and `customProperties` given are replaced whole. Handles are lower-case slugs unique in
 * the workspace: derived from the title when absent (`-2`, `-3` on a clash), 409 when given and taken. Each
 * upsert is one transaction; one that loses a race to a concurrent upsert is run again (`retrying`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CollectionUpsertParsed, ProductUpsertParsed } from '../../src/api/catalog';
import type { FilterNode } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { slugify } from '../../src/api/slug';
import { HttpError, badRequest, conflict, notFound } from '../errors';
import { type FieldMap, compileFilter, compileOrderBy } from '../filter/compile';
import { type Changes, type WriteContext, lockWorkspace, recordActivity } from './activity';
import type { Dialect } from './connection';
import type { CollectionTable, Database, ProductTable } from './schema';

export const PRODUCT_FIELDS: FieldMap = {
  id: { kind: 'column', column: 'products.id', type: 'string' },
  externalId: { kind: 'column', column: 'products.external_id', type: 'string' },
  title: { kind: 'column', column: 'products.title', type: 'string' },
  handle: { kind: 'column', column: 'products.handle', type: 'string' },
  type: { kind: 'column', column: 'products.type', type: 'string' },
  status: { kind: 'column', column: 'products.status', type: 'string' },
  vendor: { kind: 'column', column: 'products.vendor', type: 'string' },
  source: { kind: 'column', column: 'products.source', type: 'string' },
  price: { kind: 'column', column: 'products.price', type: 'decimal' },
  originalPrice: { kind: 'column', column: 'products.original_price', type: 'decimal' },
  currency: { kind: 'column', column: 'products.currency', type: 'string' },
  isForSale: { kind: 'column', column: 'products.is_for_sale', type: 'boolean' },
  tags: { kind: 'array', table: 'product_tags', ownerColumn: 'product_id', valueColumn: 'tag', parentId: 'products.id' },
  collectionIds: { kind: 'array', table: 'product_collections', ownerColumn: 'product_id', valueColumn: 'collection_id', parentId: 'products.id' },
  created: { kind: 'column', column: 'products.created', type: 'date' },
  updated: { kind: 'column', column: 'products.updated', type: 'date' },
};

export const COLLECTION_FIELDS: FieldMap = {
  id: { kind: 'column', column: 'collections.id', type: 'string' },
  externalId: { kind: 'column', column: 'collections.external_id', type: 'string' },
  title: { kind: 'column', column: 'collections.title', type: 'string' },
  handle: { kind: 'column', column: 'collections.handle', type: 'string' },
  source: { kind: 'column', column: 'collections.source', type: 'string' },
  created: { kind: 'column', column: 'collections.created', type: 'date' },
  updated: { kind: 'column', column: 'collections.updated', type: 'date' },
};

/** Default order of the product and collection lists (docs/decisions.md section 6). */
export const NEWEST_FIRST: OrderByItem[] = [{ field: 'created', direction: 'desc' }];

type Table = 'products' | 'collections';
const NOUN: Record<Table, string> = { products: 'product', collections: 'collection' };
const capitalized = (table: Table) => `${NOUN[table][0]!.toUpperCase()}${NOUN[table].slice(1)}`;

/** The record an upsert updates, or undefined when it creates (404 for an `id` not in the workspace). */
async function upsertTarget(trx: Transaction<Database>, table: Table, workspaceId: string, id?: string, externalId?: string) {
  if (id !== undefined) {
    const row = await trx.selectFrom(table).select(['id', 'external_id', 'handle']).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`${capitalized(table)} not found`);
    return row;
  }
  if (externalId === undefined) return undefined;
  return trx.selectFrom(table).select(['id', 'external_id', 'handle']).where('workspace_id', '=', workspaceId).where('external_id', '=', externalId).executeTakeFirst();
}

/** 409 when another record of the workspace already holds `column = value`. */
async function assertFree(trx: Transaction<Database>, table: Table, workspaceId: string, column: 'handle' | 'external_id', value: string, selfId?: string) {
  let query = trx.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).where(column, '=', value);
  if (selfId) query = query.where('id', '<>', selfId);
  if (await query.executeTakeFirst()) {
    throw conflict(`A ${NOUN[table]} with ${column === 'handle' ? 'handle' : 'externalId'} ${value} already exists`);
  }
}

/** `base`, or `base-2`, `base-3`, ... : the first handle free in the workspace. */
async function freeHandle(trx: Transaction<Database>, table: Table, workspaceId: string, base: string): Promise<string> {
  const rows = await trx
    .selectFrom(table)
    .select('handle')
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((row) => row.handle));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** How each field of an upsert is stored (for the activity log's `[before, after]` and a revert's restore). */
type StoredField = { column: string; kind?: 'json' | 'boolean' };
const PRODUCT_STORED: Record<string, StoredField> = {
  externalId: { column: 'external_id' }, title: { column: 'title' }, handle: { column: 'handle' }, bodyHtml: { column: 'body_html' },
  type: { column: 'type' }, status: { column: 'status' }, vendor: { column: 'vendor' }, source: { column: 'source' }, url: { column: 'url' },
  imageUrl: { column: 'image_url' }, price: { column: 'price' }, originalPrice: { column: 'original_price' }, currency: { column: 'currency' },
  isForSale: { column: 'is_for_sale', kind: 'boolean' }, tags: { column: 'tags', kind: 'json' }, customProperties: { column: 'custom_properties', kind: 'json' },
};
const COLLECTION_STORED: Record<string, StoredField> = {
  externalId: { column: 'external_id' }, title: { column: 'title' }, handle: { column: 'handle' }, bodyHtml: { column: 'body_html' },
  source: { column: 'source' }, customProperties: { column: 'custom_properties', kind: 'json' },
};
const STORED: Record<Table, Record<string, StoredField>> = { products: PRODUCT_STORED, collections: COLLECTION_STORED };

/** A stored value as the API writes it (JSON text parsed, 0/1 as a boolean). */
function apiValue(field: StoredField, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  if (field.kind === 'json') return JSON.parse(stored as string);
  if (field.kind === 'boolean') return stored === 1 || stored === true;
  return stored;
}

/** An API value as stored (the inverse of `apiValue`). */
function storedValue(field: StoredField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.kind === 'json') return JSON.stringify(value);
  if (field.kind === 'boolean') return value ? 1 : 0;
  return value;
}

/**
 * `[before, after]` of each stored field that `after` (stored values) changes on `before` (a create: every field
 * set, before null), keyed by the API's field names (docs/decisions.md section 11).
 */
function storedChanges(table: Table, before: Record<string, unknown> | undefined, after: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const [name, field] of Object.entries(STORED[table])) {
    if (!(field.column in after) || after[field.column] === undefined) continue;
    const was = before ? apiValue(field, before[field.column]) : null;
    const now = apiValue(field, after[field.column]);
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[name] = [was, now];
  }
  return changes;
}

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
/** Only the keys whose value is defined: absent fields of an update stay as they were. */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export type UpsertResult = { id: string; created: boolean };

/** Catalog reads and writes for one database. */
export class CatalogStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Makes the transaction `trx` the only upsert of `table` in the workspace until it ends, across every process
   * (`Dialect.transactionLock` on PostgreSQL; on SQLite the transaction already holds the write lock): its
   * lookups by `id` and `externalId` and the free handle it derives (`x`, `x-2`, ...) stay true until it
   * commits, so 50 concurrent creates titled alike get 50 handles and 201s, never a 409 (issue 12 point 2).
   * Call it first in every upsert transaction.
   */
  private async lockUpserts(trx: Transaction<Database>, table: Table, workspaceId: string): Promise<void> {
    await this.dialect.transactionLock(`${table}:${workspaceId}`)?.execute(trx);
  }

  /**
   * Runs an upsert transaction, again (up to 3 times in all) when a unique index still refused its write, or a
   * check saw a record committed since its lookup (409); with `lockUpserts` neither should happen. The next run
   * sees that record: the same `externalId` becomes an update, a handle really taken stays a 409. A unique
   * violation on the last run is a 409 too, never a 500.
   */
  private async retrying(run: () => Promise<UpsertResult>): Promise<UpsertResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const lostRace = this.dialect.isUniqueViolation(error) || (error instanceof HttpError && error.statusCode === 409);
        if (!lostRace) throw error;
        if (attempt === 3) throw this.dialect.isUniqueViolation(error) ? conflict('A concurrent request changed the same record; try again') : error;
      }
    }
  }

  /** Resolves `collectionIds` and `externalCollectionIds` to collection ids (400 naming an unknown one). */
  private async collectionSet(trx: Transaction<Database>, workspaceId: string, ids: string[] = [], externalIds: string[] = []): Promise<string[]> {
    const found = ids.length || externalIds.length
      ? await trx
          .selectFrom('collections')
          .select(['id', 'external_id'])
          .where('workspace_id', '=', workspaceId)
          .where((eb) => eb.or([eb('id', 'in', ids.length ? ids : ['']), eb('external_id', 'in', externalIds.length ? externalIds : [''])]))
          .execute()
      : [];
    const missingId = ids.find((id) => !found.some((row) => row.id === id));
    if (missingId) throw badRequest(`collectionIds: unknown collection ${missingId}`);
    const missingExternal = externalIds.find((id) => !found.some((row) => row.external_id === id));
    if (missingExternal) throw badRequest(`externalCollectionIds: unknown collection ${missingExternal}`);
    return [...new Set(found.filter((row) => ids.includes(row.id) || (row.external_id !== null && externalIds.includes(row.external_id))).map((row) => row.id))];
  }

  /** `POST /products`: creates or updates; `created` tells 201 from 200. */
  upsertProduct(workspaceId: string, input: ProductUpsertParsed, write: WriteContext = {}): Promise<UpsertResult> {
    return this.retrying(() =>
      this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        await this.lockUpserts(trx, 'products', workspaceId);
        const target = await upsertTarget(trx, 'products', workspaceId, input.id, input.externalId);
        if (!target && !input.title) throw badRequest('title is required to create a product');
        const id = target?.id ?? randomUUID();
        if (input.externalId !== undefined && input.externalId !== target?.external_id) await assertFree(trx, 'products', workspaceId, 'external_id', input.externalId, id);
        if (input.handle !== undefined) await assertFree(trx, 'products', workspaceId, 'handle', input.handle, id);
        const collections = input.collectionIds || input.externalCollectionIds ? await this.collectionSet(trx, workspaceId, input.collectionIds, input.externalCollectionIds) : undefined;
        const now = new Date().toISOString();
        const values = defined({
          external_id: input.externalId,
          title: input.title,
          handle: input.handle,
          body_html: input.bodyHtml,
          type: input.type,
          status: input.status,
          vendor: input.vendor,
          source: input.source,
          url: input.url,
          image_url: input.imageUrl,
          price: input.price,
          original_price: input.originalPrice,
          currency: input.currency,
          is_for_sale: input.isForSale === undefined ? undefined : input.isForSale ? 1 : 0,
          tags: json(input.tags),
          custom_properties: json(input.customProperties),
        });
        const before = target && write.actor ? await trx.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow() : undefined;
        const beforeCollections = before && collections ? await this.collectionsOf(trx, id) : undefined;
        let changes: Changes;
        if (target) {
          await trx.updateTable('products').set({ ...values, updated: now }).where('id', '=', id).execute();
          changes = write.actor ? storedChanges('products', before, values) : {};
        } else {
          const handle = input.handle ?? (await freeHandle(trx, 'products', workspaceId, slugify(input.title!, 'product')));
          changes = write.actor ? storedChanges('products', undefined, { ...values, handle }) : {};
          const row: Selectable<ProductTable> = {
            id, workspace_id: workspaceId, external_id: null, title: input.title!, handle, body_html: null, type: null, status: 'active', vendor: null,
            source: null, url: null, image_url: null, price: null, original_price: null, currency: null, is_for_sale: null, tags: '[]',
            custom_properties: null, created: now, updated: now,
          };
          await trx.insertInto('products').values({ ...row, ...values, handle }).execute();
        }
        if (input.tags) {
          await trx.deleteFrom('product_tags').where('product_id', '=', id).execute();
          if (input.tags.length) await trx.insertInto('product_tags').values(input.tags.map((tag) => ({ workspace_id: workspaceId, product_id: id, tag }))).execute();
        }
        if (collections) {
          await trx.deleteFrom('product_collections').where('product_id', '=', id).execute();
          if (collections.length) {
            await trx.insertInto('product_collections').values(collections.map((collection_id) => ({ workspace_id: workspaceId, product_id: id, collection_id }))).execute();
          }
          const was = [...(beforeCollections ?? [])].sort();
          const linked = [...collections].sort();
          if (write.actor && JSON.stringify(was) !== JSON.stringify(linked)) changes.collectionIds = [target ? was : null, linked];
        }
        if (!target || Object.keys(changes).length) {
          await recordActivity(trx, workspaceId, write.actor, [{ resource: 'product', resourceId: id, action: target ? 'update' : 'create', changes }], now);
        }
        return { id, created: !target };
      }),
    );
  }

  /** `POST /collections`: creates or updates; `created` tells 201 from 200. */
  upsertCollection(workspaceId: string, input: CollectionUpsertParsed, write: WriteContext = {}): Promise<UpsertResult> {
    return this.retrying(() =>
      this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        await this.lockUpserts(trx, 'collections', workspaceId);
        const target = await upsertTarget(trx, 'collections', workspaceId, input.id, input.externalId);
        const id = target?.id ?? randomUUID();
        if (input.externalId !== undefined && input.externalId !== target?.external_id) await assertFree(trx, 'collections', workspaceId, 'external_id', input.externalId, id);
        if (input.handle !== undefined) await assertFree(trx, 'collections', workspaceId, 'handle', input.handle, id);
        const now = new Date().toISOString();
        const values = defined({
          external_id: input.externalId,
          title: input.title,
          handle: input.handle,
          body_html: input.bodyHtml,
          source: input.source,
          custom_properties: json(input.customProperties),
        });
        let changes: Changes = {};
        if (target) {
          const before = write.actor ? await trx.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow() : undefined;
          await trx.updateTable('collections').set({ ...values, updated: now }).where('id', '=', id).execute();
          if (write.actor) changes = storedChanges('collections', before, values);
        } else {
          const handle = input.handle ?? (await freeHandle(trx, 'collections', workspaceId, slugify(input.title, 'collection')));
          if (write.actor) changes = storedChanges('collections', undefined, { ...values, handle });
          const row: Selectable<CollectionTable> = {
            id, workspace_id: workspaceId, external_id: null, title: input.title, handle, body_html: null, source: null, custom_properties: null, created: now, updated: now,
          };
          await trx.insertInto('collections').values({ ...row, ...values, handle }).execute();
        }
        if (!target || Object.keys(changes).length) {
          await recordActivity(trx, workspaceId, write.actor, [{ resource: 'collection', resourceId: id, action: target ? 'update' : 'create', changes }], now);
        }
        return { id, created: !target };
      }),
    );
  }

  /** One page of products (newest first) with their collections, and the exact total. */
  async listProducts(workspaceId: string, query: { filter?: FilterNode; offset: number; limit: number }) {
    let base = this.db.selectFrom('products').where('products.workspace_id', '=', workspaceId);
    if (query.filter) base = base.where(compileFilter(query.filter, PRODUCT_FIELDS, this.dialect));
    const [rows, total] = await Promise.all([
      base.selectAll('products').orderBy(compileOrderBy(NEWEST_FIRST, PRODUCT_FIELDS, 'products.id')).limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const links = rows.length
      ? await this.db
          .selectFrom('product_collections')
          .innerJoin('collections', 'collections.id', 'product_collections.collection_id')
          .select(['product_collections.product_id', 'collections.id', 'collections.title'])
          .where('product_collections.product_id', 'in', rows.map((row) => row.id))
          .orderBy('collections.title')
          .execute()
      : [];
    const items = rows.map((row) => ({
      id: row.id,
      externalId: row.external_id,
      title: row.title,
      handle: row.handle,
      bodyHtml: row.body_html,
      type: row.type,
      status: row.status,
      vendor: row.vendor,
      source: row.source,
      url: row.url,
      imageUrl: row.image_url,
      price: row.price,
      originalPrice: row.original_price,
      currency: row.currency,
      isForSale: row.is_for_sale === null ? null : Boolean(row.is_for_sale),
      tags: JSON.parse(row.tags) as string[],
      collections: links.filter((link) => link.product_id === row.id).map((link) => ({ id: link.id, collectionTitle: link.title })),
      customProperties: row.custom_properties === null ? null : (JSON.parse(row.custom_properties) as Record<string, unknown>),
      created: row.created,
      updated: row.updated,
    }));
    return { items, maxResults: Number(total.n) };
  }

  /** One page of collections (newest first) and the exact total. */
  async listCollections(workspaceId: string, query: { filter?: FilterNode; offset: number; limit: number }) {
    let base = this.db.selectFrom('collections').where('collections.workspace_id', '=', workspaceId);
    if (query.filter) base = base.where(compileFilter(query.filter, COLLECTION_FIELDS, this.dialect));
    const [rows, total] = await Promise.all([
      base.selectAll('collections').orderBy(compileOrderBy(NEWEST_FIRST, COLLECTION_FIELDS, 'collections.id')).limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = rows.map((row) => ({
      id: row.id,
      feedId: row.workspace_id,
      externalId: row.external_id,
      title: row.title,
      handle: row.handle,
      bodyHtml: row.body_html,
      source: row.source,
      customProperties: row.custom_properties === null ? null : (JSON.parse(row.custom_properties) as Record<string, unknown>),
      created: row.created,
      updated: row.updated,
    }));
    return { items, maxResults: Number(total.n) };
  }

  /**
   * `DELETE /products/{id}` (docs/decisions.md section 10, `catalog-delete`): the product, its tag rows and its
   * collection links, in one transaction; 404 `Product not found` when it is not in the workspace. Serialized with
   * the workspace's product upserts (`lockUpserts`).
   */
  async deleteProduct(workspaceId: string, id: string, write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      await this.deleteProductIn(trx, workspaceId, id, write);
    });
  }

  /** `deleteProduct` in the caller's transaction, recorded as `delete` (or as `revertOf`'s `revert`). */
  async deleteProductIn(trx: Transaction<Database>, workspaceId: string, id: string, write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<void> {
    {
      await this.lockUpserts(trx, 'products', workspaceId);
      const found = await trx.selectFrom('products').select('id').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
      if (!found) throw notFound('Product not found');
      await trx.deleteFrom('product_collections').where('product_id', '=', id).execute();
      await trx.deleteFrom('product_tags').where('product_id', '=', id).execute();
      await trx.deleteFrom('products').where('id', '=', id).execute();
      await recordActivity(trx, workspaceId, write.actor, [
        { resource: 'product', resourceId: id, action: write.revertOf ? 'revert' : 'delete', changes: null, revertOf: write.revertOf, batchId: write.batchId },
      ]);
    }
  }

  /**
   * `DELETE /collections/{id}`: the collection and its links to products (so no product lists it any more), in one
   * transaction; 404 `Collection not found` when it is not in the workspace. Holds the workspace's product-upsert
   * lock as well, so an upsert linking this collection either commits first (its link is removed here) or sees it
   * gone (a 400 naming it), never a foreign-key failure.
   */
  async deleteCollection(workspaceId: string, id: string, write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      await this.deleteCollectionIn(trx, workspaceId, id, write);
    });
  }

  /** `deleteCollection` in the caller's transaction, recorded as `delete` (or as `revertOf`'s `revert`). */
  async deleteCollectionIn(trx: Transaction<Database>, workspaceId: string, id: string, write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<void> {
    {
      await this.lockUpserts(trx, 'products', workspaceId);
      await this.lockUpserts(trx, 'collections', workspaceId);
      const found = await trx.selectFrom('collections').select('id').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
      if (!found) throw notFound('Collection not found');
      await trx.deleteFrom('product_collections').where('collection_id', '=', id).execute();
      await trx.deleteFrom('collections').where('id', '=', id).execute();
      await recordActivity(trx, workspaceId, write.actor, [
        { resource: 'collection', resourceId: id, action: write.revertOf ? 'revert' : 'delete', changes: null, revertOf: write.revertOf, batchId: write.batchId },
      ]);
    }
  }

  /** The collection ids of product `id`. */
  private async collectionsOf(trx: Transaction<Database>, id: string): Promise<string[]> {
    return (await trx.selectFrom('product_collections').select('collection_id').where('product_id', '=', id).execute()).map((row) => row.collection_id);
  }

  /**
   * Puts back the `before` values of an `update` entry (a revert, docs/decisions.md section 11) on product or
   * collection `id`, in the caller's transaction, recorded as `revertOf`'s `revert`. Collections that no longer exist
   * are left out of a restored `collectionIds`. 404 when the record is gone; a unique clash (the handle taken since)
   * throws the database's error.
   */
  async restoreIn(trx: Transaction<Database>, table: Table, workspaceId: string, id: string, before: Record<string, unknown>, write: WriteContext & { revertOf: string; batchId: string }): Promise<void> {
    await this.lockUpserts(trx, table, workspaceId);
    const row = await trx.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`${capitalized(table)} not found`);
    const set: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(before)) {
      const field = STORED[table][name];
      if (field) set[field.column] = storedValue(field, value);
    }
    const changes = storedChanges(table, row, set);
    if (Object.keys(set).length) await trx.updateTable(table).set({ ...set, updated: new Date().toISOString() } as never).where('id', '=', id).execute();
    if (table === 'products' && 'tags' in before) {
      const tags = (before.tags ?? []) as string[];
      await trx.deleteFrom('product_tags').where('product_id', '=', id).execute();
      if (tags.length) await trx.insertInto('product_tags').values(tags.map((tag) => ({ workspace_id: workspaceId, product_id: id, tag }))).execute();
    }
    if (table === 'products' && 'collectionIds' in before) {
      const wanted = (before.collectionIds ?? []) as string[];
      const was = (await this.collectionsOf(trx, id)).sort();
      const existing = wanted.length ? await trx.selectFrom('collections').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', wanted).execute() : [];
      const now = existing.map((collection) => collection.id).sort();
      await trx.deleteFrom('product_collections').where('product_id', '=', id).execute();
      if (now.length) await trx.insertInto('product_collections').values(now.map((collection_id) => ({ workspace_id: workspaceId, product_id: id, collection_id }))).execute();
      if (JSON.stringify(was) !== JSON.stringify(now)) changes.collectionIds = [was, now];
    }
    await recordActivity(trx, workspaceId, write.actor, [{ resource: NOUN[table] as 'product' | 'collection', resourceId: id, action: 'revert', changes, revertOf: write.revertOf, batchId: write.batchId }]);
  }
}
