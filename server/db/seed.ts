/**
 * The demo organization (issues 2 and 3; docs/decisions.md section 8, `demo seed`): "Demo Organization" with three
 * workspaces, realistic contacts made by faker under a fixed seed (2,000, 300 and 200), a catalog and posts
 * (seed-content.ts), each workspace with a key holding all eight scopes and Basic credentials. Also `insertContacts`, the bulk insert the seed and the
 * benchmark share.
 *
 * Issue 23 point 13: "Nordic Outdoor Co." looks like the Norwegians who will use it: names, street addresses,
 * cities, postal codes and counties from faker's Norwegian bokmål locale (`fakerNB_NO`, seeded on its own), emails
 * at providers common in Norway, and mobile numbers a Norwegian operator issues (`+47 4…`/`+47 9…`, 8 digits, each
 * checked by libphonenumber-js as a valid NO mobile, stored in E.164 as the API stores them). The other two
 * workspaces keep the default (English) locale.
 */
import { randomUUID } from 'node:crypto';
import { type Faker, faker as defaultFaker, fakerNB_NO } from '@faker-js/faker';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
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
  { name: 'Nordic Outdoor Co.', image: 'demo/workspace-nordic.svg', currency: 'NOK', contacts: 2000, country: '+47', phoneDigits: 8, locale: 'nb_NO' as const },
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
 * Real Norwegian towns for the Norwegian demo contacts: the town, a range of its postal codes, its county (the
 * counties of 2024), and a weight (roughly its population, in tens of thousands), so Oslo is the most common.
 */
const NORWEGIAN_TOWNS: readonly { city: string; codes: [number, number]; region: string; weight: number }[] = [
  { city: 'Oslo', codes: [150, 1295], region: 'Oslo', weight: 70 },
  { city: 'Bergen', codes: [5003, 5099], region: 'Vestland', weight: 29 },
  { city: 'Trondheim', codes: [7010, 7099], region: 'Trøndelag', weight: 21 },
  { city: 'Stavanger', codes: [4005, 4099], region: 'Rogaland', weight: 15 },
  { city: 'Drammen', codes: [3011, 3048], region: 'Buskerud', weight: 10 },
  { city: 'Kristiansand', codes: [4608, 4639], region: 'Agder', weight: 11 },
  { city: 'Fredrikstad', codes: [1601, 1640], region: 'Østfold', weight: 8 },
  { city: 'Tromsø', codes: [9006, 9020], region: 'Troms', weight: 8 },
  { city: 'Sandnes', codes: [4306, 4329], region: 'Rogaland', weight: 8 },
  { city: 'Lillestrøm', codes: [2000, 2019], region: 'Akershus', weight: 9 },
  { city: 'Sarpsborg', codes: [1701, 1747], region: 'Østfold', weight: 6 },
  { city: 'Skien', codes: [3700, 3739], region: 'Telemark', weight: 5 },
  { city: 'Ålesund', codes: [6002, 6025], region: 'Møre og Romsdal', weight: 6 },
  { city: 'Bodø', codes: [8003, 8050], region: 'Nordland', weight: 5 },
  { city: 'Tønsberg', codes: [3110, 3128], region: 'Vestfold', weight: 5 },
  { city: 'Larvik', codes: [3256, 3271], region: 'Vestfold', weight: 4 },
  { city: 'Moss', codes: [1501, 1540], region: 'Østfold', weight: 5 },
  { city: 'Arendal', codes: [4808, 4849], region: 'Agder', weight: 4 },
  { city: 'Haugesund', codes: [5501, 5538], region: 'Rogaland', weight: 4 },
  { city: 'Hamar', codes: [2315, 2326], region: 'Innlandet', weight: 3 },
  { city: 'Lillehammer', codes: [2609, 2619], region: 'Innlandet', weight: 3 },
  { city: 'Gjøvik', codes: [2815, 2830], region: 'Innlandet', weight: 3 },
  { city: 'Kongsberg', codes: [3600, 3616], region: 'Buskerud', weight: 3 },
  { city: 'Molde', codes: [6401, 6421], region: 'Møre og Romsdal', weight: 3 },
  { city: 'Halden', codes: [1760, 1789], region: 'Østfold', weight: 3 },
  { city: 'Harstad', codes: [9400, 9415], region: 'Troms', weight: 2 },
  { city: 'Steinkjer', codes: [7700, 7725], region: 'Trøndelag', weight: 2 },
  { city: 'Narvik', codes: [8500, 8520], region: 'Nordland', weight: 2 },
  { city: 'Alta', codes: [9500, 9518], region: 'Finnmark', weight: 2 },
  { city: 'Førde', codes: [6800, 6812], region: 'Vestland', weight: 1 },
];

const WEIGHTED_TOWNS = NORWEGIAN_TOWNS.map((value) => ({ value, weight: value.weight }));

