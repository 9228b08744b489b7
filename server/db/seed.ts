/**
 * The demo organization (issues 2 and 3; decisions.md section 8, `demo seed`): "Demo Organization" with three
 * workspaces, realistic contacts made by faker under a fixed seed (2,000, 300 and 200), a catalog and posts
 * (seed-content.ts), each workspace with a key holding all eight scopes and Basic credentials. Also `insertContacts`, the bulk insert the seed and the
 * benchmark share.
 */
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker';
import type { Kysely } from 'kysely';
import { SCOPES } from '../../src/api/scopes';
import type { Dialect } from './connection';
import type { ContactRow } from './contacts';
import { createApiKey, createBasicCredential } from './credentials';
import type { Database } from './schema';
import { seedWorkspaceContent } from './seed-content';
import { createOrganization, createWorkspace } from './workspaces';

export const DEMO_TAGS = ['vip', 'newsletter', 'customer', 'lead', 'partner', 'press', 'wholesale', 'event-2026', 'volunteer', 'beta'];

const DEMO_WORKSPACES = [
  { name: 'Nordic Outdoor Co.', image: 'demo/workspace-nordic.svg', currency: 'NOK', contacts: 2000, country: '+47', phoneDigits: 8 },
  { name: 'Lisbon Coffee Roasters', image: 'demo/workspace-lisbon.svg', currency: 'EUR', contacts: 300, country: '+351', phoneDigits: 9 },
  { name: 'Brooklyn Book Club', image: 'demo/workspace-brooklyn.svg', currency: 'USD', contacts: 200, country: '+1718', phoneDigits: 7 },
];

export type DemoSeedResult = {
  organization: { id: string; name: string };
  workspaces: { id: string; name: string; key: string; accessKey: string; secret: string }[];
};

/** Inserts prepared contact rows and their tag rows in batches, in the caller's transaction or its own. */
export async function insertContacts(db: Kysely<Database>, rows: readonly ContactRow[]): Promise<void> {
  const BATCH = 400;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await trx.insertInto('contacts').values(batch).execute();
      const tags = batch.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => ({ workspace_id: row.workspace_id, contact_id: row.id, tag, created: row.created })));
      for (let j = 0; j < tags.length; j += BATCH) await trx.insertInto('contact_tags').values(tags.slice(j, j + BATCH)).execute();
    }
    const workspaces = [...new Set(rows.map((row) => row.workspace_id))];
    for (const id of workspaces) {
      await trx.updateTable('workspaces').set((eb) => ({ contacts_version: eb('contacts_version', '+', 1) })).where('id', '=', id).execute();
    }
  });
}

/**
 * `count` realistic contacts for `workspaceId`, deterministic for a given faker seed. Emails and phones are
 * unique within the batch (`index` makes them so); `now` is the newest creation time.
 */
export function fakeContacts(workspaceId: string, count: number, options: { country?: string; phoneDigits?: number; now?: Date; idPrefix?: number } = {}): ContactRow[] {
  const { country = '+47', phoneDigits = 8, now = new Date() } = options;
  const rows: ContactRow[] = [];
  const span = 730 * 24 * 3600 * 1000;
  for (let index = 0; index < count; index++) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const serial = (options.idPrefix ?? 0) + index;
    const hasEmail = faker.number.float() < 0.95;
    const hasPhone = faker.number.float() < 0.7;
    const email = hasEmail ? `${firstName}.${lastName}.${serial}@${faker.internet.domainName()}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '') : null;
    const phone = hasPhone ? `${country}${String(serial).padStart(phoneDigits, '0').slice(-phoneDigits)}` : null;
    const tags = faker.helpers.arrayElements(DEMO_TAGS, { min: 0, max: 3 });
    const created = new Date(now.getTime() - Math.floor(faker.number.float() * span)).toISOString();
    const active = faker.number.float() < 0.7;
    rows.push({
      id: randomUUID(),
      workspace_id: workspaceId,
      name: `${firstName} ${lastName}`,
      email,
      email_key: email,
      phone,
      image: null,
      bio: faker.number.float() < 0.3 ? faker.person.bio() : null,
      address: faker.location.streetAddress(),
      city: faker.location.city(),
      postal_code: faker.location.zipCode(),
      region: faker.location.state(),
      source: faker.helpers.arrayElement(['import', 'signup-form', 'api', 'event', 'shop']),
      system_source: faker.helpers.arrayElement(['web', 'ios', 'android', null]),
      custom_message: null,
      state: active ? 'active' : 'pending',
      tags: JSON.stringify(tags),
      status_tags: null,
      follows: null,
      notify_email: email ? 1 : 0,
      notify_sms: phone ? 1 : 0,
      created,
      updated: created,
    });
  }
  return rows;
}

/** Seeds the demo organization; `publicUrl` is the base of the workspace image URLs. */
export async function seedDemo(db: Kysely<Database>, dialect: Dialect, publicUrl: string): Promise<DemoSeedResult> {
  faker.seed(20260701);
  const organization = await createOrganization(db, 'Demo Organization');
  const workspaces: DemoSeedResult['workspaces'] = [];
  for (const spec of DEMO_WORKSPACES) {
    const workspace = await createWorkspace(db, { organizationId: organization.id, name: spec.name, imageUrl: `${publicUrl.replace(/\/$/, '')}/${spec.image}`, currency: spec.currency });
    await insertContacts(db, fakeContacts(workspace.id, spec.contacts, { country: spec.country, phoneDigits: spec.phoneDigits }));
    await seedWorkspaceContent(db, dialect, { id: workspace.id, currency: spec.currency }, publicUrl);
    const key = await createApiKey(db, workspace.id, SCOPES);
    const { accessKey, secret } = await createBasicCredential(db, workspace.id);
    workspaces.push({ id: workspace.id, name: workspace.name, key, accessKey, secret });
  }
  return { organization, workspaces };
}
