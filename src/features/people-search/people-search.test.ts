import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '@/api/client';
import type { Contact } from '@/api/contacts';
import { printFilter } from '@/api/filter/print';
import type { SavedConnection } from '@/lib/connections';
import { personSearchFilter, samePersonFilter } from '@/lib/person-filter';
import { type WorkspaceAnswer, findPerson, personCsv, personJson, personRecords } from './people-search';

const contact = (patch: Partial<Contact>): Contact =>
  ({
    id: 'c1', feedId: 'w1', name: 'Ada', email: 'ada@example.com', phone: '+4712345678', image: null, bio: null, address: null, city: null,
    postalCode: null, region: null, source: null, systemSource: null, customMessage: null, state: 'active', tags: ['vip', 'b,c'],
    statusTags: null, follows: null, notificationSettings: { email: true, sms: false }, created: '2026-11-01T10:00:00.000Z', updated: '2026-11-02T10:00:00.000Z',
    ...patch,
  }) as Contact;

const answers: WorkspaceAnswer[] = [
  { workspaceId: 'w1', workspaceName: 'Nordic', status: 'ok', total: 1, contacts: [contact({})] },
  { workspaceId: 'w2', workspaceName: 'Lisbon', status: 'ok', total: 1, contacts: [contact({ id: 'c2', feedId: 'w2', name: '=HYPERLINK("http://x")', extra: 'kept' } as Partial<Contact>)] },
  { workspaceId: 'w3', workspaceName: 'Empty', status: 'ok', total: 0, contacts: [] },
  { workspaceId: 'w4', workspaceName: 'Closed', status: 'no-scope' },
];

describe('looking a person up', () => {
  it('searches name and email as text and the phone as digits', () => {
    expect(printFilter(personSearchFilter('ada'))).toBe("name like 'ada' or email like 'ada'");
    expect(printFilter(personSearchFilter('+47 123'))).toBe("name like '+47 123' or email like '+47 123' or phone like '+47123'");
  });

  it('finds the same person by exact email (as written and lower-cased) or phone', () => {
    expect(printFilter(samePersonFilter({ email: 'Ada@Example.com', phone: '+4712345678' })!)).toBe(
      "email eq 'Ada@Example.com' or email eq 'ada@example.com' or phone eq '+4712345678'",
    );
    expect(samePersonFilter({ email: null, phone: ' ' })).toBeUndefined();
    expect(() => findPerson([], { email: null, phone: null })).toThrow(RangeError);
  });
});

describe('everything about a person, as files', () => {
  it('names the workspace on each record and keeps every stored field', () => {
    const records = personRecords(answers);
    expect(records.map((r) => [r.workspaceName, r.id])).toEqual([['Nordic', 'c1'], ['Lisbon', 'c2']]);
    const json = JSON.parse(personJson({ email: 'ada@example.com' }, answers, 'Ask each service.', new Date('2026-11-25T17:00:00Z'))) as Record<string, unknown>;
    expect(json.foundIn).toEqual([{ workspaceId: 'w1', workspaceName: 'Nordic', records: 1 }, { workspaceId: 'w2', workspaceName: 'Lisbon', records: 1 }]);
    expect(json.notFoundIn).toEqual([{ workspaceId: 'w3', workspaceName: 'Empty' }]);
    expect(json.notSearched).toEqual([{ workspaceId: 'w4', workspaceName: 'Closed', reason: 'no-scope' }]);
    expect(json.deletion).toBe('Ask each service.');
    expect((json.records as Record<string, unknown>[])[1]).toMatchObject({ workspaceName: 'Lisbon', extra: 'kept', notificationSettings: { email: true, sms: false }, tags: ['vip', 'b,c'] });
  });

  it('writes one CSV row per record, workspace first, formula cells guarded, lists as JSON', () => {
    const csv = personCsv(answers);
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]!.slice(0, 4)).toEqual(['workspaceId', 'workspaceName', 'id', 'feedId']);
    expect(rows[0]).toContain('extra');
    expect(rows).toHaveLength(3);
    const column = (name: string) => rows[0]!.indexOf(name);
    expect(rows[2]![column('name')]).toBe('\'=HYPERLINK("http://x")');
    // An international phone number in the phone column stays as it is (docs/decisions.md section 7, revised).
    expect(rows.slice(1).map((row) => row[column('phone')])).toContain('+4712345678');
    expect(rows[1]![column('tags')]).toBe('["vip","b,c"]');
    expect(rows[1]![column('notificationSettings')]).toBe('{"email":true,"sms":false}');
    expect(rows[1]![column('extra')]).toBe('');
    expect(csv).toContain('\r\n');
  });

  it('asks no workspace whose key cannot read contacts', async () => {
    const closed = { workspaceId: 'w9', workspaceName: 'Closed', apiKey: 'k', baseUrl: '/api', permissions: { posts: 'read-only' } } as unknown as SavedConnection;
    const answered = await findPerson([closed], { email: 'a@b.c' }, { clientFor: () => { throw new Error('must not be asked'); } });
    expect(answered).toEqual([{ workspaceId: 'w9', workspaceName: 'Closed', status: 'no-scope' }]);
  });

  it('names the organization’s workspaces without a key here as not searched (issue 34 point 5)', async () => {
    const held = { workspaceId: 'w1', workspaceName: 'Nordic', organizationId: 'o1', apiKey: 'k', baseUrl: '/api', permissions: { contacts: 'read-only', feeds: 'read-only' } } as unknown as SavedConnection;
    const client = {
      listContacts: async () => ({ items: [], meta: { maxResults: 0 } }),
      listWorkspaces: async () => ({ items: [{ id: 'w1', name: 'Nordic' }, { id: 'w8', name: 'Kiosk' }], meta: { maxResults: 2 } }),
    } as unknown as ApiClient;
    const answered = await findPerson([held], { email: 'a@b.c' }, { clientFor: () => client });
    expect(answered).toEqual([
      { workspaceId: 'w1', workspaceName: 'Nordic', status: 'ok', contacts: [], total: 0 },
      { workspaceId: 'w8', workspaceName: 'Kiosk', status: 'no-key' },
    ]);
    const json = JSON.parse(personJson({ email: 'a@b.c' }, answered, 'Erase where the service can.')) as Record<string, unknown>;
    expect(json.notSearched).toEqual([{ workspaceId: 'w8', workspaceName: 'Kiosk', reason: 'no-key' }]);
  });
});