/** Email providers common in Norway, for the Norwegian demo contacts. */
const NORWEGIAN_MAIL_DOMAINS = ['gmail.com', 'online.no', 'hotmail.com', 'outlook.com', 'live.no', 'icloud.com', 'yahoo.no', 'broadpark.no'];

/** Letters of a name as an email address writes them: `Bjørnstad Ødegård` -> `bjornstad odegard` (then non-letters dropped). */
function mailLetters(text: string): string {
  return text.toLowerCase().replace(/æ/g, 'ae').replace(/ø/g, 'o').replace(/å/g, 'a').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * A Norwegian mobile number not in `taken`, in E.164 (`+4791234567`): `4` or `9` and seven more digits from `f`,
 * drawn again until libphonenumber-js's full metadata calls it a valid NO mobile (some `4x` blocks are not
 * mobile). Deterministic for a seeded `f`.
 */
export function norwegianMobile(f: Faker, taken: Set<string>): string {
  for (;;) {
    const phone = `+47${f.helpers.arrayElement(['4', '9'])}${f.string.numeric(7)}`;
    if (taken.has(phone)) continue;
    // Norway's mobile ranges are decided by the first digits (libphonenumber's NO mobile pattern is
    // `(?:4[015-8]|9\d)\d{6}`), so one check per three-digit block is enough; a test checks every demo number whole.
    const block = phone.slice(0, 6);
    let mobile = MOBILE_BLOCKS.get(block);
    if (mobile === undefined) {
      const parsed = parsePhoneNumberFromString(phone);
      mobile = parsed?.isValid() === true && parsed.country === 'NO' && parsed.getType() === 'MOBILE';
      MOBILE_BLOCKS.set(block, mobile);
    }
    if (mobile) {
      taken.add(phone);
      return phone;
    }
  }
}
const MOBILE_BLOCKS = new Map<string, boolean>();

/**
 * `count` realistic contacts for `workspaceId`, deterministic for a given faker seed. Emails and phones are
 * unique within the batch (`index` makes them so); `now` is the newest creation time. `locale: 'nb_NO'` makes
 * Norwegian people (see the module comment) with `fakerNB_NO`, which the caller seeds; otherwise the default
 * faker, with phones `country` + the serial number.
 */
export function fakeContacts(workspaceId: string, count: number, options: { country?: string; phoneDigits?: number; now?: Date; idPrefix?: number; locale?: 'nb_NO' } = {}): ContactRow[] {
  const { country = '+47', phoneDigits = 8, now = new Date() } = options;
  const norwegian = options.locale === 'nb_NO';
  const faker = norwegian ? fakerNB_NO : defaultFaker;
  const phones = new Set<string>();
  const rows: ContactRow[] = [];
  const span = 730 * 24 * 3600 * 1000;
  for (let index = 0; index < count; index++) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const serial = (options.idPrefix ?? 0) + index;
    const hasEmail = faker.number.float() < 0.95;
    const hasPhone = faker.number.float() < 0.7;
    const email = !hasEmail
      ? null
      : norwegian
        ? `${mailLetters(firstName)}.${mailLetters(lastName)}.${serial}@${faker.helpers.arrayElement(NORWEGIAN_MAIL_DOMAINS)}`.replace(/[^a-z0-9.@-]/g, '')
        : `${firstName}.${lastName}.${serial}@${faker.internet.domainName()}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
    const phone = hasPhone ? (norwegian ? norwegianMobile(faker, phones) : `${country}${String(serial).padStart(phoneDigits, '0').slice(-phoneDigits)}`) : null;
    const tags = faker.helpers.arrayElements(DEMO_TAGS, { min: 0, max: 3 });
    const town = norwegian ? faker.helpers.weightedArrayElement(WEIGHTED_TOWNS) : null;
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
      ...(town
        ? { city: town.city, postal_code: String(faker.number.int({ min: town.codes[0], max: town.codes[1] })).padStart(4, '0'), region: town.region }
        : { city: faker.location.city(), postal_code: faker.location.zipCode(), region: faker.location.state() }),
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
  defaultFaker.seed(20260701);
  fakerNB_NO.seed(20260701);
  const organization = await createOrganization(db, 'Demo Organization');
  const workspaces: DemoSeedResult['workspaces'] = [];
  for (const spec of DEMO_WORKSPACES) {
    const workspace = await createWorkspace(db, { organizationId: organization.id, name: spec.name, imageUrl: `${publicUrl.replace(/\/$/, '')}/${spec.image}`, currency: spec.currency });
    await insertContacts(db, fakeContacts(workspace.id, spec.contacts, { country: spec.country, phoneDigits: spec.phoneDigits, ...('locale' in spec ? { locale: spec.locale } : {}) }));
    await seedWorkspaceContent(db, dialect, { id: workspace.id, currency: spec.currency }, publicUrl);
    const key = await createApiKey(db, workspace.id, SCOPES);
    const { accessKey, secret } = await createBasicCredential(db, workspace.id);
    workspaces.push({ id: workspace.id, name: workspace.name, key, accessKey, secret });
  }
  return { organization, workspaces };
}
