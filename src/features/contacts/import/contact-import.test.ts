import fc from 'fast-check';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { loadErrorSentences } from '@/lib/error-sentence';
import { contactCreateSchema } from '@/api/contacts';
import { parseFilter } from '@/api/filter/parse';
import { printFilter } from '@/api/filter/print';
import type { FilterNode } from '@/api/filter/ast';
import type { CsvTable } from '@/lib/csv-table';
import { buildReport, reportTableCsv } from '@/lib/jobs/job-report';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactStepHandlers } from '../contact-steps';
import type { StepOutcome, StepRecord } from '@/lib/jobs/job-types';
import {
  type CleanOptions,
  type CleanResult,
  type ContactMapping,
  IMPORT_FIELDS,
  LookupBatcher,
  RowMerger,
  autoMap,
  buildPlan,
  cleanRow,
  TableCleaner,
  defaultCountry,
  entryLookups,
  fitMapping,
  indexExisting,
  lookupFilters,
  recogniseFormat,
  refusedCsv,
  splitTags,
  toE164,
  toJobSpec,
  updatedTag,
  splitAddress,
  countryOfNumbers,
  countryOfE164,
  chooseCountry,
  COUNTRY_SAMPLE,
  canonicalTags,
  tagSpellings,
} from './contact-import';

// The report reads each step through its kind's handler (src/lib/jobs/step-kinds.ts).
registerStepHandlers(...contactStepHandlers);

const NO: CleanOptions = { country: 'NO' };

describe('IMPORT_FIELDS', () => {
  it('offers every field of the create request, so a new contract field is not silently left out', () => {
    expect(IMPORT_FIELDS.map((field) => field.key).sort()).toEqual(Object.keys(contactCreateSchema.shape).sort());
  });
});

describe('autoMap', () => {
  it.each([
    [
      'Mailchimp',
      ['Email Address', 'First Name', 'Last Name', 'Address', 'Phone Number', 'MEMBER_RATING', 'OPTIN_TIME', 'TAGS'],
      { email: [0], name: [1, 2], address: [3], phone: [4], tags: [7] },
    ],
    [
      'HubSpot',
      ['Record ID', 'First Name', 'Last Name', 'Email', 'Phone Number', 'Street Address', 'City', 'State/Region', 'Postal Code', 'Mobile Phone Number'],
      { email: [3], name: [1, 2], phone: [4], address: [5], city: [6], region: [7], postalCode: [8] },
    ],
    ['Brevo', ['EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS'], { email: [0], name: [1, 2], phone: [3] }],
    [
      'our own export',
      ['id', 'name', 'email', 'phone', 'state', 'tags', 'source', 'address', 'city', 'postalCode', 'region', 'created', 'updated'],
      { name: [1], email: [2], phone: [3], tags: [5], source: [6], address: [7], city: [8], postalCode: [9], region: [10] },
    ],
    ['a Norwegian sheet', ['Fornavn', 'Etternavn', 'E-post', 'Mobil', 'Poststed', 'Stikkord', 'Emneknagger'], { name: [0, 1], email: [2], phone: [3], city: [4], tags: [5, 6] }],
    ['a full name wins over first and last', ['First name', 'Full Name', 'Last name'], { name: [1] }],
    ['unknown columns stay out', ['Favourite colour', 'Shoe size'], {}],
  ])('recognises %s', (_name, headers, mapping) => {
    expect(autoMap(headers)).toEqual(mapping);
  });

  it.each([
    [['Email Address', 'First Name', 'Last Name', 'TAGS'], 'Mailchimp'],
    [['Record ID', 'First Name', 'Last Name', 'Email'], 'HubSpot'],
    [['EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS'], 'Brevo'],
    [['email', 'name'], null],
  ])('names the export format of %j: %s', (headers, format) => {
    expect(recogniseFormat(headers)).toBe(format);
  });

  it('never maps a column to two fields, whatever the headers', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('Email', 'email', 'Phone', 'SMS', 'Name', 'First Name', 'Last Name', 'Tags', 'TAG', 'City', 'x', ''), { maxLength: 12 }), (headers) => {
        const columns = Object.values(autoMap(headers)).flat();
        expect(new Set(columns).size).toBe(columns.length);
        for (const column of columns) expect(column).toBeLessThan(headers.length);
      }),
    );
  });

  it('fits a remembered mapping to a file: columns beyond it dropped, one column for single fields', () => {
    expect(fitMapping({ email: [0, 1], name: [1, 5], tags: [2, 2, 9], city: [-1] }, 3)).toEqual({ email: [0], name: [1], tags: [2] });
  });
});

