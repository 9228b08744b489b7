/**
 * The demo organization (issues 2 and 3; docs/decisions.md section 8, `demo seed`): "Demo Organization" with three
 * workspaces, realistic contacts made by faker under a fixed seed (2,000, 300 and 200), a catalog and posts
 * (seed-content.ts), each workspace with a key holding all eight scopes and Basic credentials. Also `insertContacts`, the bulk insert the seed and the
 * benchmark share.
 *
 * Issue 23 point 13: "Nordic Outdoor Co." looks like the Norwegians who will use it: names, street addresses,
 * cities, postal codes and counties from faker's Norwegian bokmål locale (`fakerNB_NO`, seeded on its own), emails
 * at providers common in Norway, and mobile numbers a Norwegian operator issues (`+47 4…`/`+47 9…`, 8 digits, each
 * checked by libphonenumber-js as a valid NO mobile, stored in E.164 as the API stores them). Issue 34 point 10 ("the
 * Lisbon demo workspace has American towns"): each workspace's people fit its country the same way, from hand-written
 * town lists: "Lisbon Coffee Roasters" holds Portuguese people (`fakerPT_PT` names and streets, real towns with their
 * postcodes `NNNN-NNN` and districts, Portuguese mobiles `+351 9…`), "Brooklyn Book Club" New Yorkers (`fakerEN_US`
 * names, Brooklyn streets, New York City boroughs and neighborhoods with their ZIP codes, New York numbers `+1 718…`).
 * Each people's faker is seeded on its own, so the seed stays deterministic. `fakeContacts` without a `locale` (the
 * tests' and benchmarks' bulk rows) keeps the default (English) locale.
 */
import { randomUUID } from 'node:crypto';
import { type Faker, faker as defaultFaker, fakerEN_US, fakerNB_NO, fakerPT_PT } from '@faker-js/faker';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Kysely } from 'kysely';
import { SCOPES } from '../../src/api/scopes';
import type { Dialect } from './connection';
import type { ContactRow } from './contacts';
import { createApiKey, createBasicCredential } from './credentials';
import type { Database } from './schema';
import { type Trade, seedWorkspaceContent } from './seed-content';
import { createOrganization, createWorkspace } from './workspaces';

export const DEMO_TAGS = ['vip', 'newsletter', 'customer', 'lead', 'partner', 'press', 'wholesale', 'event-2026', 'volunteer', 'beta'];

/** The demo workspaces: their people's locale (the `PEOPLE` below) and their shop's trade (seed-content.ts `TRADES`). */
const DEMO_WORKSPACES = [
  { name: 'Nordic Outdoor Co.', image: 'demo/workspace-nordic.svg', currency: 'NOK', contacts: 2000, locale: 'nb_NO', trade: 'outdoor' },
  { name: 'Lisbon Coffee Roasters', image: 'demo/workspace-lisbon.svg', currency: 'EUR', contacts: 300, locale: 'pt_PT', trade: 'coffee' },
  { name: 'Brooklyn Book Club', image: 'demo/workspace-brooklyn.svg', currency: 'USD', contacts: 200, locale: 'en_US', trade: 'books' },
] as const satisfies readonly { name: string; image: string; currency: string; contacts: number; locale: DemoLocale; trade: Trade }[];

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

/** A real town for demo contacts: a range of its postal codes (as numbers), its region, and a weight (about its population). */
export type DemoTown = { city: string; codes: [number, number]; region: string; weight: number };

/**
 * Real Norwegian towns for the Norwegian demo contacts: the town, a range of its postal codes, its county (the
 * counties of 2024), and a weight (roughly its population, in tens of thousands), so Oslo is the most common.
 */
