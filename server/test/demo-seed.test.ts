/**
 * The demo seed (issue 23 point 13): "Nordic Outdoor Co." holds Norwegian people (bokmål names, real towns with their
 * postal codes and counties, mobile numbers a Norwegian operator issues), the seed is deterministic (its
 * speed is a benchmark's matter, not a timed test's), and the other workspaces keep their sizes. Issue 34 point 10:
 * every workspace's people fit its country (Lisbon: Portuguese towns, postcodes and mobiles; Brooklyn: New York's), and
 * every shop sells its trade's products (no "Frozen Concrete Chair" from faker's commerce words). Seeded twice, on two
 * real databases of the test target, read back through the API.
 */
import { faker } from '@faker-js/faker';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection, Product } from '../../src/api/catalog';
import type { Contact } from '../../src/api/contacts';
import { type DemoTown, NEW_YORK_TOWNS, PORTUGUESE_TOWNS, seedDemo, type DemoSeedResult } from '../db/seed';
import { TRADES, type Trade } from '../db/seed-content';
import { type TestServer, call, startServer } from './harness';

let first: TestServer;
let second: TestServer;
let demo: DemoSeedResult;
let again: DemoSeedResult;

/** Every contact of a workspace, through the API, by pages of 100. */
async function everyContact(server: TestServer, key: string): Promise<Contact[]> {
  const items: Contact[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await call(server, 'GET', `/contacts?%24limit=100&%24offset=${offset}&%24orderBy=created%20desc`, { key });
    expect(response.status, response.text).toBe(200);
    const page = response.body as { items: Contact[]; meta: { maxResults: number } };
    items.push(...page.items);
    if (offset + 100 >= page.meta.maxResults) return items;
  }
}

/** Every record of a catalog list (`products` or `collections`), through the API, by pages of 100. */
async function everyItem<T>(server: TestServer, key: string, list: 'products' | 'collections'): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await call(server, 'GET', `/${list}?%24limit=100&%24offset=${offset}`, { key });
    expect(response.status, response.text).toBe(200);
    const page = response.body as { items: T[]; meta: { maxResults: number } };
    items.push(...page.items);
    if (offset + 100 >= page.meta.maxResults) return items;
  }
}

/** Checks that every contact lives in one of `towns`, with that town's region and a postcode of its range (`prefix` reads the range's part). */
function expectTowns(contacts: readonly Contact[], towns: readonly DemoTown[], postcode: RegExp, prefix: (code: string) => number) {
  const byCity = new Map(towns.map((town) => [town.city, town]));
  for (const contact of contacts) {
    const town = byCity.get(contact.city ?? '');
    expect(town, `${contact.city} is one of the workspace's towns`).toBeDefined();
    expect(contact.region).toBe(town!.region);
    expect(contact.postalCode).toMatch(postcode);
    const code = prefix(contact.postalCode!);
    expect(code, `${contact.postalCode} of ${contact.city}`).toBeGreaterThanOrEqual(town!.codes[0]);
    expect(code, `${contact.postalCode} of ${contact.city}`).toBeLessThanOrEqual(town!.codes[1]);
  }
  // The weights show: the capital (or Brooklyn) is the most common town.
  const counts = new Map<string, number>();
  for (const contact of contacts) counts.set(contact.city!, (counts.get(contact.city!) ?? 0) + 1);
  expect([...counts].sort((a, b) => b[1] - a[1])[0]![0]).toBe(towns[0]!.city);
}

/** Checks every phone of `contacts`: unique, valid for libphonenumber-js's full metadata, of `country`, matching `pattern`. */
function expectPhones(contacts: readonly Contact[], country: string, pattern: RegExp) {
  const phones = contacts.flatMap((c) => (c.phone ? [c.phone] : []));
  expect(phones.length).toBeGreaterThan(contacts.length / 2);
  expect(new Set(phones).size).toBe(phones.length);
  for (const phone of phones) {
    expect(phone).toMatch(pattern);
    const parsed = parsePhoneNumberFromString(phone);
    expect(parsed?.isValid(), phone).toBe(true);
    expect(parsed?.country, phone).toBe(country);
  }
}

beforeAll(async () => {
  [first, second] = await Promise.all([startServer(), startServer()]);
  demo = await seedDemo(first.database.db, first.database.dialect, first.baseUrl);
  again = await seedDemo(second.database.db, second.database.dialect, second.baseUrl);
}, 120_000);
afterAll(async () => {
  await first?.close();
  await second?.close();
});

