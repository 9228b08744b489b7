/**
 * Contact queries (endpoints 2 to 6 and the export), taking plain values. Every write runs in one transaction
 * that also bumps the workspace's `contacts_version` (the count cache key). Rules: docs/decisions.md section 7.
 */
import { randomUUID } from 'node:crypto';
import { type Compilable, CompiledQuery, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, type Transaction, sql } from 'kysely';
import type { ListParams } from '../../src/api/common';
import type { ContactCreateParsed, NotificationSettingsPatch } from '../../src/api/contacts';
import type { ContactPatchParsed } from '../../src/api/extensions';
import { type FilterNode, and } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { printFilter } from '../../src/api/filter/print';
import { HttpError, badRequest, notFound } from '../errors';
import { type FieldMap, compileFilter, compileOrderBy } from '../filter/compile';
import { type Dialect, precompiled } from './connection';
import { CONTACT_SEARCH_TABLE, type SearchMatch, matchSql, searchMatch } from './contact-search';
import { TAG_KINDS } from './contact-counts';
import { VersionedCache } from './count-cache';
import { type ActivityChange, type Changes, type WriteContext, eraseHistory, lockWorkspace, recordActivity } from './activity';
import { AnchorCache, type AnchorValues, type SortTerm, seekFrom } from './deep-pages';
import { IdempotencyStore } from './idempotency';
import type { ContactTable, Database } from './schema';
import { TimedChunks, yieldToOthers } from './timed-chunks';

export type ContactRow = Selectable<ContactTable>;

/** A workspace's (or a filter's) contact figures (docs/decisions.md section 12). */
export type ContactFigures = { total: number; byState: { pending: number; active: number }; topTags: { name: string; count: number }[] };

/** Where each filterable and sortable contact field lives (docs/decisions.md section 6). */
export const CONTACT_FIELDS: FieldMap = {
  id: { kind: 'column', column: 'contacts.id', type: 'string' },
  name: { kind: 'column', column: 'contacts.name', type: 'string', sortExpression: 'lower("contacts"."name")', nullable: true },
  email: { kind: 'column', column: 'contacts.email', type: 'string', nullable: true, caseInsensitiveKey: 'contacts.email_key' },
  phone: { kind: 'column', column: 'contacts.phone', type: 'string', nullable: true },
  state: { kind: 'column', column: 'contacts.state', type: 'string' },
  source: { kind: 'column', column: 'contacts.source', type: 'string' },
  systemSource: { kind: 'column', column: 'contacts.system_source', type: 'string' },
  address: { kind: 'column', column: 'contacts.address', type: 'string' },
  city: { kind: 'column', column: 'contacts.city', type: 'string', nullable: true },
  postalCode: { kind: 'column', column: 'contacts.postal_code', type: 'string' },
  region: { kind: 'column', column: 'contacts.region', type: 'string' },
  tags: { kind: 'array', table: 'contact_tags', ownerColumn: 'contact_id', valueColumn: 'tag', parentId: 'contacts.id' },
  created: { kind: 'column', column: 'contacts.created', type: 'date' },
  updated: { kind: 'column', column: 'contacts.updated', type: 'date' },
};

/** List parameters with their order settled (a list's own or `DEFAULT_CONTACT_ORDER`): what the reads below take. */
type OrderedParams = Required<Pick<ListParams, 'orderBy'>> & ListParams;

/** Default order of contact lists: newest first. */
export const DEFAULT_CONTACT_ORDER: OrderByItem[] = [{ field: 'created', direction: 'desc' }];

/**
 * A listed contact as JSON text built by the database, in the shape of docs/decisions.md section 7: every field,
 * absent ones null, stored JSON (tags, statusTags, follows) embedded as JSON, notificationSettings as booleans.
 * `safe`: a stored JSON value the database cannot read is null (tags `[]`) instead of failing the query.
 */
function contactJson(dialect: Dialect, safe = false) {
  const column = (name: keyof ContactRow) => sql.ref(`contacts.${name}`);
  const json = (name: string, empty?: 'array') => (safe ? dialect.safeJsonColumn(name, empty) : dialect.jsonColumn(name));
  return dialect.jsonText(
    dialect.jsonObject({
      id: column('id'),
      feedId: column('workspace_id'),
      name: column('name'),
      email: column('email'),
      phone: column('phone'),
      image: column('image'),
      bio: column('bio'),
      address: column('address'),
      city: column('city'),
      postalCode: column('postal_code'),
      region: column('region'),
      source: column('source'),
      systemSource: column('system_source'),
      customMessage: column('custom_message'),
      state: column('state'),
      tags: json('contacts.tags', 'array'),
      statusTags: json('contacts.status_tags'),
      follows: json('contacts.follows'),
      notificationSettings: dialect.jsonObject({ email: dialect.jsonBoolean('contacts.notify_email'), sms: dialect.jsonBoolean('contacts.notify_sms') }),
      created: column('created'),
      updated: column('updated'),
    }),
  );
}

/** How `ContactStore.matching` reads: see there. */
type MatchingOptions = { ordered?: boolean; reverse?: boolean; search?: { match: SearchMatch; drive: 'candidates' | 'order' } };

/** How a page of a search the trigram indexes serve is read: see `searchDrive`. */
export type SearchDrive = 'scan' | 'order' | 'candidates';

/** Fields whose order an index of `contacts` gives (migration 0001), so a page can be found by walking it. */
const INDEXED_ORDER_FIELDS = ['created', 'updated', 'name', 'city'];

/**
 * CPU cost in microseconds, measured on 1,000,000 contacts with SQLite (issue 13): reading a contact's row and
 * testing the filter on it; putting one candidate of the search index into a set; one step along an order's
 * index with a probe of that set.
 */
const COST_US = { row: 2.5, candidate: 0.3, step: 0.2 };

/**
 * How to read a page of a search the trigram indexes serve, the cheapest by `COST_US`, for `candidates` from the
 * index of which `matches` match, among about `rows` contacts (an upper bound of the workspace's contacts), the
 * page ending `needed` rows into its order:
 * - `scan`: walk the order's index testing each row, as without the index (dense matches: `name like 'ann'`
 *   finds 50 among 1,900 rows, cheaper than collecting 27,000 candidates);
 * - `order` (SQLite, `walkable`): collect the candidates into a set, walk the order's index skipping the others;
 * - `candidates`: read every candidate's row and sort them (few candidates, or an order no index gives).
 * PostgreSQL plans by itself, but from estimates: `ilike '%kari%'` on three fields was estimated at 19,654 rows
 * for 1,586, so it walked the newest-first index through 37,000 rows (178 ms) where the GIN indexes give the
 * 1,586 at once; the exact count, known by then, decides instead.
 */
export function searchDrive(candidates: number, matches: number, rows: number, needed: number, orderIndexed: boolean, walkable = true): SearchDrive {
  const read = candidates * COST_US.row;
  if (!orderIndexed) return 'candidates';
  const scan = (needed * Math.max(rows, 1) * COST_US.row) / Math.max(matches, 1);
  const walk = walkable ? candidates * COST_US.candidate + (needed * Math.max(rows, 1) * COST_US.step) / Math.max(candidates, 1) : Number.POSITIVE_INFINITY;
  return scan <= walk && scan <= read ? 'scan' : walk <= read ? 'order' : 'candidates';
}

/** `printFilter(filter)` ('' for none), kept per filter object: the count cache's key on every page (issue 16). */
const printed = new WeakMap<FilterNode, string>();
function filterText(filter: FilterNode | undefined): string {
  if (!filter) return '';
  let text = printed.get(filter);
  if (text === undefined) printed.set(filter, (text = printFilter(filter)));
  return text;
}

/**
 * The kept counts that answer `count(filter)` exactly (migration 0010, issue 39 point 2), or null when a query must
 * count: no filter (every state), `state eq 'x'`, `state in (...)` (a contact has one state, so the counts add up)
 * and `tags eq 'x'` (the contacts carrying the tag).
 */
function keptCountOf(filter: FilterNode | undefined): { kind: 'state' | 'tag'; names?: string[] } | null {
  if (!filter) return { kind: 'state' };
  if (filter.kind === 'compare' && filter.operator === 'eq' && typeof filter.value === 'string') {
    if (filter.field === 'state') return { kind: 'state', names: [filter.value] };
    if (filter.field === 'tags') return { kind: 'tag', names: [filter.value] };
  }
  if (filter.kind === 'in' && filter.field === 'state' && filter.values.every((value) => typeof value === 'string')) return { kind: 'state', names: [...new Set(filter.values as string[])] };
  return null;
}

const sumOf = (counts: Map<string, number>): number => [...counts.values()].reduce((sum, n) => sum + n, 0);

/** `searchMatch(filter)`, kept per filter object like `filterText`. */
const matches = new WeakMap<FilterNode, ReturnType<typeof searchMatch>>();
function memoSearchMatch(filter: FilterNode | undefined): ReturnType<typeof searchMatch> {
  if (!filter) return searchMatch(filter);
  if (!matches.has(filter)) matches.set(filter, searchMatch(filter));
  return matches.get(filter)!;
}

/** True for the default order of contact lists (newest first). */
const isDefaultOrder = (orderBy: readonly OrderByItem[]) =>
  orderBy.length === 1 && orderBy[0]!.field === 'created' && orderBy[0]!.direction === 'desc';

const isTagEquals = (node: FilterNode): node is FilterNode & { kind: 'compare'; value: string } =>
  node.kind === 'compare' && node.field === 'tags' && node.operator === 'eq' && typeof node.value === 'string';

/**
 * `{ tag, rest }` when `filter` requires a contact to have one tag: `tags eq 'x'` alone or as an operand of the
 * top-level `and`; `rest` is the rest of the filter (undefined when nothing else is asked). Otherwise null.
 */
/**
 * True when `filter` is, or has as an operand of its top-level `and`, `email` or `phone` `eq`/`in` values: a few
 * rows found through the (workspace, email_key) or (workspace, phone) index. Without statistics SQLite would rather
 * walk the order's index (newest first) and test every contact of the workspace: one look-up of 80 emails took a
 * second on 100,000 contacts, a few milliseconds through the key index (issue 20: an import's look-ups).
 */
