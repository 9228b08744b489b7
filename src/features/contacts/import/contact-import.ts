/**
 * The pure part of the contacts import (issue 20 points 1 to 3), framework-free so it is unit-tested in Node:
 * - `autoMap`: which columns feed which contact field, recognising Mailchimp, HubSpot, Brevo and plain
 *   spreadsheet headers (`HEADER_ALIASES`); `name` and `tags` may take several columns (First + Last Name joined
 *   with a space; tag cells split on commas and united);
 * - `cleanRow`: one data row as the `POST /contacts` body it would send, or the reason it is refused: cells
 *   trimmed, the email checked with the contract's own schema, the phone normalised to E.164 with libphonenumber-js
 *   (its `min` build: 28 KB of gzip against 48 for `max`; it checks each country's lengths and leading digits)
 *   and a default country, then the whole body through `contactCreateSchema` (src/api/contacts.ts), so a row the
 *   plan accepts is one the service accepts;
 * - `mergeRows`: rows repeating an earlier row's email (any letter case) or phone folded into that row, tags united;
 * - `lookupFilters`: the `email in (...)` / `phone in (...)` filters that find existing contacts, at most 100
 *   values and 2,000 characters each (docs/decisions.md section 6 limits);
 * - `buildPlan`: each row new, exists (its tags added, nothing else: the interface has no contact update) or refused;
 * - `refusedCsv` and `toJobSpec`: the file of refused rows and the job handed to the runner (docs/jobs.md).
 *
 * Email comparison: the service treats two emails that differ only in letter case as the same contact (a create is
 * a 409, docs/decisions.md section 7), and our service's `email eq/in` filters compare case-insensitively too
 * (server/filter/compile.ts, `caseInsensitiveKey`); the look-ups send lower-cased emails and every comparison here
 * is on `emailKey` (lower case).
 *
 * Row numbers are the file's (the header is row 1, the first data row 2), as a spreadsheet shows them.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import type * as z from 'zod/mini';
import { type ContactCreate, type ContactCreateParsed, contactCreateSchema } from '@/api/contacts';
import type { FilterNode } from '@/api/filter/ast';
import { formatIssues } from '@/api/validation-message';
import '@/api/zod-messages';
import { csvText, normalizeName } from '@/lib/csv-table';
import { t } from '@/i18n/i18n';
import { messageSentences } from '@/lib/error-sentence';
import { type Existing, emailKey, updatedTag } from './existing';
import { lookupFilters } from './lookup-filters';
import { toE164 } from '@/features/contacts/phone-country';
import type { RefusedRow } from '@/lib/jobs/job-types';
import type { ContactJobKind } from '../contact-jobs';
import type { CreateContactStep, CreateContactsStep, PatchTagsStep, TagExistingStep } from '../contact-steps';

export { COUNTRY_SAMPLE, chooseCountry, countryOfE164, countryOfNumbers, defaultCountry, toE164 } from '@/features/contacts/phone-country';

export { type Existing, emailKey, indexExisting, updatedTag } from './existing';

export { FILTER_LIMITS, LookupBatcher, lookupFilters } from './lookup-filters';

/** A field of the create request (src/api/contacts.ts `contactCreateSchema`): every one can be mapped. */
export type ContactFieldKey = keyof ContactCreate;

/** How a cell becomes a field value: text as is, `list` split on commas, `boolean` yes/no, `json` parsed. */
export type FieldKind = 'text' | 'boolean' | 'list' | 'json';

/** `multiple`: several columns may feed the field (name: joined with a space; tags: united). */
export type ImportField = { key: ContactFieldKey; kind: FieldKind; multiple?: true };

/** The fields offered for mapping, in the order shown. */
export const IMPORT_FIELDS: readonly ImportField[] = [
  { key: 'email', kind: 'text' },
  { key: 'phone', kind: 'text' },
  { key: 'name', kind: 'text', multiple: true },
  { key: 'tags', kind: 'list', multiple: true },
  { key: 'source', kind: 'text' },
  { key: 'address', kind: 'text' },
  { key: 'city', kind: 'text' },
  { key: 'postalCode', kind: 'text' },
  { key: 'region', kind: 'text' },
  { key: 'bio', kind: 'text' },
  { key: 'image', kind: 'text' },
  { key: 'customMessage', kind: 'text' },
  { key: 'systemSource', kind: 'text' },
  { key: 'notificationSettings', kind: 'text' },
  { key: 'addDirectly', kind: 'boolean' },
  { key: 'useEmailByDefault', kind: 'boolean' },
  { key: 'statusTags', kind: 'json' },
  { key: 'follows', kind: 'json' },
];