export const NORWEGIAN_TOWNS: readonly DemoTown[] = [
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

/**
 * Real Portuguese towns for the Lisbon demo contacts: the first four digits of their postcodes (`1000` of `1000-001`),
 * their district (Madeira and the Azores: their autonomous region), and a weight (about the population, in ten
 * thousands), so Lisbon and its neighbours are the most common.
 */
export const PORTUGUESE_TOWNS: readonly DemoTown[] = [
  { city: 'Lisboa', codes: [1000, 1990], region: 'Lisboa', weight: 55 },
  { city: 'Sintra', codes: [2710, 2749], region: 'Lisboa', weight: 38 },
  { city: 'Vila Nova de Gaia', codes: [4400, 4439], region: 'Porto', weight: 30 },
  { city: 'Porto', codes: [4000, 4369], region: 'Porto', weight: 23 },
  { city: 'Cascais', codes: [2750, 2789], region: 'Lisboa', weight: 21 },
  { city: 'Loures', codes: [2670, 2699], region: 'Lisboa', weight: 20 },
  { city: 'Braga', codes: [4700, 4719], region: 'Braga', weight: 19 },
  { city: 'Almada', codes: [2800, 2829], region: 'Setúbal', weight: 17 },
  { city: 'Amadora', codes: [2610, 2724], region: 'Lisboa', weight: 17 },
  { city: 'Oeiras', codes: [2760, 2799], region: 'Lisboa', weight: 17 },
  { city: 'Matosinhos', codes: [4450, 4465], region: 'Porto', weight: 17 },
  { city: 'Guimarães', codes: [4800, 4839], region: 'Braga', weight: 15 },
  { city: 'Coimbra', codes: [3000, 3049], region: 'Coimbra', weight: 14 },
  { city: 'Leiria', codes: [2400, 2424], region: 'Leiria', weight: 13 },
  { city: 'Setúbal', codes: [2900, 2914], region: 'Setúbal', weight: 12 },
  { city: 'Funchal', codes: [9000, 9064], region: 'Madeira', weight: 10 },
  { city: 'Viseu', codes: [3500, 3519], region: 'Viseu', weight: 10 },
  { city: 'Aveiro', codes: [3800, 3814], region: 'Aveiro', weight: 8 },
  { city: 'Ponta Delgada', codes: [9500, 9504], region: 'Açores', weight: 7 },
  { city: 'Faro', codes: [8000, 8009], region: 'Faro', weight: 6 },
  { city: 'Évora', codes: [7000, 7005], region: 'Évora', weight: 5 },
];

/**
 * New York City's boroughs and neighborhoods (and two towns across the rivers) for the Brooklyn demo contacts: their
 * ZIP codes, their state, and a weight, so Brooklyn is by far the most common.
 */
export const NEW_YORK_TOWNS: readonly DemoTown[] = [
  { city: 'Brooklyn', codes: [11201, 11239], region: 'NY', weight: 60 },
  { city: 'New York', codes: [10001, 10040], region: 'NY', weight: 15 },
  { city: 'Astoria', codes: [11102, 11106], region: 'NY', weight: 4 },
  { city: 'Long Island City', codes: [11101, 11101], region: 'NY', weight: 3 },
  { city: 'Flushing', codes: [11354, 11358], region: 'NY', weight: 3 },
  { city: 'Jamaica', codes: [11432, 11436], region: 'NY', weight: 2 },
  { city: 'Bronx', codes: [10451, 10475], region: 'NY', weight: 4 },
  { city: 'Staten Island', codes: [10301, 10314], region: 'NY', weight: 2 },
  { city: 'Jersey City', codes: [7302, 7311], region: 'NJ', weight: 3 },
  { city: 'Hoboken', codes: [7030, 7030], region: 'NJ', weight: 2 },
];

/** Streets of Brooklyn, for the Brooklyn demo contacts' addresses (faker's en_US streets are invented). */
const BROOKLYN_STREETS = [
  'Atlantic Avenue', 'Flatbush Avenue', 'Court Street', 'Smith Street', 'Bedford Avenue', 'Nostrand Avenue', '5th Avenue',
  '7th Avenue', 'Fulton Street', 'DeKalb Avenue', 'Myrtle Avenue', 'Prospect Place', 'Eastern Parkway', 'Ocean Avenue',
  'Franklin Avenue', 'Metropolitan Avenue', 'Manhattan Avenue', 'Union Street', 'President Street', 'Bergen Street',
];

/** Email providers common in Norway, for the Norwegian demo contacts. */
const NORWEGIAN_MAIL_DOMAINS = ['gmail.com', 'online.no', 'hotmail.com', 'outlook.com', 'live.no', 'icloud.com', 'yahoo.no', 'broadpark.no'];
/** Email providers common in Portugal. */
const PORTUGUESE_MAIL_DOMAINS = ['gmail.com', 'sapo.pt', 'hotmail.com', 'outlook.pt', 'iol.pt', 'live.com.pt', 'netcabo.pt', 'yahoo.com'];
/** Email providers common in the United States. */
const AMERICAN_MAIL_DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'aol.com', 'hotmail.com', 'verizon.net', 'optonline.net'];

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
  // Norway's mobile ranges are decided by the first digits (libphonenumber's NO mobile pattern is
  // `(?:4[015-8]|9\d)\d{6}`), so one check per three-digit block is enough; a test checks every demo number whole.
  return validNumber(taken, () => `+47${f.helpers.arrayElement(['4', '9'])}${f.string.numeric(7)}`, 6, 'NO', ['MOBILE']);
}

