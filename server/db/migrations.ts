/**
 * Versioned migrations, in order, written with Kysely's schema builder so one list serves every dialect.
 * `migrateToLatest(db)` applies what is missing and throws the first migration error.
 */
import { type Kysely, type Migration, Migrator, sql } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001-core': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('image_url', 'text')
        .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
        .addColumn('contacts_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('workspaces_org_name').on('workspaces').columns(['organization_id', 'name', 'id']).execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('revoked', 'text')
        .execute();
      await db.schema
        .createTable('basic_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('access_key', 'text', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('revoked', 'text')
        .execute();
      await db.schema
        .createTable('contacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('email_key', 'text')
        .addColumn('phone', 'text')
        .addColumn('image', 'text')
        .addColumn('bio', 'text')
        .addColumn('address', 'text')
        .addColumn('city', 'text')
        .addColumn('postal_code', 'text')
        .addColumn('region', 'text')
        .addColumn('source', 'text')
        .addColumn('system_source', 'text')
        .addColumn('custom_message', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('status_tags', 'text')
        .addColumn('follows', 'text')
        .addColumn('notify_email', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notify_sms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('updated', 'text', (c) => c.notNull())
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
      await contactIndex('contacts_ws_city', ['workspace_id', 'city', 'id']);
      await db.schema
        .createIndex('contacts_ws_name')
        .on('contacts')
        .expression(sql`workspace_id, lower(name), id`)
        .execute();
      await db.schema
        .createTable('contact_tags')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag'])
        .execute();
      await db.schema.createIndex('contact_tags_ws_tag').on('contact_tags').columns(['workspace_id', 'tag', 'contact_id']).execute();
    },
  },
};

/** Applies every pending migration. Throws the migration error, if any, after logging nothing itself. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