/** Columns (0-based) feeding each field; an unmapped field is absent or `[]`. */
export type ContactMapping = Partial<Record<ContactFieldKey, number[]>>;

/** A header reduced for matching: lower case, letters and digits only (`State/Region` -> `stateregion`). */
export function headerKey(header: string): string {
  return normalizeName(header).replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Recognised headers, reduced by `headerKey`, for each field: Mailchimp ("Email Address", "First Name", "Last
 * Name", "Phone Number", "Address", "TAGS"), HubSpot ("Email", "First Name", "Last Name", "Phone Number", "Mobile
 * Phone Number", "Street Address", "City", "State/Region", "Postal Code"), Brevo ("EMAIL", "FIRSTNAME",
 * "LASTNAME", "SMS", and the address attributes accounts add: "ADDRESS", "CITY", "ZIP_CODE" or "POSTCODE", "REGION" or
 * "STATE_PROVINCE"), our own export (id, name, email, phone, state, tags, source, address, city, postalCode,
 * region, created, updated) and common spreadsheet words, English and Norwegian. A field's own name always matches.
 * `firstName` and `lastName` feed `name` (joined in that order) when no full-name column is there.
 */
export const HEADER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  email: ['email', 'emailaddress', 'mail', 'epost', 'epostadresse', 'emailadresse'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilephonenumber', 'mobilenumber', 'sms', 'telephone', 'tel', 'cell', 'cellphone', 'telefon', 'telefonnummer', 'mobil', 'mobilnummer'],
  name: ['name', 'fullname', 'contactname', 'navn', 'fulltnavn'],
  firstName: ['firstname', 'first', 'givenname', 'fname', 'prenom', 'fornavn'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'lname', 'nom', 'etternavn'],
  tags: ['tags', 'tag', 'labels', 'label', 'stikkord', 'emneknagger'],
  source: ['source', 'kilde'],
  address: ['address', 'streetaddress', 'address1', 'addressline1', 'street', 'postaladdress', 'mailingaddress', 'adresse', 'gateadresse'],
  city: ['city', 'town', 'locality', 'poststed', 'sted', 'by'],
  postalCode: ['postalcode', 'zip', 'zipcode', 'postcode', 'zippostalcode', 'postnummer', 'postnr'],
  region: ['region', 'stateregion', 'stateprovince', 'province', 'county', 'fylke'],
  bio: ['bio', 'about'],
  image: ['image', 'imageurl', 'avatar', 'photo', 'photourl', 'picture'],
};

/** Export formats recognised by their headers (all the listed headers present), for the mapping step's note. */
const FORMATS: readonly { name: string; headers: readonly string[] }[] = [
  { name: 'Mailchimp', headers: ['emailaddress', 'firstname', 'lastname'] },
  { name: 'HubSpot', headers: ['email', 'firstname', 'lastname', 'recordid'] },
  { name: 'Brevo', headers: ['email', 'firstname', 'lastname', 'sms'] },
  { name: 'Brevo', headers: ['email', 'sms'] },
];

/** The export format whose headers `headers` carries (`Mailchimp`, `HubSpot`, `Brevo`), or null. */
export function recogniseFormat(headers: readonly string[]): string | null {
  const keys = new Set(headers.map(headerKey));
  return FORMATS.find((format) => format.headers.every((header) => keys.has(header)))?.name ?? null;
}

/**
 * The mapping recognised from `headers`: each field's first column whose `headerKey` is the field's own name or one
 * of its HEADER_ALIASES (aliases in their order of preference); `name` from a full-name column, else First + Last
 * Name; `tags` from every tags column. A column feeds one field at most.
 */
export function autoMap(headers: readonly string[]): ContactMapping {
  const keys = headers.map(headerKey);
  const used = new Set<number>();
  const find = (aliases: readonly string[]) => {
    for (const alias of aliases) {
      const index = keys.findIndex((key, i) => key === alias && !used.has(i));
      if (index >= 0) return index;
    }
    return -1;
  };
  const mapping: ContactMapping = {};
  const take = (field: ContactFieldKey, index: number) => {
    if (index < 0) return;
    used.add(index);
    (mapping[field] ??= []).push(index);
  };
  for (const field of IMPORT_FIELDS) {
    const aliases = [headerKey(field.key), ...(HEADER_ALIASES[field.key] ?? [])];
    if (field.key === 'tags') {
      keys.forEach((key, index) => aliases.includes(key) && take('tags', index));
      continue;
    }
    take(field.key, find(aliases));
    if (field.key === 'name' && !mapping.name) {
      take('name', find(HEADER_ALIASES.firstName!));
      take('name', find(HEADER_ALIASES.lastName!));
    }
  }
  return mapping;
}

/** Mapping columns that are not within `columns` columns dropped (a remembered mapping applied to a file). */
export function fitMapping(mapping: ContactMapping, columns: number): ContactMapping {
  const fitted: ContactMapping = {};
  for (const field of IMPORT_FIELDS) {
    const indexes = (mapping[field.key] ?? []).filter((index) => Number.isInteger(index) && index >= 0 && index < columns);
    if (indexes.length) fitted[field.key] = field.multiple ? [...new Set(indexes)] : indexes.slice(0, 1);
  }
  return fitted;
}

/** True when the mapping feeds email, phone or name: a row can be keyed. */
export function canImport(mapping: ContactMapping): boolean {
  return Boolean(mapping.email?.length || mapping.phone?.length || mapping.name?.length);
}

/** The localStorage key of the mapping remembered for a workspace and a set of headers (issue 20 point 1). */
export function mappingStorageKey(workspaceId: string, headers: readonly string[]): string {
  return `workspace-admin.contacts-import.mapping.${workspaceId}.${JSON.stringify(headers)}`;
}

/** Address parts read from one cell (`splitAddress`). */
export type AddressParts = { address?: string; city?: string; region?: string; postalCode?: string; country?: string };

/**
 * Mailchimp's one-cell address, its parts joined by two spaces: street, second line, city, region, postcode,
 * country (`Åsveien 102  Stavanger    4006  NO`: no second line, the region empty), split into the contact's fields
 * (issue 34 point 3). With five parts or more, read by position from the end: country, postcode, region, city; what
 * is left before is the street, its lines joined by `, `. With fewer, from the end: a country (2 or 3 letters), a
 * postcode (a part with a digit, at most 10 characters), a city, the rest the street. A cell without two spaces in a
 * row is a street as it stands (`{ address }`). The contract has no country field: `country` is returned for the
 * caller to leave out.
 */
export function splitAddress(text: string): AddressParts {
  const trimmed = text.trim();
  if (!/ {2}/.test(trimmed)) return trimmed ? { address: trimmed } : {};
  let parts = trimmed.split(/ {2}/).map((part) => part.trim());
  const out: AddressParts = {};
  const last = () => parts[parts.length - 1] ?? '';
  const pop = () => parts.pop() ?? '';
  if (parts.length >= 5) {
    const [country, postalCode, region, city] = [pop(), pop(), pop(), pop()];
    Object.assign(out, country && { country }, postalCode && { postalCode }, region && { region }, city && { city });
  } else {
    parts = parts.filter(Boolean);
    if (parts.length > 1 && /^\p{L}{2,3}$/u.test(last())) out.country = pop();
    if (parts.length > 1 && /\d/.test(last()) && last().length <= 10) out.postalCode = pop();
    if (parts.length > 1) out.city = pop();
  }
  const street = parts.filter(Boolean).join(', ');
  if (street) out.address = street;
  return out;
}

/**
 * What cleaning needs besides the cells: the phone default country, the whole import's tag, the default source, and
 * the workspace's tag names (`existingTags`, `GET /contacts/contacts-tags`), onto which the file's tags are mapped
 * whatever their letter case (issue 34 point 4).
 */
export type CleanOptions = { country: CountryCode | null; importTag?: string; source?: string; existingTags?: readonly string[] };

/**
 * The spelling each tag takes, by its lower-case form: the workspace's own first, then the first met in the file;
 * `renamed` records each file spelling that took another (`VIP` -> `vip`), for the plan to say so.
 */
export type TagSpellings = { byKey: Map<string, string>; renamed: Map<string, string> };

/** Spellings seeded with the workspace's tags (`existingTags`; the first of two that differ only in case wins). */
export function tagSpellings(existingTags: readonly string[] = []): TagSpellings {
  const byKey = new Map<string, string>();
  for (const tag of existingTags) if (!byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
  return { byKey, renamed: new Map() };
}

/**
 * `tags` in the spellings of `spellings` (issue 34 point 4: a file's "VIP" joins the workspace's `vip` instead of
 * making a second tag; the service compares tags exactly, docs/decisions.md section 7), repeats in any case merged.
 * A tag not met before is learnt in its own spelling. `keep` (the import's own tag) is left as it is.
 */
export function canonicalTags(tags: readonly string[], spellings: TagSpellings, keep?: string): string[] {
  const out = new Set<string>();
  for (const tag of tags) {
    if (tag === keep) {
      out.add(tag);
      continue;
    }
    const key = tag.toLowerCase();
    const spelling = spellings.byKey.get(key);
    if (spelling === undefined) spellings.byKey.set(key, tag);
    else if (spelling !== tag) spellings.renamed.set(tag, spelling);
    out.add(spelling ?? tag);
  }
  return [...out];
}

/**
 * A row as the body it will send, or the reason it is refused. `withoutPhone`: the row's phone could not be read, and
 * the row goes without it (issue 34 point 2: a bad phone never refuses a row that has an email or a name); the
 * sentence says why, for the plan and the report.
 */
export type CleanedRow = { ok: true; body: ContactCreateParsed; withoutPhone?: string } | { ok: false; reason: string };

const TRUE = new Set(['true', 'yes', '1', 'ja']);
const FALSE = new Set(['false', 'no', '0', 'nei']);

/** A tag cell's tags: split on commas, trimmed, surrounding double quotes dropped (Mailchimp writes `"a","b"`), empty ones left out. */
export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim().replace(/^"(.*)"$/s, '$1').trim())
    .filter(Boolean);
}