/** A Portuguese mobile number not in `taken` (`+351912345678`: `91`, `92`, `93` or `96` and seven digits), valid for libphonenumber-js. */
export function portugueseMobile(f: Faker, taken: Set<string>): string {
  // Portugal's mobile ranges are decided by the first two digits (`9[1236]`): one check per block of them.
  return validNumber(taken, () => `+3519${f.helpers.arrayElement(['1', '2', '3', '6'])}${f.string.numeric(7)}`, 6, 'PT', ['MOBILE']);
}

/**
 * A New York City number not in `taken` (`+17182345678`): one of the city's area codes, an exchange of `2`-`9` and two
 * digits (not `555`), and four digits; valid for libphonenumber-js (the North American plan does not tell mobiles from
 * fixed lines).
 */
export function newYorkNumber(f: Faker, taken: Set<string>): string {
  return validNumber(
    taken,
    () => `+1${f.helpers.arrayElement(['718', '347', '929', '917', '646', '212'])}${f.helpers.arrayElement(['2', '3', '4', '6', '7', '8', '9'])}${f.string.numeric(2)}${f.string.numeric(4)}`,
    8,
    'US',
    ['MOBILE', 'FIXED_LINE_OR_MOBILE', 'FIXED_LINE'],
  );
}

/**
 * Draws numbers with `draw` until one is not in `taken` and libphonenumber-js's full metadata calls it a valid number
 * of `country` of one of `types`; one check per block (the number's first `block` characters) decides for the block.
 */
function validNumber(taken: Set<string>, draw: () => string, block: number, country: string, types: readonly string[]): string {
  for (;;) {
    const phone = draw();
    if (taken.has(phone)) continue;
    const key = phone.slice(0, block);
    let valid = VALID_BLOCKS.get(key);
    if (valid === undefined) {
      const parsed = parsePhoneNumberFromString(phone);
      valid = parsed?.isValid() === true && parsed.country === country && types.includes(parsed.getType() ?? '');
      VALID_BLOCKS.set(key, valid);
    }
    if (valid) {
      taken.add(phone);
      return phone;
    }
  }
}
const VALID_BLOCKS = new Map<string, boolean>();

/** The locales of the demo's people. */
export type DemoLocale = 'nb_NO' | 'pt_PT' | 'en_US';

/**
 * How one country's people are made: their faker (seeded by `seedDemo`), towns drawn by weight, a postcode of a town,
 * a phone number, email providers, and a street address.
 */
type People = {
  faker: Faker;
  towns: { value: DemoTown; weight: number }[];
  postalCode: (f: Faker, town: DemoTown) => string;
  phone: (f: Faker, taken: Set<string>) => string;
  mailDomains: readonly string[];
  street: (f: Faker) => string;
};

const weighted = (towns: readonly DemoTown[]) => towns.map((value) => ({ value, weight: value.weight }));
const between = (f: Faker, [low, high]: [number, number]) => f.number.int({ min: low, max: high });