describe('defaultCountry', () => {
  it.each([
    [['nb-NO', 'en'], 'NO'],
    [['nn'], 'NO'],
    [['no'], 'NO'],
    [['en-NO'], 'NO'],
    [['en-US', 'nb'], 'NO'],
    [['sv-SE'], 'SE'],
    [['en'], null],
    [[], null],
  ])('is %j -> %s', (languages, country) => {
    expect(defaultCountry(languages)).toBe(country);
  });
});

describe('toE164', () => {
  it.each([
    ['912 34 567', 'NO', '+4791234567'],
    ['+47 912 34 567', 'NO', '+4791234567'],
    ['0047 91234567', 'SE', '+4791234567'],
    ['(123) 456-7890', 'US', null], // no US area code starts with 1 (the min build checks leading digits and lengths)
    ['(212) 555-2368', 'US', '+12125552368'],
    ['+1 212 555 2368', 'NO', '+12125552368'],
    ['070-123 45 67', 'SE', '+46701234567'],
    ['12', 'NO', null],
    ['hello', 'NO', null],
    ['912 34 567', null, null],
  ] as const)('reads %j with default country %s as %s', (text, country, e164) => {
    expect(toE164(text, country)).toBe(e164);
  });
});

describe('splitTags', () => {
  it.each([
    ['vip, lead', ['vip', 'lead']],
    ['"Customer","Newsletter"', ['Customer', 'Newsletter']],
    [' , ,x', ['x']],
    ['', []],
  ])('splits %j', (text, tags) => {
    expect(splitTags(text)).toEqual(tags);
  });
});

