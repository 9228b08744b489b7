/**
 * Which fields each list endpoint can filter and sort by, and their types (docs/decisions.md section 6).
 */

/**
 * How a field's values are compared (docs/decisions.md section 6):
 * `string` (all operators, `like`), `integer` and `decimal` (numbers within `NUMBER_RANGES`), `date` (ISO 8601
 * strings within `DATE_RANGE` of ../common.ts), `boolean` (eq/ne/in), `string-array` (eq = has, ne = has not,
 * in = has any).
 */
export type FieldType = 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'string-array';

/**
 * The values a numeric field holds, and so the literals a filter may compare it with (issue 12 point 3: a literal
 * the column cannot hold answered 500 on PostgreSQL). From the columns of server/db/migrations.ts:
 * - `integer`: PostgreSQL `integer` (`posts.claps`), -2,147,483,648 to 2,147,483,647, whole numbers only;
 * - `decimal`: the amounts of `price` and `originalPrice` (`double precision`), 0 to 1,000,000,000,000: the
 *   range product upserts accept (`moneySchema` in ../catalog.ts uses this one), so every stored amount can be
 *   filtered for and every amount a filter names could be stored.
 */
export const NUMBER_RANGES = {
  integer: { min: -2_147_483_648, max: 2_147_483_647 },
  decimal: { min: 0, max: 1_000_000_000_000 },
} as const satisfies Record<'integer' | 'decimal', { min: number; max: number }>;

/** Filterable field name -> type, for one endpoint (docs/decisions.md section 6). */
export type FieldTable = Readonly<Record<string, FieldType>>;

/** Contacts: filterable fields (docs/decisions.md section 6). */
export const contactFilterFields: FieldTable = Object.freeze({
  id: 'string',
  name: 'string',
  email: 'string',
  phone: 'string',
  state: 'string',
  source: 'string',
  systemSource: 'string',
  address: 'string',
  city: 'string',
  postalCode: 'string',
  region: 'string',
  tags: 'string-array',
  created: 'date',
  updated: 'date',
});

/** Contacts: sortable fields (docs/decisions.md section 6). */
export const contactSortFields: readonly string[] = Object.freeze(['name', 'email', 'phone', 'state', 'city', 'created', 'updated']);

/** Products: filterable fields (docs/decisions.md section 6). */
export const productFilterFields: FieldTable = Object.freeze({
  id: 'string',
  externalId: 'string',
  title: 'string',
  handle: 'string',
  type: 'string',
  status: 'string',
  vendor: 'string',
  source: 'string',
  currency: 'string',
  price: 'decimal',
  originalPrice: 'decimal',
  isForSale: 'boolean',
  tags: 'string-array',
  collectionIds: 'string-array',
  created: 'date',
  updated: 'date',
});

/** Products: no sortable fields (docs/decisions.md section 6); any `$orderBy` field is rejected. */
export const productSortFields: readonly string[] = Object.freeze([]);

/** Collections: filterable fields (docs/decisions.md section 6). */
export const collectionFilterFields: FieldTable = Object.freeze({
  id: 'string',
  externalId: 'string',
  title: 'string',
  handle: 'string',
  source: 'string',
  created: 'date',
  updated: 'date',
});

/** Collections: no sortable fields are listed in docs/decisions.md section 6; any `$orderBy` field is rejected. */
export const collectionSortFields: readonly string[] = Object.freeze([]);

/** Posts: filterable fields (docs/decisions.md section 6). */
export const postFilterFields: FieldTable = Object.freeze({
  id: 'string',
  header: 'string',
  text: 'string',
  publishedDate: 'date',
  claps: 'integer',
});

/** Posts: sortable fields (docs/decisions.md section 6). */
export const postSortFields: readonly string[] = Object.freeze(['publishedDate', 'claps']);

/** Post requests (`GET /post-requests`, our extension): filterable fields (docs/decisions.md section 10). */
export const postRequestFilterFields: FieldTable = Object.freeze({
  state: 'string',
  action: 'string',
  publishDate: 'date',
  created: 'date',
});

/** Post requests: sortable fields (docs/decisions.md section 10); default `created desc`. */
export const postRequestSortFields: readonly string[] = Object.freeze(['publishDate', 'created']);

/** Workspaces: filterable fields (docs/decisions.md section 6). */
export const workspaceFilterFields: FieldTable = Object.freeze({
  id: 'string',
  name: 'string',
  created: 'date',
});

/** Workspaces: sortable fields (docs/decisions.md section 6). */
export const workspaceSortFields: readonly string[] = Object.freeze(['name', 'created']);