export function keyLookup(filter: FilterNode | undefined): boolean {
  if (!filter) return false;
  if (filter.kind === 'and') return filter.operands.some(keyLookup);
  if (filter.kind === 'or' || filter.kind === 'not') return false;
  return (filter.field === 'email' || filter.field === 'phone') && (filter.kind === 'in' || (filter.kind === 'compare' && filter.operator === 'eq' && filter.value !== null));
}

export function requiredTag(filter: FilterNode | undefined): { tag: string; rest: FilterNode | undefined } | null {
  if (!filter) return null;
  if (isTagEquals(filter)) return { tag: filter.value, rest: undefined };
  if (filter.kind !== 'and') return null;
  const index = filter.operands.findIndex(isTagEquals);
  if (index === -1) return null;
  return { tag: (filter.operands[index] as { value: string }).value, rest: and(...filter.operands.filter((_, i) => i !== index)) };
}

/** The short contact shape answered by create and the notification-settings update. */
export function toContactSummary(row: ContactRow) {
  return { id: row.id, feedId: row.workspace_id, name: row.name, email: row.email, phone: row.phone, image: row.image, state: row.state };
}

async function bumpVersion(trx: Transaction<Database>, workspaceId: string) {
  await trx.updateTable('workspaces').set((eb) => ({ contacts_version: eb('contacts_version', '+', 1) })).where('id', '=', workspaceId).execute();
}

/** Contact reads and writes for one database. */
export class ContactStore {
  private readonly counts = new VersionedCache<number>();
  /** `run`'s compiled page queries, by params object (dropped with it) and shape. */
  private readonly compiledPages = new WeakMap<object, Map<string, CompiledQuery<{ json: string }>>>();
  private readonly tagCounts = new VersionedCache<{ name: string; count: number }[]>(100);
  /** `stats`' figures, by version and filter. */
  private readonly figures = new VersionedCache<ContactFigures>(500);
  /** `createdPerDay`'s answers, by version and first day. */
  private readonly days = new VersionedCache<Map<string, number>>(100);
  /** Deep pages' anchors (deep-pages.ts, issue 39): null when `options.anchorsFrom` is 0. */
  private readonly anchors: AnchorCache | null;
  /**
   * The projection compiled to SQL text once (it has no parameters): building and compiling its 23 fields on
   * every page cost more than running the query (issue 2 benchmark).
   */
  private readonly json: RawBuilder<string>;
  /** The same, able to list any stored value (`contactJson` safe): what a page falls back to (issue 12). */
  private readonly safeJson: RawBuilder<string>;
  /**
   * `searchDrive`: always read a served search's pages that way (tests), instead of the cheapest way.
   * `anchorsFrom`: how deep (in rows) a page is read from an anchor (deep-pages.ts; default `ANCHORS_FROM`, 0 reads
   * every page with a plain OFFSET: the tests' reference). `keptCounts` false: `count` always counts the matching rows, as
   * before migration 0010 (bench/kept-counts.ts' reference).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly options: { searchDrive?: SearchDrive; anchorsFrom?: number; keptCounts?: boolean } = {},
  ) {
    this.anchors = options.anchorsFrom === 0 ? null : new AnchorCache(options.anchorsFrom);
    this.json = sql.raw<string>(contactJson(dialect).compile(db).sql);
    this.safeJson = sql.raw<string>(contactJson(dialect, true).compile(db).sql);
    this.versionQuery = precompiled(db.selectFrom('workspaces').select('contacts_version').where('id', '=', ''));
    // An upper bound of a workspace's contacts, at no cost: SQLite's largest rowid, PostgreSQL's row estimate.
    this.rowsQuery = precompiled(
      dialect.name === 'sqlite'
        ? db.selectFrom('contacts').select(sql<number>`max(rowid)`.as('n'))
        : db.selectNoFrom(sql<number>`(select reltuples from pg_class where oid = 'contacts'::regclass)`.as('n')),
    );
  }
  private readonly versionQuery: (workspaceId: string) => CompiledQuery<{ contacts_version: number }>;
  private readonly rowsQuery: () => CompiledQuery<{ n: number | null }>;

  /** The query for `columns` of the contacts matching `query` in `workspaceId`, in order (exports stream it). */
  selectColumns(workspaceId: string, query: OrderedParams, columns: readonly (keyof ContactRow)[]): CompiledQuery {
    return this.matching(this.db, workspaceId, query)
      .select(columns.map((column) => `contacts.${column}` as const))
      .compile();
  }

  /**
   * The contacts matching `query`, in order and paged, with nothing selected yet. A filter that requires one
   * tag, in the default newest-first order, reads that tag's rows from their (workspace, tag, created) index and
   * joins each contact: the first page costs 50 lookups instead of testing contacts one by one until 50 have
   * the tag (issue 2 benchmark, `tags eq 'vip'`). Same rows, same order: contact_tags.created is the contact's.
   * `ordered` false (a count) leaves out the order, and may always start from the tag's rows. `reverse` reads
   * in the exact reverse order (a deep page, `list`). `search` (SQLite, issue 13) takes the candidates from the
   * search index (contact-search.ts) and checks only the residual filter on each: `drive` `candidates` reads
   * every candidate row and sorts them (few candidates, or an order no index gives), `order` walks the order's
   * index and skips every contact that is not a candidate (many candidates: the page is found early).
   */
  private matching(db: Kysely<Database>, workspaceId: string, query: OrderedParams, options: MatchingOptions = {}) {
    const { ordered = true, reverse = false, search } = options;
    const byTag = !search && (!ordered || isDefaultOrder(query.orderBy)) ? requiredTag(query.filter) : null;
    let select: SelectQueryBuilder<Database, 'contacts', object>;
    if (byTag) {
      select = db
        .selectFrom('contact_tags')
        .innerJoin('contacts', 'contacts.id', 'contact_tags.contact_id')
        .where('contact_tags.workspace_id', '=', workspaceId)
        .where('contact_tags.tag', '=', byTag.tag)
        .where('contacts.workspace_id', '=', workspaceId) as unknown as SelectQueryBuilder<Database, 'contacts', object>;
    } else if (search?.drive === 'candidates' && this.dialect.name === 'postgres') {
      // OFFSET 0 keeps PostgreSQL from planning the filter together with the order: it reads the matching rows
      // from the GIN indexes, then sorts them (the derived table is named `contacts`, so the order applies as is).
      const filtered = db
        .selectFrom('contacts')
        .selectAll()
        .where('contacts.workspace_id', '=', workspaceId)
        .where(compileFilter(query.filter!, CONTACT_FIELDS, this.dialect))
        .offset(0);
      select = db.selectFrom(filtered.as('contacts')) as unknown as SelectQueryBuilder<Database, 'contacts', object>;
    } else if (search?.drive === 'candidates') {
      // CROSS JOIN keeps SQLite's join order: the index first, then each candidate's row by rowid.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a query over a table the schema type does not list
      select = (db as unknown as Kysely<any>)
        .selectFrom(CONTACT_SEARCH_TABLE)
        .crossJoin('contacts')
        .where(sql<SqlBool>`${sql.ref('contacts.rowid')} = ${sql.ref(`${CONTACT_SEARCH_TABLE}.rowid`)}`)
        .where(sql<SqlBool>`${sql.table(CONTACT_SEARCH_TABLE)} match ${matchSql(workspaceId, search.match)}`)
        .where('contacts.workspace_id', '=', workspaceId) as unknown as SelectQueryBuilder<Database, 'contacts', object>;
    } else {
      select = db.selectFrom('contacts').where('contacts.workspace_id', '=', workspaceId);
      // `+` keeps SQLite from driving the query by this set: the order's index does, probing the set as it goes.
      if (search) select = select.where(sql<SqlBool>`+${sql.ref('contacts.rowid')} in (select rowid from ${sql.table(CONTACT_SEARCH_TABLE)} where ${sql.table(CONTACT_SEARCH_TABLE)} match ${matchSql(workspaceId, search.match)})`);
    }
    const filter = search && this.dialect.name === 'postgres' ? undefined : search ? search.match.residual : byTag ? byTag.rest : query.filter;
    if (filter) select = select.where(compileFilter(filter, CONTACT_FIELDS, this.dialect));
    if (ordered) {
      select = byTag
        ? select.orderBy(sql`${sql.ref('contact_tags.created')} ${sql.raw(reverse ? 'asc' : 'desc')}, ${sql.ref('contact_tags.contact_id')} ${sql.raw(reverse ? 'desc' : 'asc')}`)
        : select.orderBy(compileOrderBy(query.orderBy, CONTACT_FIELDS, 'contacts.id', reverse, this.dialect.name === 'sqlite' && !search && keyLookup(filter)));
    }
    if (query.limit !== undefined) select = select.limit(query.limit);
    if (query.offset !== undefined) select = query.limit === undefined && this.dialect.offsetNeedsLimit ? select.limit(-1).offset(query.offset) : select.offset(query.offset);
    return select;
  }


  /**
   * Exact number of contacts matching `filter`, cached until the workspace's next contact write. A filter the
   * search index answers exactly is counted in the index alone; one it narrows is counted over its candidates.
   */
  async count(workspaceId: string, filter: FilterNode | undefined): Promise<number> {
    return this.countAt(await this.versionKey(workspaceId), workspaceId, filter);
  }

  /** `count` at the data version `version` (a `versionKey` already read), so that the reads of one page share one. */
  private async countAt(version: string, workspaceId: string, filter: FilterNode | undefined): Promise<number> {
    const key = `${version}:${filterText(filter)}`;
    return this.counts.get(key, async () => {
      const kept = this.options.keptCounts === false ? null : keptCountOf(filter);
      if (kept) return sumOf(await this.keptCounts(workspaceId, kept.kind, kept.names));
      // Only SQLite asks its search index; PostgreSQL's GIN indexes serve the filter's `ilike` as it is.
      const match = this.dialect.name === 'sqlite' ? memoSearchMatch(filter) : null;
      if (match?.exact) return this.countCandidates(workspaceId, match);
      const search = match ? { match, drive: 'candidates' as const } : undefined;
      const { n } = await this.matching(this.db, workspaceId, { filter, orderBy: [] }, { ordered: false, search })
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    });
  }