describe('the demo seed', () => {
  it('holds 2,000, 300 and 200 contacts, as the README says', async () => {
    const counts = [];
    for (const workspace of demo.workspaces) counts.push((await everyContact(first, workspace.key)).length);
    expect(demo.workspaces.map((w) => w.name)).toEqual(['Nordic Outdoor Co.', 'Lisbon Coffee Roasters', 'Brooklyn Book Club']);
    expect(counts).toEqual([2000, 300, 200]);
  });

  it('gives Nordic Outdoor Co. Norwegian people: valid NO mobiles, real towns with their postal codes and counties', async () => {
    const contacts = await everyContact(first, demo.workspaces[0]!.key);
    const phones = contacts.flatMap((c) => (c.phone ? [c.phone] : []));
    expect(phones.length).toBeGreaterThan(1200);
    for (const phone of phones) {
      expect(phone).toMatch(/^\+47[49]\d{7}$/);
      const parsed = parsePhoneNumberFromString(phone);
      expect(parsed?.isValid(), phone).toBe(true);
      expect(parsed?.getType(), phone).toBe('MOBILE');
    }
    expect(new Set(phones).size).toBe(phones.length);
    expect(contacts.some((c) => c.phone === '+4700000717')).toBe(false);
    const towns = new Map(contacts.map((c) => [c.city, c.region]));
    expect(towns.get('Oslo')).toBe('Oslo');
    expect(towns.get('Bergen')).toBe('Vestland');
    expect(towns.get('Tromsø')).toBe('Troms');
    for (const contact of contacts) expect(contact.postalCode).toMatch(/^\d{4}$/);
    // Oslo's postal codes are 0150 to 1295.
    for (const contact of contacts.filter((c) => c.city === 'Oslo')) expect(Number(contact.postalCode)).toBeLessThanOrEqual(1295);
    // Bokmål names: æ, ø or å appear in many, and the emails write them plainly (ø as o).
    expect(contacts.filter((c) => /[æøåÆØÅ]/.test(c.name ?? '')).length).toBeGreaterThan(100);
    for (const contact of contacts) if (contact.email) expect(contact.email).toMatch(/^[a-z0-9.-]+@[a-z0-9.-]+$/);
    expect(contacts.filter((c) => c.email?.endsWith('.no')).length).toBeGreaterThan(300);
  });

  it('gives Lisbon Coffee Roasters Portuguese people: real towns with their postcodes and districts, valid PT mobiles', async () => {
    const contacts = await everyContact(first, demo.workspaces[1]!.key);
    expectTowns(contacts, PORTUGUESE_TOWNS, /^\d{4}-\d{3}$/, (code) => Number(code.slice(0, 4)));
    expectPhones(contacts, 'PT', /^\+3519[1236]\d{7}$/);
    for (const phone of contacts.flatMap((c) => (c.phone ? [c.phone] : []))) expect(parsePhoneNumberFromString(phone)?.getType(), phone).toBe('MOBILE');
    // Portuguese names (ã, ç, é...), written plainly in the emails, at providers common in Portugal.
    expect(contacts.filter((c) => /[ãõçáéíóúâêô]/i.test(c.name ?? '')).length).toBeGreaterThan(30);
    for (const contact of contacts) if (contact.email) expect(contact.email).toMatch(/^[a-z0-9.-]+@[a-z0-9.-]+$/);
    expect(contacts.filter((c) => c.email?.endsWith('.pt')).length).toBeGreaterThan(50);
    expect(contacts.some((c) => /^(Rua|Avenida|Praça|Largo|Travessa|Alameda|Estrada|Beco|Calçada|Rotunda|Bairro|Urbanização|Ladeira|Quinta)\b/.test(c.address ?? ''))).toBe(true);
  });

  it('gives Brooklyn Book Club New Yorkers: boroughs and neighborhoods with their ZIP codes, valid New York numbers', async () => {
    const contacts = await everyContact(first, demo.workspaces[2]!.key);
    expectTowns(contacts, NEW_YORK_TOWNS, /^\d{5}$/, Number);
    expectPhones(contacts, 'US', /^\+1(718|347|929|917|646|212)[2-9]\d{6}$/);
    expect(contacts.filter((c) => c.email?.endsWith('.com') || c.email?.endsWith('.net')).length).toBe(contacts.filter((c) => c.email).length);
  });

  it("sells each shop's own trade: its collections, and products from its own lists, none named from faker's commerce words", async () => {
    const trades: Trade[] = ['outdoor', 'coffee', 'books'];
    // faker's commerce product names are "<adjective> <material> <product>" ("Frozen Concrete Chair").
    const commerce = faker.definitions.commerce.product_name;
    const fakerWords = new RegExp(`\\b(${[...commerce.material, ...commerce.product, ...commerce.adjective].join('|')})\\b`);
    for (const [index, trade] of trades.entries()) {
      const key = demo.workspaces[index]!.key;
      const products = await everyItem<Product>(first, key, 'products');
      const collections = await everyItem<Collection>(first, key, 'collections');
      expect(products).toHaveLength(60);
      expect(collections.map((c) => c.title).sort()).toEqual([...TRADES[trade].collections].sort());
      const known = new Map(TRADES[trade].products.map((product) => [product.title, product]));
      expect(new Set(products.map((p) => p.title)).size).toBe(60);
      for (const product of products) {
        const listed = known.get(product.title ?? '');
        expect(listed, `${product.title} is a ${trade} product`).toBeDefined();
        expect(product.type).toBe(listed!.type);
        expect(product.title).not.toMatch(fakerWords);
        expect(TRADES[trade].vendors).toContain(product.vendor);
        expect(product.price).toBeGreaterThanOrEqual(listed!.price[0]);
        expect(product.price).toBeLessThanOrEqual(listed!.price[1]);
        expect(product.collections.length).toBeGreaterThan(0);
      }
    }
    const outdoor = await everyItem<Product>(first, demo.workspaces[0]!.key, 'products');
    expect(outdoor.some((p) => /Jacket|Boots|Tent|Pack/.test(p.title ?? ''))).toBe(true);
    expect(outdoor.some((p) => /Chair|Concrete|Frozen/.test(p.title ?? ''))).toBe(false);
  });

  it('is the same people and the same products on every seed', async () => {
    for (const index of [0, 1, 2]) {
      const people = async (server: TestServer, result: DemoSeedResult) => (await everyContact(server, result.workspaces[index]!.key)).map((c) => `${c.name}|${c.phone}|${c.city}|${c.postalCode}`).sort();
      expect(await people(second, again)).toEqual(await people(first, demo));
      const products = async (server: TestServer, result: DemoSeedResult) => (await everyItem<Product>(server, result.workspaces[index]!.key, 'products')).map((p) => `${p.title}|${p.price}|${p.vendor}`).sort();
      expect(await products(second, again)).toEqual(await products(first, demo));
    }
  });
});
