/**
 * The demo seed (issue 23 point 13): "Nordic Outdoor Co." holds Norwegian people (bokmål names, real towns with
 * their postal codes and counties, mobile numbers a Norwegian operator issues), the seed is deterministic (its
 * speed is a benchmark's matter, not a timed test's), and the other workspaces keep their sizes. Seeded twice, on two real databases of the test target,
 * read back through the API.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/contacts';
import { seedDemo, type DemoSeedResult } from '../db/seed';
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

  it('is the same people on every seed', async () => {
    const names = async (server: TestServer, result: DemoSeedResult) => (await everyContact(server, result.workspaces[0]!.key)).map((c) => `${c.name}|${c.phone}|${c.city}`).sort();
    expect(await names(second, again)).toEqual(await names(first, demo));
  });
});