  /** How many contacts of the workspace the search index gives for `match` (the count itself when it is exact). */
  private async countCandidates(workspaceId: string, match: SearchMatch): Promise<number> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a query over a table the schema type does not list
    const { n } = await (this.db as unknown as Kysely<any>)
      .selectFrom(CONTACT_SEARCH_TABLE)
      .where(sql<SqlBool>`${sql.table(CONTACT_SEARCH_TABLE)} match ${matchSql(workspaceId, match)}`)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * One page and the exact total (`GET /contacts`): `items` holds each contact as JSON text (`contactJson`).
   * A page past the first picks its ids first and builds the JSON of those rows only: PostgreSQL would build it
   * for every row an OFFSET skips (issue 8 benchmark: `$offset=500000`), and SQLite is no slower this way.
   * A page past the middle of the result is read from the other end (issue 13): `offset' = total - offset -
   * limit` in the reverse order, and the page put back in order by the outer query, so the last page of a million
   * costs what the first does. That needs the total first (cached per filter; a write between the two reads can
   * shift such a page by the rows it added, as any write shifts offsets). A search the trigram indexes serve
   * counts first too, to choose how to read the page (`searchDrive`).
   * A deep page of any other read (1000 rows or more into its reading direction) is a seek from its own anchor,
   * the page's first row, found by walking from the nearest one before it the first time (`anchor`, deep-pages.ts,
   * issue 39 point 1): the same rows, at the first page's cost once that anchor of the data version is known.
   * A page the database cannot build because a row holds a value it cannot read as JSON is built again with
   * the safe projection, which lists such values as null (issue 12): no stored value can fail a page, and pages
   * of good rows pay nothing for it.
   */
  async list(workspaceId: string, query: OrderedParams & Required<Pick<ListParams, 'offset' | 'limit'>>): Promise<{ items: string[]; maxResults: number }> {
    const build = async (rows: (json: RawBuilder<string>) => Promise<{ json: string }[]>) =>
      (await rows(this.json).catch((error: unknown) => (this.dialect.isJsonError(error) ? rows(this.safeJson) : Promise.reject(error)))).map((row) => row.json);
    const variant = (json: RawBuilder<string>) => (json === this.json ? 'json' : 'safe');
    const match = memoSearchMatch(query.filter);
    if (query.offset === 0 && !match && keyLookup(query.filter)) {
      // A look-up by email or phone (an import's `email in (...)`, issue 20): a first page that is not full holds
      // every match, so its length is the total and no count is run (or cached: each look-up's filter is new).
      const items = await build((json) => this.run(query, `${workspaceId}:first:${variant(json)}`, () => this.matching(this.db, workspaceId, query).select(json.as('json'))));
      return { items, maxResults: items.length < query.limit ? items.length : await this.count(workspaceId, query.filter) };
    }
    if (query.offset === 0 && !match) {
      const [items, maxResults] = await Promise.all([
        build((json) => this.run(query, `${workspaceId}:first:${variant(json)}`, () => this.matching(this.db, workspaceId, query).select(json.as('json')))),
        this.count(workspaceId, query.filter),
      ]);
      return { items, maxResults };
    }
    // One read of the data version for the count, the search's candidates and the anchor: a round trip less a
    // page past the first than reading it for each (on PostgreSQL a statement is most of a cached page's cost).
    const version = await this.versionKey(workspaceId);
    const maxResults = await this.countAt(version, workspaceId, query.filter);
    if (query.offset >= maxResults) return { items: [], maxResults };
    const fromEnd = Math.max(0, maxResults - query.offset - query.limit);
    const reverse = fromEnd < query.offset;
    const window = reverse ? { offset: fromEnd, limit: Math.min(query.limit, maxResults - query.offset) } : { offset: query.offset, limit: query.limit };
    let search: MatchingOptions['search'];
    if (match) {
      // PostgreSQL's GIN recheck leaves no more candidates than matches: the count is both.
      const sqlite = this.dialect.name === 'sqlite';
      const candidates = match.exact || !sqlite ? maxResults : await this.candidates(version, workspaceId, query.filter!, match);
      const [rows] = (await this.db.executeQuery(this.rowsQuery())).rows;
      const orderIndexed = INDEXED_ORDER_FIELDS.includes(query.orderBy[0]?.field ?? '');
      let drive = this.options.searchDrive ?? searchDrive(candidates, maxResults, Number(rows?.n ?? 0), window.offset + window.limit, orderIndexed, sqlite);
      if (!sqlite && drive === 'order') drive = 'scan';
      if (drive !== 'scan') search = { match, drive };
    }
    // A deep page of an indexed read is a seek from its own anchor (deep-pages.ts, issue 39).
    const seek = !match && !keyLookup(query.filter) && this.anchors && window.offset >= this.anchors.from ? await this.anchor(version, workspaceId, query, window.offset, reverse) : null;
    // Ids first, then the JSON of the page's rows only: past the first page (see above), and when every candidate
    // is read and sorted (SQLite builds the selected JSON of each row before sorting). Not for a page seeking from
    // its own anchor in an order an index serves: it reads only its rows, as a first page does (and in the reverse
    // order, put back here), without the outer query's second look-up of each row (issue 39 point 2).
    const direct = seek !== null && query.orderBy.length === 1 && INDEXED_ORDER_FIELDS.includes(query.orderBy[0]!.field);
    const idsFirst = !direct && (window.offset > 0 || reverse || search?.drive === 'candidates');
    const shape = `${workspaceId}:${window.offset}:${window.limit}:${reverse}:${search?.drive ?? ''}${seek ? `:${seek.key}` : ''}`;
    const items = await build((json) =>
      this.run(query, `${shape}:${variant(json)}`, () => {
        const page = seek
          ? this.matching(this.db, workspaceId, { ...query, offset: 0, limit: window.limit }, { reverse }).where(seekFrom(seek.terms, seek.from))
          : this.matching(this.db, workspaceId, { ...query, ...window }, { reverse, search });
        return idsFirst
          ? this.db
              .selectFrom('contacts')
              .where('contacts.id', 'in', page.select('contacts.id'))
              .orderBy(compileOrderBy(query.orderBy, CONTACT_FIELDS, 'contacts.id'))
              .select(json.as('json'))
          : page.select(json.as('json'));
      }),
    );
    if (direct && reverse) items.reverse();
    return { items, maxResults };
  }

  /**
   * The ORDER BY terms of `matching`'s ordered read of `query` (`reverse` flipped), for seeking (deep-pages.ts):
   * a tag's rows newest first are ordered by `contact_tags` (see `matching`), any other read by `compileOrderBy`'s
   * terms, `contacts.id` last.
   */
  private sortTerms(query: OrderedParams, reverse: boolean): SortTerm[] {
    const flip = (direction: 'asc' | 'desc') => (reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction);
    if (isDefaultOrder(query.orderBy) && requiredTag(query.filter)) {
      return [
        { expression: sql.ref('contact_tags.created'), direction: flip('desc'), nullable: false },
        { expression: sql.ref('contact_tags.contact_id'), direction: flip('asc'), nullable: false },
      ];
    }
    const terms: SortTerm[] = query.orderBy.map((item) => {
      const field = CONTACT_FIELDS[item.field];
      if (!field || field.kind !== 'column') throw new Error(`field ${item.field} is not sortable`);
      return { expression: field.sortExpression ? sql.raw(field.sortExpression) : sql.ref(field.column), direction: flip(item.direction), nullable: field.nullable === true };
    });
    return [...terms, { expression: sql.ref('contacts.id'), direction: flip('asc'), nullable: false }];
  }

  /**
   * The anchor of the row at `offset` of `query`'s read in the direction `reverse`, at the data version `version`
   * (`versionKey`): the one remembered there, else found by walking from the nearest one before it (or the start)
   * and remembered (while the key has room: the page still seeks from it this time). `{ from, terms, key }` to
   * seek from, or null when no row is there (a write since the count: the page is then read with a plain OFFSET).
   */
  private async anchor(version: string, workspaceId: string, query: OrderedParams, offset: number, reverse: boolean) {
    const anchors = this.anchors!;
    const key = `${version}:${filterText(query.filter)}:${query.orderBy.map((item) => `${item.field} ${item.direction}`).join(',')}:${reverse}`;
    const terms = this.sortTerms(query, reverse);
    const near = await anchors.nearest(key, offset);
    if (near.at === offset && near.from) return { from: near.from, terms, key };
    let select = this.matching(this.db, workspaceId, { filter: query.filter, orderBy: query.orderBy, offset: offset - near.at, limit: 1 }, { reverse });
    if (near.from) select = select.where(seekFrom(terms, near.from));
    const row = await select.select(terms.map((term, i) => term.expression.as(`k${i}`))).executeTakeFirst();
    if (!row) return null;
    const from: AnchorValues = terms.map((_, i) => (row as Record<string, unknown>)[`k${i}`]);
    anchors.remember(near.anchors, offset, from);
    return { from, terms, key };
  }

  /**
   * Runs the page query `build` gives, compiled once per `params` object and `shape` (everything else the SQL
   * depends on): a repeated list request reuses its checked params object (list-params.ts), so it skips
   * building and compiling the query, which cost about a tenth of a page's CPU (issue 16 profile).
   */
  private async run(params: object, shape: string, build: () => Compilable<{ json: string }>): Promise<{ json: string }[]> {
    let compiled = this.compiledPages.get(params);
    if (!compiled) this.compiledPages.set(params, (compiled = new Map()));
    let query = compiled.get(shape);
    if (!query) {
      query = build().compile();
      if (compiled.size < 50) compiled.set(shape, query);
    }
    return (await this.db.executeQuery(query as CompiledQuery<{ json: string }>)).rows;
  }

  /** The search index's candidates for an inexact `match` of `filter` at the data version `version`, cached like counts. */
  private async candidates(version: string, workspaceId: string, filter: FilterNode, match: SearchMatch): Promise<number> {
    return this.counts.get(`${version}:candidates:${filterText(filter)}`, () => this.countCandidates(workspaceId, match));
  }

  /** `[{ name, count }]` sorted by name: contacts per tag in the workspace, cached like counts. */
  async tags(workspaceId: string): Promise<{ name: string; count: number }[]> {
    return this.tagCounts.get(await this.versionKey(workspaceId), () => this.countTags(workspaceId));
  }

  /**
   * `GET /stats`' and `GET /contacts/stats`' contact figures (docs/decisions.md section 12): `{ total, byState:
   * { pending, active }, topTags }` of the contacts matching `filter` (all without), topTags at most 20 by count
   * then name. Exact, cached per workspace, data version and filter like `count` (a write bumps the version).
   */
  async stats(workspaceId: string, filter: FilterNode | undefined): Promise<ContactFigures> {
    const key = `${await this.versionKey(workspaceId)}:stats:${filterText(filter)}`;
    return this.figures.get(key, async () => {
      const match = this.dialect.name === 'sqlite' ? memoSearchMatch(filter) : null;
      const search = match ? { match, drive: 'candidates' as const } : undefined;
      const byState = { pending: 0, active: 0 };
      let states: { state: string; n: number | string }[];
      let top: { tag: string; n: number | string }[];
      const kept = this.options.keptCounts === false ? null : keptCountOf(filter);
      if (kept?.kind === 'tag' && kept.names?.length === 1) {
        ({ states, top } = await this.tagFigures(workspaceId, kept.names[0]!));
      } else if (!filter) {
        // The kept counts (migration 0010): no scan of the workspace's contacts or tag rows.
        const [stateCounts, tagCounts] = await Promise.all([this.keptCounts(workspaceId, 'state'), this.keptCounts(workspaceId, 'tag')]);
        states = [...stateCounts].map(([state, n]) => ({ state, n }));
        top = [...tagCounts]
          .map(([tag, n]) => ({ tag, n }))
          .sort((a, b) => b.n - a.n) // stable: ties stay in name order
          .slice(0, 20);
      } else {
        // The matching contacts first, materialized (`matching`'s own plan: a tag's index rows, the search index's
        // candidates), then counted, and their tag rows looked up by contact. Written as one query, SQLite grouped the
        // workspace's million contacts by state probing each for the tag, and scanned every tag row of the workspace
        // probing the matching ids (11 and 8 s for `tags eq 'vip'` at 1,000,000 contacts, docs/benchmarks.md).
        const matched = this.matching(this.db, workspaceId, { filter, orderBy: [] }, { ordered: false, search }).select(['contacts.id', 'contacts.state']);
        // One statement, so the matching contacts are found once for both figures.
        // (Its SQL set in as text: SQLite refuses a CTE whose select the query builder puts in parentheses.)
        const inner = matched.compile();
        const { rows } = await this.db.executeQuery<{ kind: string; name: string; n: number }>(
          CompiledQuery.raw(
            `with m as materialized (${inner.sql})
              select 'state' as kind, state as name, count(*) as n from m group by state
              union all
              select * from (select 'tag' as kind, t.tag as name, count(*) as n from m cross join contact_tags t where t.contact_id = m.id
                group by t.tag order by n desc, t.tag limit 20) top`,
            [...inner.parameters],
          ),
        );
        states = rows.filter((row) => row.kind === 'state').map((row) => ({ state: row.name, n: row.n }));
        top = rows.filter((row) => row.kind === 'tag').map((row) => ({ tag: row.name, n: row.n }));
      }
      for (const row of states) if (row.state === 'pending' || row.state === 'active') byState[row.state] += Number(row.n);
      const total = states.reduce((sum, row) => sum + Number(row.n), 0);
      return { total, byState, topTags: top.map((row) => ({ name: row.tag, count: Number(row.n) })) };
    });
  }

  /**
   * Contacts created per day from `from` (`YYYY-MM-DD`, UTC) on, as `{ day: count }`: what `GET /stats` sums
   * into its 12 ISO weeks (docs/decisions.md section 12). Cached per workspace, data version and `from`.
   */
  async createdPerDay(workspaceId: string, from: string): Promise<Map<string, number>> {
    const key = `${await this.versionKey(workspaceId)}:days:${from}`;
    return this.days.get(key, async () => {
      return this.keptCounts(workspaceId, 'day', undefined, from);
    });
  }

  /**
   * The ids of the workspace's contacts matching `filter`, or of `ids` that are in the workspace (unknown ones
   * left out), in one read: what `POST /contacts/tags` then edits in chunks (docs/decisions.md section 12).
   */
  async matchingIds(workspaceId: string, target: { filter?: FilterNode; ids?: readonly string[] }): Promise<string[]> {
    if (target.ids) return [...(await this.idsInWorkspace(this.db, workspaceId, [...new Set(target.ids)]))];
    const { rows } = await this.db.executeQuery(this.matchingIdsQuery(workspaceId, target.filter));
    return rows.map((row) => row.id);
  }

  /**
   * Which of `ids` are contacts of `workspaceId`, in `db` (a transaction or the store's database); with `lock`, under
   * their row locks (PostgreSQL's `for update`). Looked up by id alone and the workspace checked here: with
   * `workspace_id = ?` beside `id in (...)` SQLite's planner, which has no statistics, reads the workspace's whole name
   * index instead (about 57 ms a contact at 1,000,000, docs/benchmarks.md "A run of creates reverted a chunk at a time").
   */
  async idsInWorkspace(db: Kysely<Database>, workspaceId: string, ids: readonly string[], lock = false): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const query = db.selectFrom('contacts').select(['id', 'workspace_id']).where('id', 'in', ids);
    const rows = await (lock ? this.dialect.forUpdate(query) : query).execute();
    return new Set(rows.filter((row) => row.workspace_id === workspaceId).map((row) => row.id));
  }

  /**
   * The query of the ids of the workspace's contacts matching `filter` (all without), for a caller that streams them
   * (`ServiceDatabase.streamRows`: on SQLite a read of 100,000 ids is a second or more of the event loop held at once,
   * every other request waiting; `POST /contacts/tags`, docs/decisions.md section 12).
   */
  matchingIdsQuery(workspaceId: string, filter: FilterNode | undefined): CompiledQuery<{ id: string }> {
    // SQLite, a tag alone: its rows' contact ids, which carry the contact's workspace, without a look-up of each
    // contact (100,036 ids of `tags eq 'vip'` at 1,000,000 contacts: 0.55 s warm, 1.6 s cold through the join; 0.12 s
    // now), in the order of the ids, so that `patchTagsMany`'s chunks then write neighbouring pages of the indexes keyed
    // by contact id (its tag rows, its entries' `activity_ws_resource`): 13.2 against 14.1 to 14.3 s for the 100,036
    // through the service, sorted in JavaScript (which held the event loop 138 ms); SQLite sorts them in 46 ms. Not on
    // PostgreSQL, where it measured no better: 40.3 and 43.9 s (the other writer 656 and 412 ms) against 35.3 and
    // 40.6 s (193 and 296 ms) through the join (docs/benchmarks.md, "`POST /contacts/tags` over a tag").
    const byTag = this.dialect.name === 'sqlite' ? requiredTag(filter) : null;
    if (byTag && !byTag.rest) return this.db.selectFrom('contact_tags').select('contact_id as id').where('workspace_id', '=', workspaceId).where('tag', '=', byTag.tag).orderBy('contact_id').compile();
    const match = this.dialect.name === 'sqlite' ? memoSearchMatch(filter) : null;
    const search = match ? { match, drive: 'candidates' as const } : undefined;
    return this.matching(this.db, workspaceId, { filter, orderBy: [] }, { ordered: false, search }).select('contacts.id').compile();
  }

  /** `<workspaceId>:<contacts_version>`: changes with every contact write in the workspace. */
  private async versionKey(workspaceId: string): Promise<string> {
    const [row] = (await this.db.executeQuery(this.versionQuery(workspaceId))).rows;
    return `${workspaceId}:${row?.contacts_version ?? 0}`;
  }

  private async countTags(workspaceId: string) {
    return [...(await this.keptCounts(workspaceId, 'tag'))].map(([name, count]) => ({ name, count }));
  }

  /**
   * The kept counts (migration 0010, issue 39 point 2) of `kind` in the workspace, as `name -> n` in the database's
   * (binary) order of names (n > 0; a name with none is absent), only for `names` and from `from` on when given. One indexed read of a table of a few rows per state, tag and day.
   */
  private async keptCounts(workspaceId: string, kind: 'state' | 'tag' | 'day', names?: readonly string[], from?: string): Promise<Map<string, number>> {
    // A tag's contacts are kept per state (migration 0011): its rows of every TAG_KINDS added up.
    let query = this.db
      .selectFrom('contact_counts')
      .select((eb) => ['name', eb.fn.sum<number | string>('n').as('n')])
      .where('workspace_id', '=', workspaceId)
      .where('kind', 'in', kind === 'tag' ? TAG_KINDS : [kind])
      .groupBy('name');
    if (names) query = query.where('name', 'in', names);
    if (from !== undefined) query = query.where('name', '>=', from);
    const rows = names && !names.length ? [] : await query.orderBy('name').execute();
    return new Map(rows.map((row) => [row.name, Number(row.n)]));
  }

  /**
   * `GET /contacts/stats`' figures of the contacts carrying `tag` (the filter `tags eq 'tag'`, issue 35): their states
   * from the kept counts (migration 0011), the tags they carry from their tag rows alone (an index-only self-join of
   * contact_tags: no contact row read), top 20 by count then name (docs/decisions.md section 12).
   */
  private async tagFigures(workspaceId: string, tag: string): Promise<{ states: { state: string; n: number }[]; top: { tag: string; n: number | string }[] }> {
    // SQLite looks the tag rows up by contact in the order of the contacts' ids, sorted first: neighbouring look-ups
    // then read neighbouring index pages (315 against 513 ms, medians of 6 alternated runs, at 1,000,000 contacts
    // and 100,036 carrying the tag; docs/benchmarks.md, "A tag filter's figures"). PostgreSQL plans its own join.
    const topTags =
      this.dialect.name === 'sqlite'
        ? sql<{ tag: string; n: number }>`with m as materialized (select contact_id from contact_tags where workspace_id = ${workspaceId} and tag = ${tag} order by contact_id)
            select t2.tag as tag, count(*) as n from m join contact_tags t2 on t2.contact_id = m.contact_id group by t2.tag order by n desc, t2.tag limit 20`
            .execute(this.db)
            .then((result) => result.rows)
        : this.db
            .selectFrom('contact_tags as t1')
            .innerJoin('contact_tags as t2', 't2.contact_id', 't1.contact_id')
            .select((eb) => ['t2.tag as tag', eb.fn.countAll<number | string>().as('n')])
            .where('t1.workspace_id', '=', workspaceId)
            .where('t1.tag', '=', tag)
            .groupBy('t2.tag')
            .orderBy('n', 'desc')
            .orderBy('t2.tag')
            .limit(20)
            .execute();
    const [kept, top] = await Promise.all([
      this.db.selectFrom('contact_counts').select(['kind', 'n']).where('workspace_id', '=', workspaceId).where('kind', 'in', TAG_KINDS).where('name', '=', tag).execute(),
      topTags,
    ]);
    return { states: kept.map((row) => ({ state: row.kind.slice('tag:'.length), n: Number(row.n) })), top };
  }

  /** Creates a contact; 409 when its email (case-insensitive) or phone is taken in the workspace. */
  async create(workspaceId: string, input: ContactCreateParsed, write: WriteContext = {}): Promise<ContactRow> {
    const now = new Date().toISOString();
    const tags = input.tags ?? [];
    const row = newContactRow(workspaceId, input, now);
    const entry = write.actor ? createdEntry(row, input) : undefined;
    if (this.dialect.name === 'sqlite') return this.createInBatch({ row, tags, entry, write });
    try {
      await this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        await insertContact(trx, row, tags);
        if (entry) await recordActivity(trx, workspaceId, write.actor, [entry], now);
        await bumpVersion(trx, workspaceId);
      });
    } catch (error) {
      if (this.dialect.isUniqueViolation(error)) throw duplicateError(row, String((error as Error).message));
      throw error;
    }
    return row;
  }

  /**
   * `POST /contacts/batch` (docs/decisions.md section 12): creates `inputs` in order, each as `create` would, and
   * answers each one's contact or refusal (the 409 `create` would throw), in order. Unexpected errors throw.
   *
   * Written in chunks of one transaction each (`TimedChunks`, about 50 ms, so another writer waits for one chunk,
   * never the whole batch), each chunk in a few statements on both databases: one read of the chunk's emails and
   * phones already taken, then the accepted contacts, their tag rows and their activity entries (one `create` entry
   * each, under the actor's `Activity-Batch`) as multi-row inserts, and one `contacts_version` bump. A later item sees
   * an earlier one: the keys accepted so far in the chunk (and in the chunks committed before it) count as taken, so a
   * repeated email is a 409 for the later item, as one request after the other. A chunk that the database refuses
   * anyway (a create of another request that took the same email meanwhile, outside the workspace lock) is rolled
   * back and written again with a savepoint per item (`writeCreates`), so only the refused item fails; no savepoint
   * otherwise (on SQLite each release flushes the search index's pending terms; on PostgreSQL each is a round trip).
   */
  async createMany(workspaceId: string, inputs: readonly ContactCreateParsed[], write: WriteContext = {}): Promise<(ContactRow | HttpError)[]> {
    const results: (ContactRow | HttpError)[] = [];
    const chunks = new TimedChunks(100);
    for (let start = 0; start < inputs.length; ) {
      const now = new Date().toISOString();
      const creates = inputs.slice(start, start + chunks.next()).map((input) => {
        const row = newContactRow(workspaceId, input, now);
        return { row, tags: input.tags ?? [], entry: write.actor ? createdEntry(row, input) : undefined, write };
      });
      const began = performance.now();
      let refusals: (unknown | null)[];
      try {
        refusals = await this.writeCreateChunk(workspaceId, creates, write, now);
      } catch (error) {
        if (!(error instanceof RetryWithSavepoints)) throw error;
        refusals = await this.writeCreates(creates, true);
      }
      chunks.record(creates.length, performance.now() - began);
      creates.forEach(({ row }, index) => {
        const refusal = refusals[index];
        if (refusal === null || refusal === undefined) results.push(row);
        else if (refusal instanceof HttpError) results.push(refusal);
        else throw refusal;
      });
      start += creates.length;
      if (start < inputs.length) await yieldToOthers();
    }
    return results;
  }

  /**
   * One chunk of `createMany` in one transaction, without savepoints: the refusals (409) found by reading the taken
   * emails and phones, then every accepted create written in multi-row statements. Throws RetryWithSavepoints when the
   * database refuses one anyway (the transaction is then rolled back whole).
   */
  private async writeCreateChunk(workspaceId: string, creates: readonly Omit<PendingCreate, 'resolve' | 'reject'>[], write: WriteContext, now: string): Promise<(HttpError | null)[]> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        const takenEmails = await takenValues(trx, workspaceId, 'email_key', creates.map(({ row }) => row.email_key));
        const takenPhones = await takenValues(trx, workspaceId, 'phone', creates.map(({ row }) => row.phone));
        const refusals: (HttpError | null)[] = [];
        const accepted: Omit<PendingCreate, 'resolve' | 'reject'>[] = [];
        for (const create of creates) {
          const { row } = create;
          // assertUnique's refusal: the email first, then the phone.
          if (row.email_key !== null && takenEmails.has(row.email_key)) refusals.push(takenConflict(row, 'email', takenEmails.get(row.email_key)));
          else if (row.phone !== null && takenPhones.has(row.phone)) refusals.push(takenConflict(row, 'phone', takenPhones.get(row.phone)));
          else {
            refusals.push(null);
            accepted.push(create);
            if (row.email_key !== null) takenEmails.set(row.email_key, row.id);
            if (row.phone !== null) takenPhones.set(row.phone, row.id);
          }
        }
        if (!accepted.length) return refusals;
        for (let i = 0; i < accepted.length; i += INSERT_ROWS) {
          await trx
            .insertInto('contacts')
            .values(accepted.slice(i, i + INSERT_ROWS).map(({ row }) => row))
            .execute();
        }
        const tagRows = accepted.flatMap(({ row, tags }) => tags.map((tag) => ({ workspace_id: workspaceId, contact_id: row.id, tag, created: row.created })));
        for (let i = 0; i < tagRows.length; i += INSERT_ROWS * 4) await trx.insertInto('contact_tags').values(tagRows.slice(i, i + INSERT_ROWS * 4)).execute();
        const entries = accepted.flatMap(({ entry }) => (entry ? [entry] : []));
        for (let i = 0; i < entries.length; i += INSERT_ROWS) await recordActivity(trx, workspaceId, write.actor, entries.slice(i, i + INSERT_ROWS), now);
        await bumpVersion(trx, workspaceId);
        return refusals;
      });
    } catch (error) {
      if (this.dialect.isUniqueViolation(error)) throw new RetryWithSavepoints();
      throw error;
    }
  }

  /** Creates waiting for the next batch (SQLite: `createInBatch`). */
  private readonly pendingCreates: PendingCreate[] = [];
  private createsScheduled = false;

  /**
   * SQLite's group commit (issue 20 point 6): creates that arrive together (before the event loop's next check
   * phase; an import job keeps 16 in flight) share one transaction, each in a savepoint of its own, so a refused
   * create (409, or any error) is rolled back alone and answered alone, and the batch bumps `contacts_version`
   * once. Each create resolves only after the batch has committed. On a database of a million contacts a commit
   * costs about 1.4 ms (the search index's segment and 30 pages written to the WAL, against 0.4 ms for the rows
   * themselves), so one commit per batch instead of per contact is most of a create's time saved. A create sees
   * the earlier creates of its batch: two with one email are one 201 and one 409, as one after the other.
   */
  private createInBatch(create: Omit<PendingCreate, 'resolve' | 'reject'>): Promise<ContactRow> {
    return new Promise((resolve, reject) => {
      this.pendingCreates.push({ ...create, resolve, reject });
      this.scheduleCreates();
    });
  }

  private scheduleCreates() {
    if (this.createsScheduled || !this.pendingCreates.length) return;
    this.createsScheduled = true;
    setImmediate(() => {
      this.createsScheduled = false;
      void this.flushCreates(this.pendingCreates.splice(0, MAX_CREATE_BATCH)).finally(() => this.scheduleCreates());
    });
  }

  private async flushCreates(batch: PendingCreate[]): Promise<void> {
    let refusals: (unknown | null)[];
    try {
      // Without savepoints first: on SQLite each savepoint's release flushes the search index's pending terms (FTS5),
      // 0.4 ms a create, and a refused create is rare (an import looks its contacts up first). When one is refused
      // the batch is rolled back whole and written again with a savepoint a create, so it is refused alone.
      try {
        refusals = await this.writeCreates(batch, false);
      } catch (error) {
        if (!(error instanceof RetryWithSavepoints)) throw error;
        refusals = await this.writeCreates(batch, true);
      }
    } catch (error) {
      for (const create of batch) create.reject(error);
      return;
    }
    batch.forEach((create, index) => {
      const refusal = refusals[index];
      if (refusal) create.reject(refusal);
      else create.resolve(create.row);
    });
  }

  /**
   * Writes `batch` in one transaction; resolves to each create's refusal (null when written). Without `savepoints`
   * the first refusal throws RetryWithSavepoints, rolling the whole transaction back.
   */
  private async writeCreates(batch: readonly Omit<PendingCreate, 'resolve' | 'reject'>[], savepoints: boolean): Promise<(unknown | null)[]> {
    const refusals: (unknown | null)[] = [];
    await this.db.transaction().execute(async (trx) => {
      // PostgreSQL (createMany's second pass): the workspace's lock first, as every write takes it (lockWorkspace).
      for (const workspaceId of new Set(batch.map(({ row }) => row.workspace_id))) await lockWorkspace(trx, workspaceId);
      const workspaces = new Set<string>();
      for (const { row, tags, entry, write } of batch) {
        if (savepoints) await sql`savepoint contact_create`.execute(trx);
        try {
          await insertContact(trx, row, tags);
          if (entry) await recordActivity(trx, row.workspace_id, write.actor, [entry], row.created);
          if (savepoints) await sql`release contact_create`.execute(trx);
        } catch (error) {
          // Without a savepoint the create cannot be rolled back alone: the batch is written again with them.
          if (!savepoints) throw new RetryWithSavepoints();
          await sql`rollback to contact_create`.execute(trx);
          await sql`release contact_create`.execute(trx);
          refusals.push(this.dialect.isUniqueViolation(error) ? duplicateError(row, String((error as Error).message)) : error);
          continue;
        }
        workspaces.add(row.workspace_id);
        refusals.push(null);
      }
      for (const workspaceId of workspaces) await bumpVersion(trx, workspaceId);
    });
    return refusals;
  }

  /**
   * Adds and removes tags on one contact (`PATCH /contacts/{id}/tags`); 404 when not in the workspace. Answers
   * whether the tags changed (false: nothing written, e.g. adding a present tag; `POST /contacts/tags` counts it).
   *
   * One source of truth (issue 12 point 2): the contact's `tags` column, the ordered list that pages and exports
   * read, is read and written only under the contact's row lock (`FOR UPDATE` on PostgreSQL; SQLite's write
   * lock, `begin immediate`), so concurrent edits apply one after the other and none is lost. `contact_tags`
   * is its derived copy, the index that `tags eq` and the tag counts read, brought to the same set in the same
   * transaction. Listed tags stay a plain column: deriving them from the rows instead (an aggregate per listed
   * contact) would cost every list page and export a subquery per row (docs/benchmarks.md, "Tags under
   * concurrency").
   */
  async patchTags(workspaceId: string, contactId: string, add: readonly string[], remove: readonly string[], write: WriteContext & { batchId?: string } = {}): Promise<boolean> {
    const { added, removed } = await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      return this.patchTagsIn(trx, workspaceId, contactId, add, remove, write);
    });
    return added.length > 0 || removed.length > 0;
  }

  /**
   * `POST /contacts/tags` (docs/decisions.md section 12): adds `add` and removes `remove` on each contact of `ids`
   * (the workspace's, read by `matchingIds`), as `patchTags` would on each, and answers `matched` (those still in the
   * workspace) and `changed` (those whose tags changed; a contact the edit would take past 100 tags is matched and
   * left unchanged, as the tags PATCH refuses it). Each changed contact gets its `tags` activity entry under
   * `write.batchId`.
   *
   * Written in chunks of one transaction each, sized by time (`TimedChunks`, about 50 ms), so another writer waits for
   * at most one chunk (issue 35: at most 200 ms), with the event loop served between chunks. A chunk is a few
   * statements whatever its size: the contacts read under their row locks (`for update` on PostgreSQL, after the
   * workspace's lock), then the tag rows removed and added, the `tags` column of the changed contacts set in one
   * update, their activity entries in one insert and one `contacts_version` bump; the same source of truth as
   * `patchTagsIn` (the `tags` column, with `contact_tags` its derived copy).
   */
  async patchTagsMany(
    workspaceId: string,
    ids: readonly string[],
    add: readonly string[],
    remove: readonly string[],
    write: WriteContext & { batchId?: string } = {},
  ): Promise<{ matched: number; changed: number }> {
    let matched = 0;
    let changed = 0;
    const chunks = new TimedChunks(100);
    for (let start = 0; start < ids.length; ) {
      const chunk = ids.slice(start, start + chunks.next());
      const began = performance.now();
      const counts = await this.db.transaction().execute((trx) => this.patchTagsChunk(trx, workspaceId, chunk, add, remove, write));
      chunks.record(chunk.length, performance.now() - began);
      matched += counts.matched;
      changed += counts.changed;
      start += chunk.length;
      if (start < ids.length) await this.dialect.betweenChunks();
    }
    return { matched, changed };
  }

  /** One chunk of `patchTagsMany` in the caller's transaction. */
  private async patchTagsChunk(
    trx: Transaction<Database>,
    workspaceId: string,
    ids: readonly string[],
    add: readonly string[],
    remove: readonly string[],
    write: WriteContext & { batchId?: string },
  ): Promise<{ matched: number; changed: number }> {
    await lockWorkspace(trx, workspaceId);
    const found = new Map<string, { tags: string; created: string }>();
    for (let i = 0; i < ids.length; i += INSERT_ROWS) {
      // By id alone, the workspace checked here: with `workspace_id = ?` in the query SQLite's planner walks one of the
      // workspace's indexes (every contact of it) instead of looking the ids up by primary key.
      const rows = await this.dialect.forUpdate(trx.selectFrom('contacts').select(['id', 'workspace_id', 'tags', 'created']).where('id', 'in', ids.slice(i, i + INSERT_ROWS))).execute();
      for (const row of rows) if (row.workspace_id === workspaceId) found.set(row.id, row);
    }
    const edits: { id: string; next: string[]; added: string[]; removed: string[]; created: string }[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      const row = found.get(id);
      if (!row || seen.has(id)) continue;
      seen.add(id);
      // As patchTagsIn, but a contact the edit would take past the limit is left unchanged rather than refused.
      const edit = tagEdit(await currentTags(trx, id, row.tags), add, remove);
      if (!edit || edit.next.length > MAX_TAGS) continue;
      edits.push({ id, ...edit, created: row.created });
    }
    if (edits.length) {
      // Tag rows removed, grouped by the tags each contact loses (with one `remove` list, mostly one group).
      const byRemoved = new Map<string, { tags: string[]; ids: string[] }>();
      for (const edit of edits) {
        if (!edit.removed.length) continue;
        const key = JSON.stringify(edit.removed);
        const group = byRemoved.get(key) ?? { tags: edit.removed, ids: [] };
        group.ids.push(edit.id);
        byRemoved.set(key, group);
      }
      for (const group of byRemoved.values()) {
        for (let i = 0; i < group.ids.length; i += INSERT_ROWS) {
          await trx.deleteFrom('contact_tags').where('contact_id', 'in', group.ids.slice(i, i + INSERT_ROWS)).where('tag', 'in', group.tags).execute();
        }
      }
      const added = edits.flatMap((edit) => edit.added.map((tag) => ({ workspace_id: workspaceId, contact_id: edit.id, tag, created: edit.created })));
      for (let i = 0; i < added.length; i += INSERT_ROWS * 4) {
        await trx
          .insertInto('contact_tags')
          .values(added.slice(i, i + INSERT_ROWS * 4))
          .onConflict((conflict) => conflict.columns(['contact_id', 'tag']).doNothing())
          .execute();
      }
      const updated = new Date().toISOString();
      for (let i = 0; i < edits.length; i += INSERT_ROWS) {
        // One statement sets each contact's own list: `with v(id, tags) as (values ...) update ... from v`.
        const values = sql.join(edits.slice(i, i + INSERT_ROWS).map((edit) => sql`(${edit.id}, ${JSON.stringify(edit.next)})`));
        await sql`with v(id, tags) as (values ${values}) update contacts set tags = v.tags, updated = ${updated} from v where contacts.id = v.id`.execute(trx);
      }
      await bumpVersion(trx, workspaceId);
      const entries: ActivityChange[] = edits.map((edit) => ({ resource: 'contact', resourceId: edit.id, action: 'tags', changes: { tags: [edit.added, edit.removed] }, batchId: write.batchId }));
      for (let i = 0; i < entries.length; i += INSERT_ROWS) await recordActivity(trx, workspaceId, write.actor, entries.slice(i, i + INSERT_ROWS));
    }
    return { matched: seen.size, changed: edits.length };
  }

  /**
   * `patchTags` inside the caller's transaction; records a `tags` entry (or `revertOf`'s `revert`) when tags
   * changed. Returns the tags added and removed (both empty when nothing changed).
   */
  async patchTagsIn(
    trx: Transaction<Database>,
    workspaceId: string,
    contactId: string,
    add: readonly string[],
    remove: readonly string[],
    write: WriteContext & { revertOf?: string; batchId?: string } = {},
  ): Promise<{ added: string[]; removed: string[] }> {
    {
      const row = await findInWorkspace(trx, workspaceId, contactId, this.dialect);
      const edit = tagEdit(await currentTags(trx, contactId, row.tags), add, remove);
      if (!edit) return { added: [], removed: [] };
      if (edit.next.length > MAX_TAGS) throw badRequest('a contact has at most 100 tags');
      const { next, added, removed } = edit;
      if (added.length) {
        await trx
          .insertInto('contact_tags')
          .values(added.map((tag) => ({ workspace_id: workspaceId, contact_id: contactId, tag, created: row.created })))
          .onConflict((conflict) => conflict.columns(['contact_id', 'tag']).doNothing())
          .execute();
      }
      if (removed.length) await trx.deleteFrom('contact_tags').where('contact_id', '=', contactId).where('tag', 'in', removed).execute();
      await trx.updateTable('contacts').set({ tags: JSON.stringify(next), updated: new Date().toISOString() }).where('id', '=', contactId).execute();
      await bumpVersion(trx, workspaceId);
      await recordActivity(trx, workspaceId, write.actor, [
        { resource: 'contact', resourceId: contactId, action: write.revertOf ? 'revert' : 'tags', changes: { tags: [added, removed] }, revertOf: write.revertOf, batchId: write.batchId },
      ]);
      return { added, removed };
    }
  }

  /**
   * Updates notification settings and activates the contact (endpoint 6); 400 for a channel it lacks. Sets only
   * the channels given, under the contact's row lock, so concurrent updates of different channels all hold.
   */
  async patchNotificationSettings(workspaceId: string, contactId: string, patch: NotificationSettingsPatch, write: WriteContext = {}): Promise<ContactRow> {
    return this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      const row = await findInWorkspace(trx, workspaceId, contactId, this.dialect);
      if (patch.email === true && !row.email) throw badRequest('email cannot be turned on for a contact without an email');
      if (patch.sms === true && !row.phone) throw badRequest('sms cannot be turned on for a contact without a phone');
      const changes = {
        ...(patch.email === undefined ? {} : { notify_email: patch.email ? 1 : 0 }),
        ...(patch.sms === undefined ? {} : { notify_sms: patch.sms ? 1 : 0 }),
        state: 'active',
        updated: new Date().toISOString(),
      };
      await trx.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
      await bumpVersion(trx, workspaceId);
      const next = { ...row, ...changes };
      await recordActivity(trx, workspaceId, write.actor, consentChanges(row, next, 'notifications'));
      return next;
    });
  }

  /**
   * Puts back the consent an entry recorded as `before` (a `notifications` entry reverted, docs/decisions.md section
   * 11): the notification settings and the state, in the caller's transaction, recorded as a `revert` of `revertOf`.
   * 404 when the contact is gone.
   */
  async restoreConsentIn(trx: Transaction<Database>, workspaceId: string, contactId: string, before: { state?: unknown; notificationSettings?: unknown }, write: WriteContext & { revertOf: string; batchId: string }): Promise<void> {
    const row = await findInWorkspace(trx, workspaceId, contactId, this.dialect);
    const settings = (before.notificationSettings ?? {}) as { email?: boolean; sms?: boolean };
    const changes: Partial<ContactRow> = { updated: new Date().toISOString() };
    if (typeof settings.email === 'boolean') changes.notify_email = settings.email ? 1 : 0;
    if (typeof settings.sms === 'boolean') changes.notify_sms = settings.sms ? 1 : 0;
    if (before.state === 'pending' || before.state === 'active') changes.state = before.state;
    await trx.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
    await bumpVersion(trx, workspaceId);
    await recordActivity(trx, workspaceId, write.actor, consentChanges(row, { ...row, ...changes }, 'revert').map((entry) => ({ ...entry, revertOf: write.revertOf, batchId: write.batchId })));
  }

  /**
   * `PATCH /contacts/{id}` (docs/decisions.md section 10, `contact-update`): sets the fields given, `null` clearing one,
   * under the contact's row lock; 404 outside the workspace; 409 when another contact of the workspace holds the
   * new email (case-insensitive) or phone. Clearing the email turns email notifications off, clearing the phone
   * SMS ones (a channel needs its address, docs/decisions.md section 7). `updated` becomes now. Returns the contact as
   * `GET /contacts` lists it, as JSON text.
   */
  async update(workspaceId: string, contactId: string, patch: ContactPatchParsed, write: WriteContext = {}): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      return this.updateIn(trx, workspaceId, contactId, patch, write);
    });
  }

  /**
   * `update` inside the caller's transaction; records an `update` entry (or `revertOf`'s `revert`) of the fields
   * whose value changed, with the notification settings a cleared address turned off.
   */
  async updateIn(trx: Transaction<Database>, workspaceId: string, contactId: string, patch: ContactPatchParsed, write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<string> {
    try {
      {
        const row = await findInWorkspace(trx, workspaceId, contactId, this.dialect);
        const changes: Partial<ContactRow> = {};
        for (const [field, value] of Object.entries(patch) as [keyof ContactPatchParsed, unknown][]) {
          if (value === undefined) continue;
          const { column, json } = PATCH_COLUMNS[field];
          (changes as Record<string, unknown>)[column] = value === null ? null : json ? JSON.stringify(value) : value;
        }
        if ('email' in changes) {
          changes.email_key = changes.email ? changes.email.toLowerCase() : null;
          if (!changes.email) changes.notify_email = 0;
        }
        if ('phone' in changes && !changes.phone) changes.notify_sms = 0;
        const next = { ...row, ...changes };
        const emailChanged = changes.email_key ? changes.email_key !== row.email_key : false;
        const phoneChanged = changes.phone ? changes.phone !== row.phone : false;
        if (emailChanged || phoneChanged) {
          await assertUnique(trx, workspaceId, { ...next, email_key: emailChanged ? next.email_key : null, phone: phoneChanged ? next.phone : null }, contactId);
        }
        changes.updated = new Date().toISOString();
        await sql`savepoint contact_update`.execute(trx);
        try {
          await trx.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
          await sql`release contact_update`.execute(trx);
        } catch (error) {
          await sql`rollback to contact_update`.execute(trx);
          await sql`release contact_update`.execute(trx);
          throw error;
        }
        await bumpVersion(trx, workspaceId);
        const entry: Changes = {};
        for (const [field, { column, json }] of Object.entries(PATCH_COLUMNS)) {
          if (!(column in changes) || row[column] === next[column]) continue;
          const read = (value: unknown) => (value === null || !json ? value : JSON.parse(value as string));
          entry[field] = [read(row[column]), read(next[column])];
        }
        const consent = consentChanges(row, next, 'update')[0]?.changes;
        if (consent) Object.assign(entry, consent);
        if (Object.keys(entry).length) {
          await recordActivity(trx, workspaceId, write.actor, [
            { resource: 'contact', resourceId: contactId, action: write.revertOf ? 'revert' : 'update', changes: entry, revertOf: write.revertOf, batchId: write.batchId },
          ]);
        }
        const listed = await trx.selectFrom('contacts').where('id', '=', contactId).select(this.safeJson.as('json')).executeTakeFirstOrThrow();
        return listed.json;
      }
    } catch (error) {
      if (!this.dialect.isUniqueViolation(error)) throw error;
      const detail = String((error as Error).message);
      throw takenConflict(patch, detail.includes('phone') || !patch.email ? 'phone' : 'email');
    }
  }

  /**
   * `DELETE /contacts/{id}` (docs/decisions.md section 10, `contact-erasure`): erases the person, in one transaction: the
   * contact's row (its search-index rows with it: the triggers of migration 0006), its tag rows, its id in the
   * recipients of the workspace's posts (a private post stays private), and every kept Idempotency-Key answer that
   * holds its id (db/idempotency.ts). 404 `Contact not found` outside the workspace. On SQLite the connection runs
   * with `secure_delete` (erased cells and freed pages are overwritten with zeros, connection.ts) and the search
   * index with FTS5's `secure-delete` (migration 0007); after the commit `checkpoint` writes the zeroed pages into
   * the database file and empties the WAL, so the bytes are gone from both files before this resolves.
   * PostgreSQL: gone from every query at once, from the files at the next vacuum (docs/deploy.md).
   */
  async erase(workspaceId: string, contactId: string, write: WriteContext = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      await this.eraseIn(trx, workspaceId, contactId, write);
    });
    await this.checkpoint();
  }

  /**
   * `erase` inside the caller's transaction, without the checkpoint (the caller runs `checkpoint` after its commit):
   * also empties the `changes` of every activity entry about the person and records an `erase` entry (or, for a
   * reverted create, `revertOf`'s `revert`) holding no value of it (docs/decisions.md section 11). 404 `Contact not
   * found` outside the workspace.
   */
  async eraseIn(
    trx: Transaction<Database>,
    workspaceId: string,
    contactId: string,
    write: WriteContext & { revertOf?: string; batchId?: string; erasedIds?: string[] } = {},
  ): Promise<void> {
    await this.eraseManyIn(trx, workspaceId, [{ id: contactId, revertOf: write.revertOf }], write);
  }

  /**
   * `eraseIn` for several contacts at once (a reverted import, db/revert.ts): each of `targets` erased as `eraseIn`
   * erases one, with its own activity entry (`revert` of its `revertOf`, or `erase`), by one statement a table for
   * all of them rather than one a contact. 404 `Contact not found` when any of them is not in the workspace (nothing
   * is written then). With `write.erasedIds` the ids are collected there for the caller's one pass over the kept
   * Idempotency-Key answers (`IdempotencyStore.eraseHoldingAny`); without it each is looked for here.
   */
  async eraseManyIn(
    trx: Transaction<Database>,
    workspaceId: string,
    targets: readonly { id: string; revertOf?: string }[],
    write: WriteContext & { batchId?: string; erasedIds?: string[] } = {},
  ): Promise<void> {
    const ids = [...new Set(targets.map((target) => target.id))];
    if (!ids.length) return;
    if ((await this.idsInWorkspace(trx, workspaceId, ids, true)).size < ids.length) throw notFound('Contact not found');
    await trx.deleteFrom('contact_tags').where('contact_id', 'in', ids).execute();
    const holds = (id: string) => (this.dialect.name === 'postgres' ? sql<SqlBool>`strpos(recipients, ${id}) > 0` : sql<SqlBool>`instr(recipients, ${id}) > 0`);
    const posts = await this.dialect
      .forUpdate(trx.selectFrom('posts').select(['id', 'recipients']).where('workspace_id', '=', workspaceId).where('recipients', 'is not', null).where((eb) => eb.or(ids.map(holds))))
      .execute();
    const erased = new Set(ids);
    for (const post of posts) {
      const recipients = recipientsWithout(post.recipients as string, erased);
      if (recipients !== null) await trx.updateTable('posts').set({ recipients }).where('id', '=', post.id).execute();
    }
    if (write.erasedIds) write.erasedIds.push(...ids);
    else for (const id of ids) await IdempotencyStore.eraseHolding(trx, this.dialect, workspaceId, id);
    await trx.deleteFrom('contacts').where('id', 'in', ids).execute();
    await bumpVersion(trx, workspaceId);
    await eraseHistory(trx, workspaceId, ids);
    await recordActivity(
      trx,
      workspaceId,
      write.actor,
      targets.map((target) => ({ resource: 'contact', resourceId: target.id, action: target.revertOf ? 'revert' : 'erase', changes: null, revertOf: target.revertOf, batchId: write.batchId })),
    );
  }

  /**
   * SQLite: writes every committed page into the database file and truncates the WAL to zero bytes
   * (`wal_checkpoint(TRUNCATE)`, waiting up to the busy timeout for readers of older snapshots). Nothing on
   * PostgreSQL. Resolves to whether the WAL was emptied (false when a reader kept it busy).
   *
   * A checkpoint that another connection is running (the checkpoint worker of this or another process,
   * server/db/checkpointer.ts) makes SQLite answer busy at once, without its busy handler: the truncation is then
   * tried again every 5 ms for up to CHECKPOINT_RETRY_MS, so an erasure does not leave the WAL's stale frames (the
   * person's old values among them) because a passive checkpoint happened to be under way.
   */
  async checkpoint(): Promise<boolean> {
    if (this.dialect.name !== 'sqlite') return true;
    const started = performance.now();
    for (;;) {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(this.db);
      if (rows[0]?.busy === 0) return true;
      if (performance.now() - started >= CHECKPOINT_RETRY_MS) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Thrown out of a group commit's first pass when a create is refused: the batch is written again with savepoints. */
class RetryWithSavepoints extends Error {}

/** Where each field of a correction (`PATCH /contacts/{id}`) is stored; JSON fields are stored as JSON text. */
const PATCH_COLUMNS: Record<keyof ContactPatchParsed, { column: keyof ContactRow; json?: true }> = {
  name: { column: 'name' },
  phone: { column: 'phone' },
  email: { column: 'email' },
  source: { column: 'source' },
  systemSource: { column: 'system_source' },
  statusTags: { column: 'status_tags', json: true },
  follows: { column: 'follows', json: true },
  bio: { column: 'bio' },
  image: { column: 'image' },
  address: { column: 'address' },
  city: { column: 'city' },
  postalCode: { column: 'postal_code' },
  region: { column: 'region' },
  customMessage: { column: 'custom_message' },
};

/**
 * The consent a write changed (docs/decisions.md section 11: the contact's consent record), as an entry of `action`:
 * `state` and `notificationSettings` `[before, after]` where they differ; none when neither changed.
 */
function consentChanges(before: ContactRow, after: ContactRow, action: 'notifications' | 'update' | 'revert'): ActivityChange[] {
  const changes: Changes = {};
  if (before.state !== after.state) changes.state = [before.state, after.state];
  if (before.notify_email !== after.notify_email || before.notify_sms !== after.notify_sms) {
    changes.notificationSettings = [
      { email: before.notify_email === 1, sms: before.notify_sms === 1 },
      { email: after.notify_email === 1, sms: after.notify_sms === 1 },
    ];
  }
  return Object.keys(changes).length ? [{ resource: 'contact', resourceId: before.id, action, changes }] : [];
}

/** `recipients` (stored JSON: a list of ids, or `{ tags?, contactIds? }`) without the ids of `erased`; null when it holds none. */
export function recipientsWithout(stored: string, erased: ReadonlySet<string>): string | null {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  const holds = (ids: unknown[]) => ids.some((id) => erased.has(id as string));
  if (Array.isArray(value)) return holds(value) ? JSON.stringify(value.filter((id) => !erased.has(id))) : null;
  const ids = value && typeof value === 'object' ? (value as { contactIds?: unknown }).contactIds : undefined;
  if (!Array.isArray(ids) || !holds(ids)) return null;
  return JSON.stringify({ ...(value as object), contactIds: ids.filter((id) => !erased.has(id)) });
}

/** Channels on by default: email when there is an email; sms when there is a phone and email is not preferred. */
function notificationDefaults(input: ContactCreateParsed): { email: boolean; sms: boolean } {
  const choice = input.notificationSettings;
  if (choice === undefined) return { email: Boolean(input.email), sms: Boolean(input.phone) && input.useEmailByDefault !== true };
  const wanted = { email: choice.includes('email'), sms: choice.includes('sms') };
  if (wanted.email && !input.email) throw badRequest('notificationSettings: email needs an email address');
  if (wanted.sms && !input.phone) throw badRequest('notificationSettings: sms needs a phone number');
  return wanted;
}

/** The contact, locked until the transaction ends (`Dialect.forUpdate`); 404 when not in the workspace. */
async function findInWorkspace(trx: Transaction<Database>, workspaceId: string, contactId: string, dialect: Dialect): Promise<ContactRow> {
  const row = await dialect.forUpdate(trx.selectFrom('contacts').selectAll().where('id', '=', contactId).where('workspace_id', '=', workspaceId)).executeTakeFirst();
  if (!row) throw notFound('Contact not found');
  return row;
}

function duplicateError(row: ContactRow, detail = ''): Error {
  return takenConflict(row, row.phone && (detail.includes('phone') || !row.email) ? 'phone' : 'email');
}

/** At most this many creates share one SQLite transaction (`ContactStore.createInBatch`). */
const MAX_CREATE_BATCH = 64;

/** How long `checkpoint` tries again while another connection's checkpoint keeps it busy, ms. */
const CHECKPOINT_RETRY_MS = 2000;

/** Rows a multi-row insert of `createMany` or `patchTagsMany` takes at most (SQLite's 32,766 parameters: 23 a contact). */
const INSERT_ROWS = 500;

type PendingCreate = {
  row: ContactRow;
  tags: readonly string[];
  entry: ActivityChange | undefined;
  write: WriteContext;
  resolve: (row: ContactRow) => void;
  reject: (error: unknown) => void;
};

/**
 * The activity entry of a create (docs/decisions.md section 11): every field the request set, `before` null; `tags`
 * as `[added, []]`; the consent it recorded, `state` and `notificationSettings`, as stored.
 */
function createdEntry(row: ContactRow, input: ContactCreateParsed): ActivityChange {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(input)) if (value !== undefined && field !== 'tags') changes[field] = [null, value];
  if (input.tags?.length) changes.tags = [[...input.tags], []];
  changes.state = [null, row.state];
  changes.notificationSettings = [null, { email: row.notify_email === 1, sms: row.notify_sms === 1 }];
  return { resource: 'contact', resourceId: row.id, action: 'create', changes };
}

/** The row of a new contact made from a `POST /contacts` body, created and updated `now`. */
function newContactRow(workspaceId: string, input: ContactCreateParsed, now: string): ContactRow {
  const notify = notificationDefaults(input);
  return {
    id: randomUUID(),
    workspace_id: workspaceId,
    name: input.name ?? null,
    email: input.email ?? null,
    email_key: input.email ? input.email.toLowerCase() : null,
    phone: input.phone ?? null,
    image: input.image ?? null,
    bio: input.bio ?? null,
    address: input.address ?? null,
    city: input.city ?? null,
    postal_code: input.postalCode ?? null,
    region: input.region ?? null,
    source: input.source ?? null,
    system_source: input.systemSource ?? null,
    custom_message: input.customMessage ?? null,
    state: input.addDirectly ? 'active' : 'pending',
    tags: JSON.stringify(input.tags ?? []),
    status_tags: input.statusTags === undefined ? null : JSON.stringify(input.statusTags),
    follows: input.follows === undefined ? null : JSON.stringify(input.follows),
    notify_email: notify.email ? 1 : 0,
    notify_sms: notify.sms ? 1 : 0,
    created: now,
    updated: now,
  };
}

/** The rows of one new contact (its uniqueness checked first: 409); the caller bumps `contacts_version`. */
async function insertContact(trx: Transaction<Database>, row: ContactRow, tags: readonly string[]): Promise<void> {
  await assertUnique(trx, row.workspace_id, row);
  await trx.insertInto('contacts').values(row).execute();
  if (tags.length) await trx.insertInto('contact_tags').values(tags.map((tag) => ({ workspace_id: row.workspace_id, contact_id: row.id, tag, created: row.created }))).execute();
}

async function assertUnique(trx: Transaction<Database>, workspaceId: string, row: ContactRow, exceptId?: string) {
  let others = trx.selectFrom('contacts').select(['id', 'email_key', 'phone']).where('workspace_id', '=', workspaceId);
  if (exceptId !== undefined) others = others.where('id', '<>', exceptId);
  const taken = await others
    .where((eb) => eb.or([eb('email_key', '=', row.email_key ?? sql<string>`null`), eb('phone', '=', row.phone ?? sql<string>`null`)]))
    .executeTakeFirst();
  if (!taken) return;
  throw takenConflict(row, row.email_key !== null && taken.email_key === row.email_key ? 'email' : 'phone', taken.id);
}

/** Which of `values` (nulls skipped) the workspace's contacts already have in `column`, read `INSERT_ROWS` at a time. */
async function takenValues(trx: Transaction<Database>, workspaceId: string, column: 'email_key' | 'phone', values: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(values.filter((value): value is string => value !== null))];
  const taken = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += INSERT_ROWS) {
    const rows = await trx.selectFrom('contacts').select([column, 'id']).where('workspace_id', '=', workspaceId).where(column, 'in', wanted.slice(i, i + INSERT_ROWS)).execute();
    for (const row of rows) {
      const value = row[column];
      if (value !== null) taken.set(value, row.id);
    }
  }
  return taken;
}

