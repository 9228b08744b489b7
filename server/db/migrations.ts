/**
 * Versioned migrations, in order, written with Kysely's schema builder so one list serves every dialect; the
 * only differences are the text column type (`Dialect.text`: binary comparison on both databases), nulls first
 * in the indexes of nullable sort columns (SQLite's order, which PostgreSQL is told), the rate-limit table
 * being unlogged on PostgreSQL, and the contact search indexes (0006: FTS5 on SQLite, GIN trigram indexes on
 * PostgreSQL, which needs the `pg_trgm` and `btree_gin` extensions: trusted, so the database owner may create them).
 * `migrateToLatest(db, dialect)` applies what is missing and throws the first migration error. Processes starting
 * together on one PostgreSQL database run them once: Kysely's migrator holds a lock while it migrates.
 */
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Dialect } from './connection';
import { countTriggers, dropCountTriggers, recountStatement } from './contact-counts';

const migrationsFor = ({ name, text, indexNullsFirst }: Pick<Dialect, 'name' | 'text' | 'indexNullsFirst'>): Record<string, Migration> => ({
  '0001-core': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('created', text, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workspaces')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('image_url', text)
        .addColumn('currency', text, (c) => c.notNull().defaultTo('USD'))
        .addColumn('contacts_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('workspaces_org_name').on('workspaces').columns(['organization_id', 'name', 'id']).execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('key_hash', text, (c) => c.notNull().unique())
        .addColumn('scopes', text, (c) => c.notNull())
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('revoked', text)
        .execute();
      await db.schema
        .createTable('basic_credentials')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('access_key', text, (c) => c.notNull().unique())
        .addColumn('secret_hash', text, (c) => c.notNull())
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('revoked', text)
        .execute();
      await db.schema
        .createTable('contacts')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', text)
        .addColumn('email', text)
        .addColumn('email_key', text)
        .addColumn('phone', text)
        .addColumn('image', text)
        .addColumn('bio', text)
        .addColumn('address', text)
        .addColumn('city', text)
        .addColumn('postal_code', text)
        .addColumn('region', text)
        .addColumn('source', text)
        .addColumn('system_source', text)
        .addColumn('custom_message', text)
        .addColumn('state', text, (c) => c.notNull())
        .addColumn('tags', text, (c) => c.notNull().defaultTo('[]'))
        .addColumn('status_tags', text)
        .addColumn('follows', text)
        .addColumn('notify_email', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notify_sms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('updated', text, (c) => c.notNull())
        .execute();
      const contactIndex = (name: string, columns: string[], unique = false) => {
        const builder = db.schema.createIndex(name).on('contacts').columns(columns);
        return (unique ? builder.unique() : builder).execute();
      };
      await contactIndex('contacts_ws_email', ['workspace_id', 'email_key'], true);
      await contactIndex('contacts_ws_phone', ['workspace_id', 'phone'], true);
      await contactIndex('contacts_ws_created', ['workspace_id', 'created desc', 'id']);
      await contactIndex('contacts_ws_updated', ['workspace_id', 'updated desc', 'id']);
      await contactIndex('contacts_ws_state_created', ['workspace_id', 'state', 'created desc', 'id']);
      await db.schema.createIndex('contacts_ws_city').on('contacts').expression(sql`workspace_id, city ${indexNullsFirst}, id`).execute();
      await db.schema
        .createIndex('contacts_ws_name')
        .on('contacts')
        .expression(sql`workspace_id, lower(name) ${indexNullsFirst}, id`)
        .execute();
      await db.schema
        .createTable('contact_tags')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('contact_id', text, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('tag', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag'])
        .execute();
      await db.schema.createIndex('contact_tags_ws_tag').on('contact_tags').columns(['workspace_id', 'tag', 'contact_id']).execute();
    },
  },
  '0002-content': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('collections')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('external_id', text)
        .addColumn('title', text, (c) => c.notNull())
        .addColumn('handle', text, (c) => c.notNull())
        .addColumn('body_html', text)
        .addColumn('source', text)
        .addColumn('custom_properties', text)
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('updated', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collections_ws_external').on('collections').columns(['workspace_id', 'external_id']).unique().execute();
      await db.schema.createIndex('collections_ws_handle').on('collections').columns(['workspace_id', 'handle']).unique().execute();
      await db.schema.createIndex('collections_ws_created').on('collections').columns(['workspace_id', 'created desc', 'id']).execute();
      await db.schema
        .createTable('products')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('external_id', text)
        .addColumn('title', text, (c) => c.notNull())
        .addColumn('handle', text, (c) => c.notNull())
        .addColumn('body_html', text)
        .addColumn('type', text)
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('vendor', text)
        .addColumn('source', text)
        .addColumn('url', text)
        .addColumn('image_url', text)
        .addColumn('price', 'double precision')
        .addColumn('original_price', 'double precision')
        .addColumn('currency', text)
        .addColumn('is_for_sale', 'integer')
        .addColumn('tags', text, (c) => c.notNull().defaultTo('[]'))
        .addColumn('custom_properties', text)
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('updated', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_ws_external').on('products').columns(['workspace_id', 'external_id']).unique().execute();
      await db.schema.createIndex('products_ws_handle').on('products').columns(['workspace_id', 'handle']).unique().execute();
      await db.schema.createIndex('products_ws_created').on('products').columns(['workspace_id', 'created desc', 'id']).execute();
      await db.schema
        .createTable('product_tags')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('product_id', text, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('tag', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('product_tags_pk', ['product_id', 'tag'])
        .execute();
      await db.schema.createIndex('product_tags_ws_tag').on('product_tags').columns(['workspace_id', 'tag', 'product_id']).execute();
      await db.schema
        .createTable('product_collections')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('product_id', text, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('collection_id', text, (c) => c.notNull().references('collections.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('product_collections_pk', ['product_id', 'collection_id'])
        .execute();
      await db.schema.createIndex('product_collections_collection').on('product_collections').columns(['collection_id', 'product_id']).execute();
      await db.schema
        .createTable('posts')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('state', text, (c) => c.notNull())
        .addColumn('header', text)
        .addColumn('text', text)
        .addColumn('image_url', text)
        .addColumn('media_image_urls', text, (c) => c.notNull().defaultTo('[]'))
        .addColumn('cta_link', text)
        .addColumn('button', text)
        .addColumn('author', text)
        .addColumn('recipients', text)
        .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notification_settings', text)
        .addColumn('published_date', text)
        .addColumn('claps', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('updated', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('posts_ws_public').on('posts').columns(['workspace_id', 'is_private', 'published_date desc', 'id']).execute();
      await db.schema.createIndex('posts_scheduled').on('posts').columns(['state', 'published_date']).execute();
    },
  },
  // Rate-limit counters shared by every process on one PostgreSQL database (issue 8, db/rate-limit-store.ts).
  // Unused, and harmless, on SQLite, where one process counts in memory. Unlogged on PostgreSQL: counters need
  // no crash safety (a crash empties the table, which only restarts windows), and a request's count then
  // writes no WAL.
  '0003-rate-limits': {
    async up(db: Kysely<any>) {
      const table = db.schema.createTable('rate_limits');
      await (name === 'postgres' ? table.modifyFront(sql`unlogged`) : table)
        .addColumn('key', text, (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // A tag row carries its contact's creation time (which never changes), so `tags eq 'x'` in the default
  // newest-first order reads the first page straight from one index (issue 2 benchmark).
  '0004-contact-tags-created': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('contact_tags').addColumn('created', text).execute();
      await sql`update contact_tags set created = (select contacts.created from contacts where contacts.id = contact_tags.contact_id)`.execute(db);
      await db.schema.createIndex('contact_tags_ws_tag_created').on('contact_tags').columns(['workspace_id', 'tag', 'created desc', 'contact_id']).execute();
      await db.schema.dropIndex('contact_tags_ws_tag').execute();
    },
  },
  // `json_or_null(text)`: the text as json, or null when it is not valid JSON (or too deep for the parser), for
  // Dialect.safeJsonColumn (issue 12: a bad stored value must not fail a contact page). PostgreSQL 15 has no
  // non-throwing JSON check (`IS JSON` came in 16), hence the exception block, which makes the function
  // parallel unsafe (it starts a subtransaction). SQLite needs nothing: `json_valid`.
  '0005-json-or-null': {
    async up(db: Kysely<any>) {
      if (name !== 'postgres') return;
      await sql`create or replace function json_or_null(value text) returns json language plpgsql immutable strict as $$
        begin
          return value::json;
        exception when others then
          return null;
        end $$`.execute(db);
    },
  },
  // Trigram indexes for `like` on the searched contact fields (issue 13: search that answers while you type; how
  // queries use them: server/db/contact-search.ts). PostgreSQL: one GIN index per field on (workspace_id, state,
  // field gin_trgm_ops), with `pg_trgm` and `btree_gin` (trusted extensions, both in Debian's postgresql-15
  // package), which serve the filter's `ilike` as it is (rechecked by it); the leading columns let the index
  // itself leave out other workspaces and, for the page's state facet, the other state, before any row is read.
  // SQLite: an FTS5 table with the `trigram` tokenizer over the view `contacts_search_source`
  // (external content: the text lives only in `contacts`), kept in step by triggers that read the same view, so
  // the indexed form of a row is written in one place. Its rowid is the contact's rowid, which VACUUM keeps for
  // this table (checked on SQLite 3.53); `insert into contacts_search(contacts_search) values('rebuild')` rebuilds it.
  '0006-contact-search': {
    async up(db: Kysely<any>) {
      const fields = ['name', 'email', 'phone', 'city', 'address'];
      if (name === 'postgres') {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create extension if not exists btree_gin`.execute(db);
        for (const field of fields) {
          await db.schema
            .createIndex(`contacts_${field}_trgm`)
            .on('contacts')
            .using('gin')
            .expression(sql`workspace_id, state, ${sql.ref(field)} gin_trgm_ops`)
            .execute();
        }
        return;
      }
      // Three private-use characters per workspace (its rowid, 16 bits each): one trigram only it has.
      await sql`create view contact_search_workspaces as
        select id, char(1048576 + ((rowid >> 32) & 65535), 1048576 + ((rowid >> 16) & 65535), 1048576 + (rowid & 65535)) as code
        from workspaces`.execute(db);
      await sql`create view contact_search_states (state, code) as
        values ('active', char(1114109, 1114109, 1114108)), ('pending', char(1114109, 1114109, 1114107))`.execute(db);
      // lower() folds ASCII letters only, as LIKE does; printf('%s') cuts at U+0000, where LIKE stops reading.
      const text = fields.map((field) => `lower(printf('%s', c.${field})) as ${field}`).join(', ');
      await sql`create view contacts_search_source as
        select c.rowid as contact_rowid,
          (select code from contact_search_workspaces w where w.id = c.workspace_id) as workspace,
          coalesce((select code from contact_search_states s where s.state = c.state), char(1114109, 1114109, 1114109)) as state,
          ${sql.raw(text)}
        from contacts c`.execute(db);
      const columns = ['workspace', 'state', ...fields].join(', ');
      await sql`create virtual table contacts_search using fts5(${sql.raw(columns)}, content='contacts_search_source',
        content_rowid='contact_rowid', tokenize='trigram case_sensitive 1', detail=full, columnsize=0)`.execute(db);
      const row = (which: 'old' | 'new', command: string) =>
        sql.raw(`insert into contacts_search(${command ? 'contacts_search, ' : ''}rowid, ${columns})
          select ${command ? `'${command}', ` : ''}contact_rowid, ${columns} from contacts_search_source where contact_rowid = ${which}.rowid;`);
      const watched = ['workspace_id', 'state', ...fields];
      const changed = sql.raw(watched.map((column) => `old.${column} is not new.${column}`).join(' or '));
      const of = sql.raw(watched.join(', '));
      await sql`create trigger contacts_search_insert after insert on contacts begin ${row('new', '')} end`.execute(db);
      await sql`create trigger contacts_search_delete before delete on contacts begin ${row('old', 'delete')} end`.execute(db);
      await sql`create trigger contacts_search_update_old before update of ${of} on contacts when ${changed} begin ${row('old', 'delete')} end`.execute(db);
      await sql`create trigger contacts_search_update_new after update of ${of} on contacts when ${changed} begin ${row('new', '')} end`.execute(db);
      await sql`insert into contacts_search(contacts_search) values ('rebuild')`.execute(db);
    },
  },
  // Our service's extensions (docs/decisions.md sections 9 and 10, issue 22):
  // - `idempotency_keys`: one row per Idempotency-Key of a workspace and request path, shared by every process
  //   (plugins/idempotency.ts). The key itself is kept as a SHA-256 hash; the answer as sent (status, the headers
  //   worth replaying, the body text). `created` orders the 24-hour expiry.
  // - `posts.action`: the action a post request was sent with (`GET /post-requests`), which a published post's
  //   state no longer tells. Earlier rows: `suggest` for suggested, `schedule` for scheduled and for published
  //   posts whose publication time is not their creation time, `publish` otherwise.
  // - SQLite: the contact search index (FTS5) with `secure-delete` on, so an erased contact's trigrams are
  //   removed from the index's pages instead of being masked by a delete marker until the next merge.
  '0007-extensions': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('path', text, (c) => c.notNull())
        .addColumn('key_hash', text, (c) => c.notNull())
        .addColumn('request_hash', text, (c) => c.notNull())
        .addColumn('state', text, (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('headers', text)
        .addColumn('body', text)
        .addColumn('created', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'path', 'key_hash'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').columns(['created']).execute();
      await db.schema.alterTable('posts').addColumn('action', text).execute();
      await sql`update posts set action = case
          when state = 'suggested' then 'suggest'
          when state = 'scheduled' then 'schedule'
          when published_date = created then 'publish'
          else 'schedule' end`.execute(db);
      await db.schema.createIndex('posts_ws_created').on('posts').columns(['workspace_id', 'created desc', 'id']).execute();
      if (name !== 'postgres') await sql`insert into contacts_search(contacts_search, rank) values ('secure-delete', 1)`.execute(db);
    },
  },
  // The activity log (docs/decisions.md section 11, issue 33): one row per record a write changed. `seq` is the
  // order of writing (SQLite's AUTOINCREMENT never reuses a number, PostgreSQL's bigserial neither), the tie-break
  // of `created`. Indexes serve a record's history, a batch and a time range of one workspace; the unique index on
  // `revert_of` makes a second revert of the same entry fail on every process, so each entry is reverted once.
  // `api_keys.key_hint` is stored at key creation; keys made before keep null.
  '0008-activity': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').addColumn('key_hint', text).execute();
      await db.schema
        .createTable('activity')
        .addColumn('seq', name === 'postgres' ? 'bigserial' : 'integer', (c) => (name === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('activity_id', text, (c) => c.notNull().unique())
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('resource', text, (c) => c.notNull())
        .addColumn('resource_id', text, (c) => c.notNull())
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('changes', text)
        .addColumn('key_hint', text)
        .addColumn('source', text, (c) => c.notNull())
        .addColumn('batch_id', text)
        .addColumn('request_id', text)
        .addColumn('idempotency_key', text)
        .addColumn('revert_of', text)
        .execute();
      await db.schema.createIndex('activity_ws_created').on('activity').columns(['workspace_id', 'created', 'seq']).execute();
      // A record's history and a batch, newest first: the filter and the order in one index each, so a page never
      // walks the workspace's whole log by time to find a record's few entries.
      await db.schema.createIndex('activity_ws_resource').on('activity').columns(['workspace_id', 'resource_id', 'created', 'seq']).execute();
      await db.schema.createIndex('activity_ws_batch').on('activity').columns(['workspace_id', 'batch_id', 'created', 'seq']).execute();
      await db.schema.createIndex('activity_revert_of').on('activity').column('revert_of').unique().execute();
      await db.schema.createIndex('activity_created').on('activity').columns(['created', 'seq']).execute();
    },
  },
  // Live changes and shared views (docs/decisions.md section 13, issue 36):
  // - `activity_ws_seq`: a workspace's entries after a sequence number, what `GET /events` reads after each change
  //   signal and for a `Last-Event-ID` replay (server/events/hub.ts).
  // - `event_streams`: the open `GET /events` streams of every process, counted per key (at most 5). `seen` (ms
  //   since the epoch) is renewed every heartbeat; a row not renewed for 75 s is a crashed process's and counts no
  //   more.
  // - `views`: the shared views. `name_key` is the name in lower case: unique per workspace, so "Oslo leads" and
  //   "oslo LEADS" clash on every process; `query` is JSON text.
  '0009-live': {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('activity_ws_seq').on('activity').columns(['workspace_id', 'seq']).execute();
      await db.schema
        .createTable('event_streams')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('key_id', text, (c) => c.notNull())
        .addColumn('seen', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('event_streams_key').on('event_streams').columns(['key_id', 'seen']).execute();
      await db.schema
        .createTable('views')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('workspace_id', text, (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('name_key', text, (c) => c.notNull())
        .addColumn('resource', text, (c) => c.notNull())
        .addColumn('query', text, (c) => c.notNull())
        .addColumn('key_hint', text)
        .addColumn('created', text, (c) => c.notNull())
        .addColumn('updated', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('views_ws_name').on('views').columns(['workspace_id', 'name_key']).unique().execute();
    },
  },
  // Kept counts (issue 39 point 2, issue 35's `GET /stats`): `contact_counts` holds, per workspace, how many contacts
  // are in each state (`kind` 'state'), carry each tag ('tag', from contact_tags) and were created on each UTC day
  // ('day', `YYYY-MM-DD`). Database triggers keep it in the transaction of every write to contacts and contact_tags,
  // whichever code path (or process) writes, so a count never disagrees with a scan. A count reaching 0 is deleted
  // with its row, so an erased person's only tag leaves no trace here (docs/decisions.md section 11). On PostgreSQL
  // inserts and deletes are counted per statement (transition tables: one upsert per distinct key, in key order) and
  // a state change per row; every contact write holds its workspace's lock first (activity.ts `lockWorkspace`), so
  // two writers never take these rows in opposite orders. Filled from the rows already there.
  '0010-contact-counts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('contact_counts')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('n', name === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('contact_counts_pk', ['workspace_id', 'kind', 'name'])
        .execute();
      // Filled, and its triggers made, by 0011 (which also replaces what this migration made where it ran before 0011
      // existed): one recount, not two.
    },
  },
  // A tag's contacts counted per state (`tag:pending`, `tag:active` in place of 0010's `tag`), so a tag filter's
  // `GET /contacts/stats` reads its states as it reads its total (issue 35): the triggers of 0010 dropped, the counts
  // recounted from the rows there, today's triggers created (server/db/contact-counts.ts).
  '0011-tag-counts-by-state': {
    async up(db: Kysely<any>) {
      for (const statement of dropCountTriggers(name)) await sql.raw(statement).execute(db);
      await sql`delete from contact_counts`.execute(db);
      await sql.raw(recountStatement(name)).execute(db);
      for (const statement of countTriggers(name)) await sql.raw(statement).execute(db);
    },
  },
});

/** The names of every migration, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrationsFor({ name: 'sqlite', text: sql`text`, indexNullsFirst: sql`` }));

/** A migration that failed: `migration` is its name (issue 37 point 2: the service names it when it refuses to start). */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    override readonly cause: unknown,
  ) {
    super(`migration ${migration} failed and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'MigrationError';
  }
}

/**
 * Applies every pending migration, each in a transaction of its own (issue 37 point 2), so one that fails
 * leaves the database as the migrations before it left it: on PostgreSQL Kysely's migrator already runs them
 * in one transaction (transactional DDL), on SQLite, where it runs them on a bare connection, each `up` is
 * wrapped here (SQLite's DDL is transactional too). `migrations` (tests only) replaces the list. Throws a
 * `MigrationError` naming the first migration that failed; logs nothing itself.
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect, migrations: Record<string, Migration> = migrationsFor(dialect)): Promise<void> {
  const inTransactions = Object.fromEntries(
    Object.entries(migrations).map(([name, migration]): [string, Migration] => [
      name,
      { up: (connection: Kysely<any>) => (connection.isTransaction ? migration.up(connection) : connection.transaction().execute((trx) => migration.up(trx))) },
    ]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => inTransactions } });
  const { error, results } = await migrator.migrateToLatest();
  if (!error) return;
  const failed = results?.find((result) => result.status === 'Error');
  if (failed) throw new MigrationError(failed.migrationName, error);
  throw error instanceof Error ? error : new Error(String(error));
}

/** The migration list of `dialect` (for tests that add a migration to it). */
export function migrationsOf(dialect: Dialect): Record<string, Migration> {
  return migrationsFor(dialect);
}