const PEOPLE: Record<DemoLocale, People> = {
  nb_NO: {
    faker: fakerNB_NO, towns: weighted(NORWEGIAN_TOWNS), mailDomains: NORWEGIAN_MAIL_DOMAINS, phone: norwegianMobile,
    postalCode: (f, town) => String(between(f, town.codes)).padStart(4, '0'),
    street: (f) => f.location.streetAddress(),
  },
  pt_PT: {
    faker: fakerPT_PT, towns: weighted(PORTUGUESE_TOWNS), mailDomains: PORTUGUESE_MAIL_DOMAINS, phone: portugueseMobile,
    postalCode: (f, town) => `${between(f, town.codes)}-${String(f.number.int({ min: 1, max: 999 })).padStart(3, '0')}`,
    // faker's Portuguese street numbers run to 9999; a building's number in Portugal is seldom above 300.
    street: (f) => `${f.location.street()} ${f.number.int({ min: 1, max: 300 })}`,
  },
  en_US: {
    faker: fakerEN_US, towns: weighted(NEW_YORK_TOWNS), mailDomains: AMERICAN_MAIL_DOMAINS, phone: newYorkNumber,
    postalCode: (f, town) => String(between(f, town.codes)).padStart(5, '0'),
    street: (f) => `${f.number.int({ min: 1, max: 999 })} ${f.helpers.arrayElement(BROOKLYN_STREETS)}`,
  },
};

/**
 * `count` realistic contacts for `workspaceId`, deterministic for a given faker seed. Emails and phones are
 * unique within the batch (`index` makes them so); `now` is the newest creation time. A `locale` makes that
 * country's people (see the module comment: `nb_NO` Norwegians, `pt_PT` Portuguese, `en_US` New Yorkers) with its
 * faker, which the caller seeds; otherwise the default faker, with phones `country` + the serial number.
 */
export function fakeContacts(workspaceId: string, count: number, options: { country?: string; phoneDigits?: number; now?: Date; idPrefix?: number; locale?: DemoLocale } = {}): ContactRow[] {
  const { country = '+47', phoneDigits = 8, now = new Date() } = options;
  const people = options.locale ? PEOPLE[options.locale] : null;
  const faker = people ? people.faker : defaultFaker;
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
      : people
        ? `${mailLetters(firstName)}.${mailLetters(lastName)}.${serial}@${faker.helpers.arrayElement(people.mailDomains)}`.replace(/[^a-z0-9.@-]/g, '')
        : `${firstName}.${lastName}.${serial}@${faker.internet.domainName()}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
    const phone = hasPhone ? (people ? people.phone(faker, phones) : `${country}${String(serial).padStart(phoneDigits, '0').slice(-phoneDigits)}`) : null;
    const tags = faker.helpers.arrayElements(DEMO_TAGS, { min: 0, max: 3 });
    const town = people ? faker.helpers.weightedArrayElement(people.towns) : null;
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
      address: people ? people.street(faker) : faker.location.streetAddress(),
      ...(town && people
        ? { city: town.city, postal_code: people.postalCode(faker, town), region: town.region }
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
  for (const people of Object.values(PEOPLE)) people.faker.seed(20260701);
  const organization = await createOrganization(db, 'Demo Organization');
  const workspaces: DemoSeedResult['workspaces'] = [];
  for (const spec of DEMO_WORKSPACES) {
    const workspace = await createWorkspace(db, { organizationId: organization.id, name: spec.name, imageUrl: `${publicUrl.replace(/\/$/, '')}/${spec.image}`, currency: spec.currency });
    await insertContacts(db, fakeContacts(workspace.id, spec.contacts, { locale: spec.locale }));
    await seedWorkspaceContent(db, dialect, { id: workspace.id, currency: spec.currency, trade: spec.trade }, publicUrl);
    const key = await createApiKey(db, workspace.id, SCOPES);
    const { accessKey, secret } = await createBasicCredential(db, workspace.id);
    workspaces.push({ id: workspace.id, name: workspace.name, key, accessKey, secret });
  }
  return { organization, workspaces };
}