describe('splitAddress (issue 34 point 3)', () => {
  it.each([
    ['Åsveien 102  Stavanger    4006  NO', { address: 'Åsveien 102', city: 'Stavanger', postalCode: '4006', country: 'NO' }],
    ['Storgata 1  H0301  Oslo    0155  NO', { address: 'Storgata 1, H0301', city: 'Oslo', postalCode: '0155', country: 'NO' }],
    ['675 Ponce de Leon Ave NE  Suite 5000  Atlanta  GA  30308  US', { address: '675 Ponce de Leon Ave NE, Suite 5000', city: 'Atlanta', region: 'GA', postalCode: '30308', country: 'US' }],
    ['1 Main St  Portland  OR  97201  US', { address: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' }],
    ['Kirkegata 5  Bergen  5003', { address: 'Kirkegata 5', city: 'Bergen', postalCode: '5003' }],
    ['Kirkegata 5  Bergen', { address: 'Kirkegata 5', city: 'Bergen' }],
    ['Kirkegata 5, 5003 Bergen', { address: 'Kirkegata 5, 5003 Bergen' }],
    ['   ', {}],
  ])('splits %j', (text, parts) => {
    expect(splitAddress(text)).toEqual(parts);
  });
});

describe('the phones’ default country (issue 34 point 2)', () => {
  const norwegian = ['912 34 567', '41234567', '22 33 44 55', '+47 912 34 568', '0047 98765432', '481 23 456'];

  it('takes the country most of the file’s national numbers are valid in, whatever the browser says', () => {
    expect(countryOfNumbers(norwegian)).toBe('NO');
    expect(chooseCountry({ fileNumbers: norwegian, workspacePhones: [], languages: ['en-US'] })).toEqual({ country: 'NO', from: 'file' });
    expect(countryOfNumbers(['(202) 555-0143', '415-555-2671', '212 555 0199'], ['US'])).toBe('US');
    // 8-digit numbers are valid, and grouped alike, in Norway and Denmark (and Svalbard, which shares +47): the
    // countries the file's addresses name tell them apart, and the country that owns the calling code wins over Svalbard.
    const nordic = ['912 34 567', '481 23 456', '22 33 44 55'];
    expect(countryOfNumbers(nordic)).toBeNull();
    expect(countryOfNumbers(nordic, [], ['NO', 'no'])).toBe('NO');
    expect(countryOfNumbers(nordic, [], ['DK'])).toBe('DK');
    expect(chooseCountry({ fileNumbers: nordic, fileCountries: ['NO'], workspacePhones: [], languages: ['en-US'] })).toEqual({ country: 'NO', from: 'file' });
  });

  it('ignores international numbers and tries at most COUNTRY_SAMPLE numbers', () => {
    expect(countryOfNumbers(['+4791234567', '004791234567'])).toBeNull();
    expect(COUNTRY_SAMPLE).toBe(60);
  });

  it('falls back to the workspace’s contacts, then the browser', () => {
    expect(countryOfE164(['+4791234567', '+4622334455', '+4741234567'])).toBe('NO');
    expect(chooseCountry({ fileNumbers: ['+46 70 123 45 67'], workspacePhones: ['+4791234567'], languages: ['en-US'] })).toEqual({ country: 'NO', from: 'workspace' });
    expect(chooseCountry({ fileNumbers: [], workspacePhones: [], languages: ['en-US'] })).toEqual({ country: 'US', from: 'browser' });
  });

  it('tells apart countries where the numbers are all valid: by their grouping, the file’s international numbers, then the preference', () => {
    // 8 digits are valid in dozens of countries with the min metadata: alone, nothing tells them apart.
    expect(countryOfNumbers(['41234567', '91234567'])).toBeNull();
    expect(countryOfNumbers(['41234567', '91234567', '+4792345678'])).toBe('NO');
    expect(countryOfNumbers(['41234567', '91234567'], ['NO', 'US'])).toBe('NO');
  });
});

describe('tags in the workspace’s spelling (issue 34 point 4)', () => {
  it('maps a file’s tags onto the workspace’s whatever their case, merges repeats, keeps the import’s tag, and says what it renamed', () => {
    const spellings = tagSpellings(['vip', 'Newsletter']);
    expect(canonicalTags(['VIP', 'newsletter', 'Vip', 'Oslo'], spellings, 'import-x')).toEqual(['vip', 'Newsletter', 'Oslo']);
    expect(canonicalTags(['OSLO', 'import-x'], spellings, 'import-x')).toEqual(['Oslo', 'import-x']);
    expect([...spellings.renamed]).toEqual([['VIP', 'vip'], ['newsletter', 'Newsletter'], ['Vip', 'vip'], ['OSLO', 'Oslo']]);
  });

  it('gives every row of a file the same spelling, and the plan the renamed tags', () => {
    const headers = ['Email Address', 'TAGS'];
    const rows = [['a@example.com', 'VIP'], ['b@example.com', 'vip, Kunde'], ['c@example.com', 'kunde']].map((cells, index) => ({ row: index + 2, cells }));
    const cleaned = cleanTable({ headers, rows }, autoMap(headers), { ...NO, existingTags: ['vip'] });
    expect(cleaned.entries.map((entry) => entry.body.tags)).toEqual([['vip'], ['vip', 'Kunde'], ['Kunde']]);
    expect(cleaned.retagged).toEqual([['VIP', 'vip'], ['kunde', 'Kunde']]);
  });
});

describe('cleanRow', () => {
  // A row the contract refuses is told in words (the `sentences` catalog, loaded with the dialog and the plan worker).
  beforeAll(() => loadErrorSentences());
  const headers = ['Email Address', 'First Name', 'Last Name', 'Phone Number', 'TAGS', 'Notes'];
  const mapping = autoMap(headers);
  const row = (values: Partial<Record<string, string>>) => headers.map((header) => values[header] ?? '');

  it('trims, joins the name, normalises the phone, splits the tags and adds the import tag and source', () => {
    const cleaned = cleanRow(
      row({ 'Email Address': ' Ann@Example.com ', 'First Name': ' Ann ', 'Last Name': 'Berg', 'Phone Number': '912 34 567', TAGS: 'vip, lead,vip' }),
      mapping,
      { country: 'NO', importTag: 'import-1', source: 'mailchimp.csv' },
    );
    expect(cleaned).toEqual({
      ok: true,
      body: { email: 'Ann@Example.com', name: 'Ann Berg', phone: '+4791234567', tags: ['vip', 'lead', 'import-1'], source: 'mailchimp.csv' },
    });
  });

  it('takes the source column over the default source, and leaves empty cells out', () => {
    const cleaned = cleanRow(['a@example.com', 'shop'], { email: [0], source: [1] }, { country: 'NO', source: 'file.csv' });
    expect(cleaned).toEqual({ ok: true, body: { email: 'a@example.com', source: 'shop' } });
    expect(cleanRow(['a@example.com', ''], { email: [0], source: [1] }, NO)).toEqual({ ok: true, body: { email: 'a@example.com' } });
  });

  it.each([
    [{ 'Email Address': 'ann@', 'First Name': 'Ann' }, "email 'ann@' is not a valid email address"],
    [{ 'Email Address': 'ann at example.com' }, "email 'ann at example.com' is not a valid email address"],
    [{ 'Phone Number': '12' }, "phone '12' is not a valid phone number (read with default country NO)"],
    [{ 'Email Address': 'x@', 'Phone Number': 'abc' }, "email 'x@' is not a valid email address; phone 'abc' is not a valid phone number (read with default country NO)"],
    [{ TAGS: 'vip' }, 'no email, phone or name'],
    [{ 'First Name': 'Ann', TAGS: 'x'.repeat(65) }, `The tag “${'x'.repeat(65)}” is longer than 64 characters.`],
  ])('refuses %j: %s', (values, reason) => {
    expect(cleanRow(row(values), mapping, NO)).toEqual({ ok: false, reason });
  });

  it('imports a row whose phone cannot be read without the phone, and says so (issue 34 point 2)', () => {
    expect(cleanRow(row({ 'Phone Number': '12', 'First Name': 'Ann' }), mapping, NO)).toEqual({
      ok: true,
      body: { name: 'Ann' },
      withoutPhone: "phone '12' is not a valid phone number (read with default country NO); imported without the phone",
    });
    const cleaned = cleanTable({ headers, rows: [{ row: 2, cells: row({ 'Phone Number': '555-0100', 'Email Address': 'a@example.com' }) }] }, mapping, NO);
    expect(cleaned.entries).toHaveLength(1);
    expect(cleaned.withoutPhone?.map(({ row, reason }) => [row, reason])).toEqual([[2, "phone '555-0100' is not a valid phone number (read with default country NO); imported without the phone"]]);
  });

  it('splits Mailchimp’s double-space address into street, city and postcode, leaving fields a column fed (issue 34 point 3)', () => {
    const cells = ['a@example.com', 'Åsveien 102  Stavanger    4006  NO', ''];
    expect(cleanRow(cells, { email: [0], address: [1] }, NO)).toEqual({ ok: true, body: { email: 'a@example.com', address: 'Åsveien 102', city: 'Stavanger', postalCode: '4006' } });
    expect(cleanRow([...cells.slice(0, 2), 'Sandnes'], { email: [0], address: [1], city: [2] }, NO)).toEqual({
      ok: true,
      body: { email: 'a@example.com', address: 'Åsveien 102', city: 'Sandnes', postalCode: '4006' },
    });
  });

  it.each([
    ['addDirectly', 'yes', true],
    ['addDirectly', 'Nei', false],
    ['useEmailByDefault', '1', true],
  ] as const)('reads %s %j as %s', (field, text, value) => {
    expect(cleanRow(['a@example.com', text], { email: [0], [field]: [1] }, NO)).toEqual({ ok: true, body: { email: 'a@example.com', [field]: value } });
  });

  it.each([
    [{ addDirectly: [1] }, 'maybe', "addDirectly: 'maybe' is not true/false, yes/no or 1/0"],
    [{ statusTags: [1] }, '{oops', 'statusTags: is not valid JSON'],
    [{ statusTags: [1] }, '[1]', 'The status tags has the wrong kind of value (a object is expected).'],
    [{ notificationSettings: [1] }, 'fax', 'The notification setting must be one of email, sms, email,sms, or none.'],
    [{ image: [1] }, 'ftp://x', 'The image URL must be a full web address starting with http:// or https://.'],
  ])('refuses a bad %j cell %j with the contract’s reason, in words', (extra, text, reason) => {
    expect(cleanRow(['a@example.com', text], { email: [0], ...extra }, NO)).toEqual({ ok: false, reason });
  });

  it('accepts only rows the contract accepts, and never throws', () => {
    const cell = fc.oneof(fc.string(), fc.emailAddress(), fc.constantFrom('+4791234567', '912 34 567', 'yes', '{}', 'email,sms', 'a,b'));
    fc.assert(
      fc.property(fc.array(cell, { minLength: 6, maxLength: 6 }), fc.constantFrom('NO' as const, 'US' as const, null), (cells, country) => {
        const cleaned = cleanRow(cells, { email: [0], phone: [1], name: [2, 3], tags: [4], notificationSettings: [5] }, { country });
        if (cleaned.ok) {
          expect(contactCreateSchema.safeParse(cleaned.body).success).toBe(true);
          expect(cleaned.body.email ?? cleaned.body.phone ?? cleaned.body.name).toBeTruthy();
        } else expect(cleaned.reason.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('RowMerger', () => {
  it('merges rows repeating an email in another letter case or a phone, uniting tags and filling empty fields', () => {
    const merger = new RowMerger();
    merger.add(2, { email: 'ann@example.com', tags: ['a'] });
    merger.add(3, { email: 'ANN@EXAMPLE.COM', name: 'Ann', phone: '+4791234567', tags: ['b', 'a'] });
    merger.add(4, { phone: '+4791234567', tags: ['c'] });
    merger.add(5, { email: 'bob@example.com', phone: '+4791234567' });
    merger.add(6, { name: 'Nameless' });
    expect(merger.entries).toEqual([
      { rows: [2, 3, 4, 5], body: { email: 'ann@example.com', name: 'Ann', phone: '+4791234567', tags: ['a', 'b', 'c'] } },
      { rows: [6], body: { name: 'Nameless' } },
    ]);
  });

  it('does not fill an email another entry holds', () => {
    const merger = new RowMerger();
    merger.add(2, { phone: '+4791234567' });
    merger.add(3, { email: 'bob@example.com' });
    merger.add(4, { phone: '+4791234567', email: 'BOB@example.com' });
    expect(merger.entries.map((entry) => [entry.rows, entry.body])).toEqual([
      [[2], { phone: '+4791234567' }],
      [[3, 4], { email: 'bob@example.com' }],
    ]);
  });

  it('leaves no two entries with the same email (any case) or phone, and keeps every row once', () => {
    const body = fc.record(
      { email: fc.constantFrom('a@x.io', 'A@X.IO', 'b@x.io', 'B@x.io', 'c@x.io'), phone: fc.constantFrom('+4791234567', '+4791234568', '+4791234569'), tags: fc.array(fc.constantFrom('t1', 't2', 't3'), { maxLength: 2 }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(body, { maxLength: 30 }), (bodies) => {
        const merger = new RowMerger();
        const taken = { email: [] as string[], phone: [] as string[] };
        bodies.forEach((b, i) => {
          merger.add(i + 2, b);
          // Taken after some rows only, as a chunk ends.
          if (i % 3 === 2) {
            const keys = merger.takeKeys();
            taken.email.push(...keys.email);
            taken.phone.push(...keys.phone);
          }
        });
        const last = merger.takeKeys();
        taken.email.push(...last.email);
        taken.phone.push(...last.phone);
        const emails = merger.entries.flatMap((e) => (e.body.email ? [e.body.email.toLowerCase()] : []));
        const phones = merger.entries.flatMap((e) => (e.body.phone ? [e.body.phone] : []));
        expect(new Set(emails).size).toBe(emails.length);
        expect(new Set(phones).size).toBe(phones.length);
        expect(merger.entries.flatMap((e) => e.rows).sort((a, b) => a - b)).toEqual(bodies.map((_, i) => i + 2));
        const tags = new Set(bodies.flatMap((b) => b.tags ?? []));
        expect(new Set(merger.entries.flatMap((e) => e.body.tags ?? []))).toEqual(tags);
        // The look-up keys, each once over every take: exactly the entries' emails (lower case) and phones, however rows merged.
        expect(taken.email.sort()).toEqual([...emails].sort());
        expect(taken.phone.sort()).toEqual([...phones].sort());
        expect(merger.takeKeys()).toEqual({ email: [], phone: [] });
      }),
    );
  });
});

describe('lookupFilters', () => {
  it('puts at most 100 values in each filter, within 2,000 characters, every value once, and prints what the parser reads back', () => {
    fc.assert(
      fc.property(fc.array(fc.emailAddress(), { maxLength: 400 }), (emails) => {
        const filters = lookupFilters('email', emails);
        const values: unknown[] = [];
        for (const filter of filters) {
          const text = printFilter(filter);
          expect(text.length).toBeLessThanOrEqual(2000);
          const parsed = parseFilter(text);
          expect(parsed).toEqual(filter);
          if (filter.kind !== 'in') throw new Error('an in filter');
          expect(filter.values.length).toBeLessThanOrEqual(100);
          values.push(...filter.values);
        }
        expect(values).toEqual([...new Set(emails)]);
      }),
      { numRuns: 50 },
    );
  });

  it('cuts values added one by one (LookupBatcher) into the filters lookupFilters makes of them all', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.emailAddress(), fc.constantFrom('a@x.io', 'b@x.io')), { maxLength: 300 }), (emails) => {
        const emitted: FilterNode[] = [];
        const batcher = new LookupBatcher('email', (filter) => emitted.push(filter));
        for (const email of emails) batcher.add(email);
        batcher.flush();
        expect(emitted).toEqual(lookupFilters('email', emails));
      }),
      { numRuns: 50 },
    );
  });

  it('makes the same filters keeping no set of the values seen when told each value comes once (unique)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.emailAddress(), { maxLength: 300 }), (emails) => {
        const emitted: FilterNode[] = [];
        const batcher = new LookupBatcher('email', (filter) => emitted.push(filter), { unique: true });
        for (const email of emails) batcher.add(email);
        batcher.flush();
        expect(emitted).toEqual(lookupFilters('email', emails));
      }),
      { numRuns: 50 },
    );
  });

  it('sends 100 phones in one request', () => {
    const phones = Array.from({ length: 250 }, (_, i) => `+47${91000000 + i}`);
    expect(lookupFilters('phone', phones).map((f) => (f.kind === 'in' ? f.values.length : 0))).toEqual([100, 100, 50]);
  });
});

/** A whole table cleaned and merged at once, as one chunk. */
function cleanTable(table: CsvTable, mapping: ContactMapping, options: CleanOptions): CleanResult {
  const cleaner = new TableCleaner(table.headers, mapping, options);
  cleaner.add(table.rows);
  return cleaner.result();
}

describe('TableCleaner and buildPlan', () => {
  const table = {
    headers: ['Email', 'Name', 'Phone', 'Tags'],
    rows: [
      { row: 2, cells: ['new@example.com', 'New', '', 'a'] },
      { row: 3, cells: ['OLD@Example.com', 'Old', '', 'a'] },
      { row: 4, cells: ['new@EXAMPLE.com', '', '912 34 567', 'b'] },
      { row: 5, cells: ['bad@', 'Bad', '', ''] },
      { row: 6, cells: ['', '', '+47 912 34 568', ''] },
      { row: 7, cells: ['same@example.com', '', '', 'kept'] },
      { row: 8, cells: ['', '', '', 'lonely'] },
    ],
  };
  const existing = indexExisting([
    { id: 'c-old', email: 'old@example.com', phone: null, tags: ['a'] },
    { id: 'c-phone', email: null, phone: '+4791234568', tags: [] },
    { id: 'c-same', email: 'Same@Example.com', phone: null, tags: ['kept'] },
  ]);

  it('indexes answers added one by one as it indexes them all at once (the first contact of an email or phone kept)', () => {
    const contacts = [
      { id: 'c-1', email: 'Old@Example.com', phone: '+4791234568', tags: ['a'] },
      { id: 'c-2', email: 'old@example.com', phone: null, tags: ['b'] },
      { id: 'c-3', email: null, phone: '+4791234568', tags: [] },
    ];
    const added = contacts.reduce((into, contact) => indexExisting([contact], into), indexExisting([]));
    expect(added).toEqual(indexExisting(contacts));
    expect([...added.byEmail]).toEqual([['old@example.com', { id: 'c-1', tags: ['a'] }]]);
    expect([...added.byPhone]).toEqual([['+4791234568', { id: 'c-1', tags: ['a'] }]]);
  });

  it('classifies each row new, exists (tags added or unchanged) or refused, merging repeats', async () => {
    const cleaned = cleanTable(table, autoMap(table.headers), { country: 'NO', importTag: 'imp' });
    const plan = buildPlan(cleaned, existing);
    expect(plan.counts).toEqual({ new: 1, exists: 3, tagged: 3, unchanged: 0, refused: 2, merged: 1 });
    expect(plan.steps).toEqual([
      { kind: 'create-contact', body: { email: 'new@example.com', name: 'New', phone: '+4791234567', tags: ['a', 'imp', 'b'] }, rows: [2, 4] },
      { kind: 'patch-tags', contactId: 'c-old', tagsToAdd: ['imp'], tagsToRemove: [], rows: [3] },
      { kind: 'patch-tags', contactId: 'c-phone', tagsToAdd: ['imp'], tagsToRemove: [], rows: [6] },
      { kind: 'patch-tags', contactId: 'c-same', tagsToAdd: ['imp'], tagsToRemove: [], rows: [7] },
    ]);
    expect(plan.refused.map(({ row, reason }) => [row, reason])).toEqual([
      [5, "email 'bad@' is not a valid email address"],
      [8, 'no email, phone or name'],
    ]);
    expect(plan.refused[0]!.values).toEqual({ Email: 'bad@', Name: 'Bad', Phone: '', Tags: '' });
  });

  it('gives the import tag only to the contacts it creates; those that existed get <tag>-updated (issue 34 point 1)', () => {
    const cleaned = cleanTable(table, autoMap(table.headers), { country: 'NO', importTag: 'import-2026-11-28' });
    const plan = buildPlan(cleaned, existing, 'import-2026-11-28');
    expect(plan.steps).toEqual([
      { kind: 'create-contact', body: { email: 'new@example.com', name: 'New', phone: '+4791234567', tags: ['a', 'import-2026-11-28', 'b'] }, rows: [2, 4] },
      { kind: 'patch-tags', contactId: 'c-old', tagsToAdd: ['import-2026-11-28-updated'], tagsToRemove: [], rows: [3] },
      { kind: 'patch-tags', contactId: 'c-phone', tagsToAdd: ['import-2026-11-28-updated'], tagsToRemove: [], rows: [6] },
      { kind: 'patch-tags', contactId: 'c-same', tagsToAdd: ['import-2026-11-28-updated'], tagsToRemove: [], rows: [7] },
    ]);
    expect(updatedTag('x'.repeat(64))).toBe('x'.repeat(56) + '-updated');
  });

  it('hands every look-up key while it cleans, chunk by chunk, and each once: the look-ups of the entries', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      row: i + 2,
      // Repeats in another letter case, phones merged into an earlier row, rows with a phone only.
      cells: [i % 3 === 2 ? '' : `P${i % 120}@Example.com`, `N${i}`, i % 4 === 0 ? `912 ${String(i % 90).padStart(2, '0')} 567` : '', 't'],
    }));
    const big = { headers: table.headers, rows };
    const handed: { email: string[]; phone: string[] }[] = [];
    const cleaner = new TableCleaner(big.headers, autoMap(big.headers), { country: 'NO' });
    for (let start = 0; start < rows.length; start += 25) {
      cleaner.add(rows.slice(start, start + 25));
      handed.push(cleaner.takeKeys());
    }
    const cleaned = cleaner.result();
    expect(cleaner.rows).toBe(300);
    expect(cleaned).toEqual(cleanTable(big, autoMap(big.headers), { country: 'NO' }));
    const filters: FilterNode[] = [];
    const batchers = { email: new LookupBatcher('email', (f) => filters.push(f)), phone: new LookupBatcher('phone', (f) => filters.push(f)) };
    for (const keys of handed) {
      keys.email.forEach((email) => batchers.email.add(email));
      keys.phone.forEach((phone) => batchers.phone.add(phone));
    }
    batchers.email.flush();
    batchers.phone.flush();
    const values = (list: FilterNode[]) => list.flatMap((f) => (f.kind === 'in' ? f.values.map(String) : [])).sort();
    expect(values(filters)).toEqual(values(entryLookups(cleaned.entries)));
    expect(new Set(values(filters)).size).toBe(values(filters).length);
  });

  it('sends nothing for an existing contact that has every tag already', async () => {
    const cleaned = cleanTable(table, autoMap(table.headers), { country: 'NO' });
    const plan = buildPlan(cleaned, existing);
    expect(plan.unchanged).toEqual([3, 6, 7]);
    expect(plan.counts).toMatchObject({ new: 1, exists: 3, tagged: 0, unchanged: 3 });
    expect(plan.steps.map((step) => step.kind)).toEqual(['create-contact']);
    expect(toJobSpec(plan, { fileName: 'x.csv' })).toMatchObject({ kind: 'contacts-import', report: { unchanged: [3, 6, 7] } });
  });

  it("names the rows sent without their phone in the job's report CSV, with the reason, wherever they land (issue 34 point 2)", () => {
    const file = {
      headers: ['Email', 'Name', 'Phone'],
      rows: [
        { row: 2, cells: ['ann@example.com', 'Ann', '12'] }, // new, phone unreadable
        { row: 3, cells: ['old@example.com', 'Old', '555'] }, // exists with nothing to add, phone unreadable: unchanged
        { row: 4, cells: ['bo@example.com', 'Bo', '912 34 567'] }, // new, phone read
        { row: 5, cells: ['ANN@example.com', '', '34'] }, // repeats row 2: merged into it
      ],
    };
    const plan = buildPlan(cleanTable(file, autoMap(file.headers), NO), indexExisting([{ id: 'c-old', email: 'old@example.com', phone: null, tags: [] }]), 'import-x');
    expect(plan.withoutPhone?.map(({ row }) => row)).toEqual([2, 3, 5]);
    const spec = toJobSpec(plan, { fileName: 'x.csv' });
    expect(spec.report.withoutPhone).toEqual([
      { row: 2, reason: "phone '12' is not a valid phone number (read with default country NO); imported without the phone" },
      { row: 3, reason: "phone '555' is not a valid phone number (read with default country NO); imported without the phone" },
      { row: 5, reason: "phone '34' is not a valid phone number (read with default country NO); imported without the phone" },
    ]);
    const records: StepRecord[] = spec.steps.map((step, index) => ({ jobId: 'j', index, step, status: 'settled', outcome: { kind: 'created', id: `c-${index}` } satisfies StepOutcome }));
    const report = buildReport(records, spec.report);
    const created = Papa.parse<Record<string, string>>(reportTableCsv(report.created).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    // The phone read from '912 34 567' stays as the number it is (docs/decisions.md section 7, revised), not '+47...
    expect(created[1]!.phone).toMatch(/^\+47/);
    expect(created.map((row) => [row.email, row.phone === '', row.withoutPhone])).toEqual([
      ['ann@example.com', true, "phone '12' is not a valid phone number (read with default country NO); imported without the phone; phone '34' is not a valid phone number (read with default country NO); imported without the phone"],
      ['bo@example.com', false, ''],
    ]);
    expect(report.unchanged.rows.map((row) => [row.rows, row.withoutPhone])).toEqual([['3', "phone '555' is not a valid phone number (read with default country NO); imported without the phone"]]);
    expect(report.refused.rows).toEqual([]);
  });
});