/**
 * One data row through the mapping and the cleaning rules (module docstring). Refusal reasons, joined by `; `:
 * a malformed email, an invalid phone, a bad yes/no or JSON cell, no email, phone or name, or what the
 * contract's schema says (`bio must be at most 5000 characters long`). A phone that cannot be read leaves the row
 * without it (`withoutPhone` says why) unless the row has nothing else to key it. Tags take the spellings of
 * `spellings` (`canonicalTags`; by default the workspace's, from `options.existingTags`). Never throws.
 */
export function cleanRow(cells: readonly string[], mapping: ContactMapping, options: CleanOptions, spellings: TagSpellings = tagSpellings(options.existingTags)): CleanedRow {
  const body: Record<string, unknown> = {};
  const problems: string[] = [];
  let badPhone: string | undefined;
  let badPhoneAt = 0;
  const texts = (field: ContactFieldKey) => (mapping[field] ?? []).map((index) => (cells[index] ?? '').trim()).filter(Boolean);
  for (const field of IMPORT_FIELDS) {
    if (!mapping[field.key]?.length && field.key !== 'tags' && field.key !== 'source') continue;
    const values = texts(field.key);
    if (field.key === 'tags') {
      const importTag = options.importTag?.trim() || undefined;
      const tags = canonicalTags([...values.flatMap(splitTags), ...(importTag ? [importTag] : [])], spellings, importTag);
      if (tags.length) body.tags = tags;
      continue;
    }
    if (field.key === 'source') {
      const source = values[0] ?? options.source?.trim();
      if (source) body.source = source;
      continue;
    }
    if (!values.length) continue;
    const text = field.key === 'name' ? values.join(' ') : values[0]!;
    switch (field.kind) {
      case 'boolean': {
        const lower = text.toLowerCase();
        if (TRUE.has(lower)) body[field.key] = true;
        else if (FALSE.has(lower)) body[field.key] = false;
        else problems.push(t('contacts-import.badBoolean', { field: field.key, value: text }));
        break;
      }
      case 'json':
        try {
          body[field.key] = JSON.parse(text);
        } catch {
          problems.push(t('contacts-import.badJson', { field: field.key }));
        }
        break;
      default:
        if (field.key === 'email' && !contactCreateSchema.shape.email.safeParse(text).success) problems.push(t('contacts-import.badEmail', { value: text }));
        else if (field.key === 'phone') {
          const phone = toE164(text, options.country);
          if (phone === null) [badPhone, badPhoneAt] = [t('contacts-import.badPhone', { value: text, country: options.country ?? '–' }), problems.length];
          else body.phone = phone;
        } else body[field.key] = text;
    }
  }
  // Mailchimp's one-cell address (issue 34 point 3): its parts go to the fields no column of their own fed.
  if (typeof body.address === 'string' && / {2}/.test(body.address)) {
    const { country: _country, ...parts } = splitAddress(body.address);
    delete body.address;
    for (const [key, value] of Object.entries(parts)) body[key] ??= value;
  }
  if (!problems.length && body.email === undefined && body.phone === undefined && body.name === undefined) problems.push(badPhone ?? t('contacts-import.needsKeyValue'));
  if (!problems.length) {
    const parsed = parseBody(body);
    if (parsed.ok) return badPhone ? { ok: true, body: parsed.body, withoutPhone: t('contacts-import.withoutPhone', { reason: badPhone }) } : { ok: true, body: parsed.body };
    // The contract's refusal in words, in every language (issue 34 point 9: not `tags.0 must be at most 64
    // characters long`): src/lib/error-sentence.ts, the `sentences` catalog loaded with the dialog and the plan worker.
    problems.push(messageSentences(formatIssues(parsed.issues, 'row'), body).join(' '));
  }
  // Refused for something else (or for having nothing but the phone): the phone's reason is said too, in field order.
  if (badPhone && !problems.includes(badPhone)) problems.splice(badPhoneAt, 0, badPhone);
  return { ok: false, reason: problems.join('; ') };
}

