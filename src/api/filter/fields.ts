/**
 * Which fields each list endpoint can filter and sort by, and their types (decisions.md section 6).
 */

/**
 * How a field's values are compared (decisions.md section 6):
 * `string` (all operators, `like`), `number`, `date` (ISO 8601 strings), `boolean` (eq/ne/in),
 * `string-array` (eq = has, ne = has not, in = has any).
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'string-array';

/** Filterable field name -> type, for one endpoint (decisions.md section 6). */
export type FieldTable = Readonly<Record<string, FieldType>>;

/** Contacts: filterable fields (decisions.md section 6). */
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

/** Contacts: sortable fields (decisions.md section 6). */
export const contactSortFields: readonly string[] = Object.freeze(['name', 'email', 'phone', 'state', 'city', 'created', 'updated']);

/** Products: filterable fields (decisions.md section 6). */
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
  price: 'number',
  originalPrice: 'number',
  isForSale: 'boolean',
  tags: 'string-array',
  collectionIds: 'string-array',
  created: 'date',
  updated: 'date',
});

/** Products: no sortable fields (decisions.md section 6); any `$orderBy` field is rejected. */
export const productSortFields: readonly string[] = Object.freeze([]);

/** Collections: filterable fields (decisions.md section 6). */
export const collectionFilterFields: FieldTable = Object.freeze({
  id: 'string',
  externalId: 'string',
  title: 'string',
  handle: 'string',
  source: 'string',
  created: 'date',
  updated: 'date',
});

/** Collections: no sortable fields are listed in decisions.md section 6; any `$orderBy` field is rejected. */
export const collectionSortFields: readonly string[] = Object.freeze([]);

/** Posts: filterable fields (decisions.md section 6). */
export const postFilterFields: FieldTable = Object.freeze({
  id: 'string',
  header: 'string',
  text: 'string',
  publishedDate: 'date',
  claps: 'number',
});

/** Posts: sortable fields (decisions.md section 6). */
export const postSortFields: readonly string[] = Object.freeze(['publishedDate', 'claps']);

/** Workspaces: filterable fields (decisions.md section 6). */
export const workspaceFilterFields: FieldTable = Object.freeze({
  id: 'string',
  name: 'string',
  created: 'date',
});

/** Workspaces: sortable fields (decisions.md section 6). */
export const workspaceSortFields: readonly string[] = Object.freeze(['name', 'created']);
