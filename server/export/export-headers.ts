/**
 * The xlsx export in people's words (issue 34 point 10; docs/exports.md "The spreadsheet for people"): asked for with
 * the request header `Export-Language: en` or `nb` (our service's extension), an xlsx export has the columns' names in
 * that language as its header row, real dates in `created` and `updated`, column widths and a frozen header row.
 * Without the header (or with a language we have no words for) the export is the contract's: API names, ISO text.
 * The CSV is always the contract's.
 */
import { CONTACT_EXPORT_COLUMNS } from '../../src/api/contacts';

export type ExportLanguage = 'en' | 'nb';
type Column = (typeof CONTACT_EXPORT_COLUMNS)[number];

/** Each export column's name in each language, as the console's contacts list names them. */
const WORDS: Record<ExportLanguage, Record<Column, string>> = {
  en: { id: 'ID', name: 'Name', email: 'Email', phone: 'Phone', state: 'State', tags: 'Tags', source: 'Source', address: 'Address', city: 'City', postalCode: 'Postal code', region: 'Region', created: 'Created', updated: 'Updated' },
  nb: { id: 'ID', name: 'Navn', email: 'E-post', phone: 'Telefon', state: 'Status', tags: 'Stikkord', source: 'Kilde', address: 'Adresse', city: 'Sted', postalCode: 'Postnummer', region: 'Region', created: 'Opprettet', updated: 'Endret' },
};

/** Each column's width in characters (about what its values take). */
export const EXPORT_COLUMN_WIDTHS: Record<Column, number> = { id: 38, name: 24, email: 32, phone: 18, state: 10, tags: 24, source: 18, address: 30, city: 16, postalCode: 12, region: 14, created: 18, updated: 18 };

/** The columns holding instants, written as dates in people's words. */
export const EXPORT_DATE_COLUMNS: readonly Column[] = ['created', 'updated'];

/** How the date columns show: a date and a time to the minute (the cell holds the whole instant, in UTC). */
export const EXPORT_DATE_FORMAT = 'yyyy-mm-dd hh:mm';

/** The language an `Export-Language` header asks for (its first tag we have words for: `nb-NO` is `nb`), else null. */
export function exportLanguage(header: string | string[] | undefined): ExportLanguage | null {
  const value = Array.isArray(header) ? header[0] : header;
  for (const tag of (value ?? '').split(',')) {
    const primary = tag.trim().split(/[-;_]/)[0]?.toLowerCase();
    if (primary === 'en' || primary === 'nb') return primary;
    if (primary === 'no' || primary === 'nn') return 'nb';
  }
  return null;
}

/** The header row in `language`, in CONTACT_EXPORT_COLUMNS order. */
export function exportHeaderWords(language: ExportLanguage): string[] {
  return CONTACT_EXPORT_COLUMNS.map((column) => WORDS[language][column]);
}