/**
 * `contactCreateSchema` applied to the fields a row has, one field's schema at a time, with the issues' paths as the
 * whole object's parse gives them (`tags.0`). The same outcome as parsing the object, at a third of its cost (about
 * 3 against 9.5 µs a row of six fields; issue 20 point 6: a plan cleans 100,000 rows); the body
 * holds only keys of the contract, so the strict object's unknown-key check has nothing to find.
 */
function parseBody(body: Record<string, unknown>): { ok: true; body: ContactCreateParsed } | { ok: false; issues: z.core.$ZodIssue[] } {
  const shape = contactCreateSchema.shape as Record<string, z.ZodMiniType>;
  const parsed: Record<string, unknown> = {};
  const issues: z.core.$ZodIssue[] = [];
  for (const key of Object.keys(body)) {
    const result = shape[key]!.safeParse(body[key]);
    if (result.success) parsed[key] = result.data;
    else for (const issue of result.error.issues) issues.push({ ...issue, path: [key, ...issue.path] });
  }
  return issues.length ? { ok: false, issues } : { ok: true, body: parsed as ContactCreateParsed };
}

/**
 * `text` as a string of its own. A cell's text is a slice of the chunk of the file the parser read it from (V8 makes a
 * substring of 13 characters or more a view of its parent), so a cell kept for the plan keeps its whole 256 KiB chunk
 * alive: the entries of a 100,000-row file kept all 19 MB of it (issue 20 point 6: the tab under 300 MB). A structured
 * clone copies the characters only (about 0.5 µs).
 */