describe('refusedCsv', () => {
  it('writes the file’s columns and a reason, guarding formulas but not international phones in the phone column', () => {
    const text = refusedCsv(
      ['Email', 'Phone', 'Note'],
      [{ row: 2, values: { Email: '=HYPERLINK("x")', Phone: '+47 912 34 567', Note: '+1, two' }, reason: "email '=HYPERLINK(\"x\")' is not a valid email address" }],
      new Set([1]),
    );
    expect(text).toBe(`Email,Phone,Note,reason\r\n"'=HYPERLINK(""x"")",+47 912 34 567,"'+1, two","email '=HYPERLINK(""x"")' is not a valid email address"\r\n`);
  });

  it('round-trips through papaparse with no cell starting a formula', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 10 }), (rows) => {
        const refused = rows.map(([a, reason], i) => ({ row: i + 2, values: { A: a }, reason }));
        const { data, errors } = Papa.parse<string[]>(refusedCsv(['A'], refused), { delimiter: ',', newline: '\r\n' });
        expect(errors).toEqual([]);
        expect(data.length - 1).toBe(rows.length + 1);
        for (const cells of data.slice(1, -1)) for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });
});

describe('in bokmål (issue 23)', () => {
  afterAll(() => activateLocale('en'));

  it('gives a refused row its reasons in the language shown, and keeps the refused-rows file’s headers machine-readable', async () => {
    await activateLocale('nb');
    expect(cleanRow(['ikke-epost'], { email: [0] }, NO)).toEqual({ ok: false, reason: 'e-post «ikke-epost» er ikke en gyldig e-postadresse' });
    expect(cleanRow([''], { email: [0] }, NO)).toEqual({ ok: false, reason: 'mangler e-post, telefon og navn' });
    // The contract's own refusal, written as a Norwegian sentence.
    const long = cleanRow(['a@example.com', 'x'.repeat(5001)], { email: [0], bio: [1] }, NO);
    expect(long.ok).toBe(false);
    expect(long.ok ? '' : long.reason).toMatch(/^Biografien .*5[\s\u00a0]?000/);
    expect(refusedCsv(['E-post'], [{ row: 2, values: { 'E-post': 'x' }, reason: 'mangler e-post, telefon og navn' }])).toBe('E-post,reason\r\nx,"mangler e-post, telefon og navn"\r\n');
  });
});