/**
 * A create refused because another contact of the workspace holds its email or phone (409), with that contact's id
 * when it is known: `POST /contacts/batch` answers it as the item's `id` (docs/decisions.md section 12), so an import
 * can tag the contacts that existed without looking them up.
 */
export class DuplicateContactError extends HttpError {
  constructor(
    message: string,
    readonly existingId?: string,
  ) {
    super(409, message);
  }
}

/** The 409 of a contact whose email (case-insensitive) or phone another contact of the workspace (`existingId`, when known) has. */
function takenConflict(row: { email?: string | null; phone?: string | null }, field: 'email' | 'phone', existingId?: string) {
  return new DuplicateContactError(field === 'email' ? `A contact with email ${row.email} already exists` : `A contact with phone ${row.phone} already exists`, existingId);
}

/** The most tags a contact has (docs/decisions.md section 7). */
const MAX_TAGS = 100;

/**
 * The contact's tags before an edit: its stored `tags` list, or, when that value is not a JSON list (written around
 * the service: issue 12 point 1), its derived copy, the contact's tag rows (the edit then stores a readable list again).
 */
async function currentTags(trx: Transaction<Database>, contactId: string, stored: unknown): Promise<string[]> {
  return storedTags(stored) ?? (await trx.selectFrom('contact_tags').select('tag').where('contact_id', '=', contactId).orderBy('tag').execute()).map((tag) => tag.tag);
}

/**
 * A tag edit of `current` (the tags PATCH, `POST /contacts/tags`): `remove` taken out, then `add`'s new tags appended
 * in their order; the tags it adds and removes. Null when the list stays as it is. The caller checks `MAX_TAGS`.
 */
function tagEdit(current: readonly string[], add: readonly string[], remove: readonly string[]): { next: string[]; added: string[]; removed: string[] } | null {
  const next = [...current.filter((tag) => !remove.includes(tag)), ...add.filter((tag) => !current.includes(tag))];
  if (next.length === current.length && next.every((tag, i) => tag === current[i])) return null;
  return { next, added: next.filter((tag) => !current.includes(tag)), removed: current.filter((tag) => !next.includes(tag)) };
}

/**
 * The tags of a stored `tags` value: the strings of its JSON list, or null when it is not the JSON text of a list.
 * Never throws: stored values are not trusted to be what the API writes (issue 12 point 1); the export joins
 * what this gives, a tag edit starts from it.
 */
export function storedTags(stored: unknown): string[] | null {
  if (typeof stored !== 'string') return null;
  try {
    const tags: unknown = JSON.parse(stored);
    return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : null;
  } catch {
    return null;
  }
}