export function ownText(text: string): string {
  return text.length < 13 ? text : structuredClone(text);
}

/** A contact to create or find: the merged body and the file rows it stands for (the first is where it was seen first). */
export type Entry = { rows: number[]; body: ContactCreateParsed };
/**
 * Folds rows that repeat an earlier row's email (any letter case) or phone into that earlier row: tags united (in
 * order of appearance), fields the earlier row left empty filled from the later one (an email or phone only when no
 * other entry holds it), the later row's number added to `rows`. Entries keep the order of their first row and hold
 * texts of their own (`ownText`), not views of the file's chunks.
 */
export class RowMerger {
  readonly entries: Entry[] = [];
  /** The look-up keys met since `takeKeys` last took them, in the order they were first met. */
  private keys: { email: string[]; phone: string[] } = { email: [], phone: [] };
  private readonly byEmail = new Map<string, Entry>();
  private readonly byPhone = new Map<string, Entry>();
  /** One string per tag: a file's rows repeat the same few tags (the import's own on every row), each cell's a new string. */
  private readonly tagTexts = new Map<string, string>();

  private tag = (tag: string): string => {
    let text = this.tagTexts.get(tag);
    if (text === undefined) this.tagTexts.set(tag, (text = ownText(tag)));
    return text;
  };

  /** `body` with each text of its own (`ownText`), the tags from `tag`. */
  private own(body: ContactCreateParsed): ContactCreateParsed {
    const owned: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) owned[key] = typeof value === 'string' ? ownText(value) : key === 'tags' ? (value as string[]).map(this.tag) : value;
    return owned as ContactCreateParsed;
  }

  /**
   * The look-up keys met since the last call (lower-cased emails and phones, `entryLookups`' values): over every call,
   * each key of the entries once. Taken, not kept, so a large file's keys are not held twice.
   */
  takeKeys(): { email: string[]; phone: string[] } {
    const { keys } = this;
    this.keys = { email: [], phone: [] };
    return keys;
  }

  /** Adds a cleaned row; returns the entry it joined or started. */
  add(row: number, body: ContactCreateParsed): Entry {
    const found = (body.email !== undefined ? this.byEmail.get(emailKey(body.email)) : undefined) ?? (body.phone !== undefined ? this.byPhone.get(body.phone) : undefined);
    if (!found) {
      const entry: Entry = { rows: [row], body: this.own(body) };
      this.entries.push(entry);
      this.index(entry);
      return entry;
    }
    found.rows.push(row);
    const merged = found.body as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) {
      if (key === 'tags') continue;
      if (merged[key] !== undefined) continue;
      if (key === 'email' && this.byEmail.has(emailKey(value as string))) continue;
      if (key === 'phone' && this.byPhone.has(value as string)) continue;
      merged[key] = typeof value === 'string' ? ownText(value) : value;
    }
    if (body.tags?.length) found.body.tags = [...new Set([...(found.body.tags ?? []), ...body.tags.map(this.tag)])];
    this.index(found);
    return found;
  }

  private index(entry: Entry) {
    const { email, phone } = entry.body;
    const key = email === undefined ? undefined : emailKey(email);
    if (key !== undefined && !this.byEmail.has(key)) {
      this.byEmail.set(key, entry);
      this.keys.email.push(key);
    }
    if (phone !== undefined && !this.byPhone.has(phone)) {
      this.byPhone.set(phone, entry);
      this.keys.phone.push(phone);
    }
  }
}

/** The cells of a row by header (a header repeated or empty is named `Column N`), for the refused-rows file; each text of its own (`ownText`). */
export function rowValues(headers: readonly string[], cells: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  headers.forEach((header, index) => {
    const name = header && !(header in values) ? header : `Column ${index + 1}`;
    values[name] = ownText(cells[index] ?? '');
  });
  return values;
}

/** Cleaned and merged rows: the entries to look up, the refused rows, and how many rows were folded into an earlier one. */
export type CleanResult = { entries: Entry[]; refused: RefusedRow[]; merged: number; withoutPhone?: RefusedRow[]; retagged?: [from: string, to: string][] };

/**
 * Data rows cleaned (`cleanRow`) and merged (`RowMerger`) as they come, chunk by chunk in file order (issue 20 point 6:
 * plan-worker.ts cleans a file as it streams, so no table of it is kept): `add` takes a chunk, `takeKeys` the look-up
 * keys met since it was last called (so the look-ups start while the rest is cleaned), `result` what was cleaned.
 */
export class TableCleaner {
  private readonly merger = new RowMerger();
  private readonly refused: RefusedRow[] = [];
  private readonly withoutPhone: RefusedRow[] = [];
  private readonly spellings: TagSpellings;
  private merged = 0;
  private cleaned = 0;

  constructor(
    private readonly headers: readonly string[],
    private readonly mapping: ContactMapping,
    private readonly options: CleanOptions,
  ) {
    this.spellings = tagSpellings(options.existingTags);
  }

  add(rows: Iterable<{ row: number; cells: readonly string[] }>): void {
    for (const { row, cells } of rows) {
      this.cleaned++;
      const cleaned = cleanRow(cells, this.mapping, this.options, this.spellings);
      if (!cleaned.ok) this.refused.push({ row, values: rowValues(this.headers, cells), reason: cleaned.reason });
      else if (cleaned.withoutPhone) this.withoutPhone.push({ row, values: rowValues(this.headers, cells), reason: cleaned.withoutPhone });
      if (!cleaned.ok) continue;
      if (this.merger.add(row, cleaned.body).rows.length > 1) this.merged++;
    }
  }

  /** Rows added so far. */
  get rows(): number {
    return this.cleaned;
  }

  takeKeys(): { email: string[]; phone: string[] } {
    return this.merger.takeKeys();
  }

  result(): CleanResult {
    const { renamed } = this.spellings;
    return {
      entries: this.merger.entries,
      refused: this.refused,
      merged: this.merged,
      ...(this.withoutPhone.length ? { withoutPhone: this.withoutPhone } : {}),
      ...(renamed.size ? { retagged: [...renamed] } : {}),
    };
  }
}

/** The look-ups of a set of entries: lower-cased emails, then E.164 phones. */
export function entryLookups(entries: readonly Entry[]): FilterNode[] {
  const emails: string[] = [];
  const phones: string[] = [];
  entries.forEach((entry) => {
    if (entry.body.email !== undefined) emails.push(emailKey(entry.body.email));
    if (entry.body.phone !== undefined) phones.push(entry.body.phone);
  });
  return [...lookupFilters('email', emails), ...lookupFilters('phone', phones)];
}


/** One write of the import: the contacts feature's step kinds it plans (contact-steps.ts, docs/jobs.md). */
export type ImportStep = CreateContactStep | PatchTagsStep;

/**
 * The plan: the steps (creates and tag additions), the refused rows with reasons, the rows that exist with every
 * tag already (`unchanged`, no request), and counts by row: `new` and `exists` count entries (a merged row counts
 * once, under its first row), `refused` rows, `merged` rows folded into an earlier one.
 */
export type ImportPlan = {
  steps: ImportStep[];
  refused: RefusedRow[];
  /** Rows imported without their phone, which could not be read (issue 34 point 2); absent when none. */
  withoutPhone?: RefusedRow[];
  /** The file's tags that took another spelling (`['VIP', 'vip']`: the workspace's or the file's first; issue 34 point 4); absent when none. */
  retagged?: [from: string, to: string][];
  unchanged: number[];
  counts: { new: number; exists: number; tagged: number; unchanged: number; refused: number; merged: number };
};

/**
 * Each entry as new (a create step) or existing (same email, any letter case, or same phone: a tag step adding the
 * tags it lacks, or nothing when it has them all; issue 20 point 3). Entries that meet the same existing contact
 * share one tag step. `importTag` (the whole import's tag, which cleanRow added to every row): created contacts keep
 * it, existing ones get `updatedTag(importTag)` in its place (issue 34 point 1).
 */
export function buildPlan(cleaned: CleanResult, existing: Existing, importTag?: string): ImportPlan {
  const created_ = importTag?.trim();
  const updated = created_ ? updatedTag(created_) : undefined;
  const steps: ImportStep[] = [];
  const patches = new Map<string, { kind: 'patch-tags'; contactId: string; tagsToAdd: string[]; tagsToRemove: string[]; rows: number[] }>();
  const unchangedEntries = new Map<string, number[]>();
  let created = 0;
  let exists = 0;
  for (const entry of cleaned.entries) {
    const { body } = entry;
    const contact = (body.email !== undefined ? existing.byEmail.get(emailKey(body.email)) : undefined) ?? (body.phone !== undefined ? existing.byPhone.get(body.phone) : undefined);
    if (!contact) {
      created++;
      steps.push({ kind: 'create-contact', body, rows: entry.rows });
      continue;
    }
    exists++;
    const have = new Set([...contact.tags, ...(patches.get(contact.id)?.tagsToAdd ?? [])]);
    // The import's own tag marks what it created; a contact that existed gets `<tag>-updated` instead (issue 34 point 1).
    const wanted = (body.tags ?? []).map((tag) => (tag === created_ ? updated! : tag));
    const toAdd = [...new Set(wanted)].filter((tag) => !have.has(tag));
    const patch = patches.get(contact.id);
    if (patch) {
      patch.tagsToAdd.push(...toAdd);
      patch.rows.push(...entry.rows);
    } else if (toAdd.length) {
      const step = { kind: 'patch-tags' as const, contactId: contact.id, tagsToAdd: toAdd, tagsToRemove: [], rows: [...entry.rows, ...(unchangedEntries.get(contact.id) ?? [])] };
      unchangedEntries.delete(contact.id);
      patches.set(contact.id, step);
      steps.push(step);
    } else unchangedEntries.set(contact.id, [...(unchangedEntries.get(contact.id) ?? []), ...entry.rows]);
  }
  for (const step of patches.values()) step.rows.sort((a, b) => a - b);
  const unchanged = [...unchangedEntries.values()].flat().sort((a, b) => a - b);
  return {
    steps,
    refused: cleaned.refused,
    ...(cleaned.withoutPhone?.length ? { withoutPhone: cleaned.withoutPhone } : {}),
    ...(cleaned.retagged?.length ? { retagged: cleaned.retagged } : {}),
    unchanged,
    counts: { new: created, exists, tagged: patches.size, unchanged: unchangedEntries.size, refused: cleaned.refused.length, merged: cleaned.merged },
  };
}

/** The refused-rows file's last column: machine-readable, the same in every language (`refusedCsv`). */
export const REFUSED_REASON_COLUMN = 'reason';

/**
 * The refused rows as CSV, ready to fix and import again: the file's headers plus a last column `reason`, one line
 * per refused row in file order (the headers stay as the file had them and `reason` stays `reason` in every language,
 * so the fixed file maps as the first did and the reason column is left unmapped; the reasons themselves are in the
 * language shown), cells formula-guarded as the service's CSV export guards them (`phoneColumns`:
 * the columns mapped to phone, whose international numbers stay as they are; src/lib/csv-table.ts).
 */
export function refusedCsv(headers: readonly string[], refused: readonly RefusedRow[], phoneColumns: ReadonlySet<number> = new Set()): string {
  const names = Object.keys(rowValues(headers, []));
  return csvText(
    [...names, REFUSED_REASON_COLUMN],
    refused.map((row) => [...names.map((name) => row.values[name] ?? ''), row.reason]),
    phoneColumns,
  );
}

/** Requests a job of `requests` takes at `limitPerMinute`, in minutes; null when the key has no announced limit. */
export function minutesAtRate(requests: number, limitPerMinute: number | null): number | null {
  if (!limitPerMinute || limitPerMinute <= 0) return null;
  return requests / limitPerMinute;
}

/** What the job of an import says of itself: the file's name, the import's tag and the default source. */
export type ImportMeta = { fileName: string; importTag?: string; source?: string };

/** A plan as the page holds it: everything but the steps, which stay in plan-worker.ts until it stores the job; `stepCount` says how many. */
export type PlanSummary = Omit<ImportPlan, 'steps'> & { stepCount: number };

/** The kind and `meta` of an import's job (what its title is made of), the plan's counts in `meta`. */
export function importJobHead(counts: ImportPlan['counts'], meta: ImportMeta) {
  return { kind: 'contacts-import' as const satisfies ContactJobKind, meta: { ...meta, counts } };
}

/** Creates in one `create-contacts` step: the most `POST /contacts/batch` takes (docs/decisions.md section 12). */
export const IMPORT_BATCH_SIZE = 1000;

/** A plan's steps as the job sends them: the creates in batches of up to `size` where batches are offered, then the tags of those that existed. */
export type JobImportStep = ImportStep | CreateContactsStep | TagExistingStep;

/**
 * The plan's creates in `create-contacts` steps of up to `size` (issue 35 point 7; docs/decisions.md section 12),
 * in the file's order, each batch where its first create was; tag steps stay one per contact, where they were.
 * `tagsAfter`: the job ends with a `tag-existing` step, which reports the items found existing (`CreateContactsStep`).
 * @throws RangeError for a `size` that is not a whole number from 1 to 1,000.
 */
export function batchSteps(steps: readonly ImportStep[], size = IMPORT_BATCH_SIZE, tagsAfter = false): JobImportStep[] {
  if (!Number.isInteger(size) || size < 1 || size > IMPORT_BATCH_SIZE) throw new RangeError(`size must be a whole number from 1 to ${IMPORT_BATCH_SIZE}, not ${size}`);
  const out: JobImportStep[] = [];
  let open: Extract<JobImportStep, { kind: 'create-contacts' }> | null = null;
  for (const step of steps) {
    if (step.kind !== 'create-contact') {
      out.push(step);
      continue;
    }
    if (!open || open.items.length >= size) out.push((open = { kind: 'create-contacts', items: [], ...(tagsAfter ? { tagsAfter: true as const } : {}) }));
    open.items.push({ body: step.body, ...(step.rows ? { rows: step.rows } : {}) });
  }
  return out;
}

/** Requests the plan's writes take: one per step, or, in batches (`batched`), one per tag step and per batch of creates. */
export function importRequests(counts: Pick<ImportPlan['counts'], 'new' | 'tagged'>, batched: boolean): number {
  return batched ? counts.tagged + Math.ceil(counts.new / IMPORT_BATCH_SIZE) : counts.tagged + counts.new;
}

/**
 * The `JobSpec` of docs/jobs.md for a plan (kind `contacts-import`): its steps, refused and unchanged rows, the rows
 * sent without their phone (issue 34 point 2: named in the job's report), and `meta`. `batched` (the service names
 * `contact-batch`): the creates go in batches (`batchSteps`) and a last `tag-existing` step gives the contacts the
 * batches found existing the file's tags (the plan looked nothing up); else one request each.
 */
export function toJobSpec(plan: ImportPlan, meta: ImportMeta, batched = false) {
  // Rows sent without their phone: only the row and the reason (the reason quotes the phone as the file had it).
  const withoutPhone = plan.withoutPhone?.length ? { withoutPhone: plan.withoutPhone.map(({ row, reason }) => ({ row, reason })) } : {};
  const importTag = meta.importTag?.trim();
  // In batches, the creates' answers say which contacts existed; the last step gives those the file's tags.
  const steps = batched ? [...batchSteps(plan.steps, IMPORT_BATCH_SIZE, true), ...(plan.counts.new ? [{ kind: 'tag-existing' as const, ...(importTag ? { importTag } : {}) }] : [])] : plan.steps;
  return { ...importJobHead(plan.counts, meta), steps, report: { refused: plan.refused, unchanged: plan.unchanged, ...withoutPhone } };
}
