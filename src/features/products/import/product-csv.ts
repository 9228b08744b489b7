/**
 * The pure part of "Import CSV" on the products page (issue 6), framework-free so it is unit-tested in Node:
 * - `toTable`: the header row and data rows of a parsed CSV (papaparse's `data`, arrays of cells);
 * - `autoMap`: which column feeds which product field, matched by normalized name;
 * - `convertRow` / `planImport`: each row as the `POST /products` body it will send, or the reason it cannot be
 *   sent (a cell that is not a number, a body the contract's zod schema refuses, a missing or repeated externalId);
 * - `reportCsv`: the downloadable report, every row's outcome, with cells guarded against formula injection
 *   (papaparse, imported here: this module is only loaded with the import dialog).
 *
 * Cell rules (the issue is silent on them; decided here): cells are trimmed and an empty cell leaves its field
 * out of the body (so an update keeps the stored value); numbers are decimals (`12.5`, `-3`, `1e3`, no currency
 * signs) whose decimal separator, `.` or `,`, each number column has for all its cells, detected from its values
 * (`detectNumberStyles`, src/lib/decimal.ts; issue 14 point 6): `1,299.00` and `1.299,00` both import as 1299, and
 * the preview says which separator each column uses; true/false cells accept true/false, yes/no, 1/0 in any case; lists
 * (tags, collectionIds, externalCollectionIds) are split on `;` or `|` (never `,`, which CSV quoting makes
 * error-prone); customProperties is the text of a JSON object.
 *
 * Texts a person reads (the hints, the number formats in words, the reasons a row is refused) come from the
 * `catalog-import` catalog area in the language shown, read at call time (issue 23); the report's column headers
 * (REPORT_COLUMNS) are field names and stay as they are.
 */
import Papa from 'papaparse';
import { type ProductUpsert, type ProductUpsertParsed, productUpsertSchema } from '@/api/catalog';
import { formatIssues } from '@/api/validation-message';
import { messageSentences } from '@/lib/error-sentence';
import '@/api/zod-messages';
import { type CsvTable, normalizeName } from '@/lib/csv-table';
import { t } from '@/i18n/i18n';
import { type DecimalStyle, detectDecimalStyle, parseWithStyle } from '@/lib/decimal';

/** How a cell becomes a field value. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'list' | 'json';

/** A product field a column can feed: every field of the upsert request but `id` (an import is keyed by `externalId`). */
export type ImportFieldKey = Exclude<keyof ProductUpsert, 'id'>;
/** `hint` says what the cells must hold (in the language shown), shown beside the field's column choice. */
export type ImportField = { key: ImportFieldKey; kind: FieldKind; required?: boolean; hint?: () => string };

/** The fields offered for mapping, in the order shown; `externalId` first since it is required. */
export const IMPORT_FIELDS: readonly ImportField[] = [
  { key: 'externalId', kind: 'text', required: true, hint: () => t('catalog-import.hintKey') },
  { key: 'title', kind: 'text' },
  { key: 'handle', kind: 'text', hint: () => t('catalog-import.hintHandle') },
  { key: 'bodyHtml', kind: 'text' },
  { key: 'type', kind: 'text' },
  { key: 'status', kind: 'text', hint: () => t('catalog-import.hintStatus') },
  { key: 'vendor', kind: 'text' },
  { key: 'source', kind: 'text' },
  { key: 'url', kind: 'text', hint: () => t('catalog-import.hintUrl') },
  { key: 'imageUrl', kind: 'text', hint: () => t('catalog-import.hintUrl') },
  { key: 'price', kind: 'number' },
  { key: 'originalPrice', kind: 'number' },
  { key: 'currency', kind: 'text', hint: () => t('catalog-import.hintCurrency') },
  { key: 'isForSale', kind: 'boolean' },
  { key: 'tags', kind: 'list' },
  { key: 'collectionIds', kind: 'list' },
  { key: 'externalCollectionIds', kind: 'list' },
  { key: 'customProperties', kind: 'json' },
];

/** What each kind of cell must hold (in the language shown), for fields without a `hint` of their own; '' for text. */
export function kindHint(kind: FieldKind): string {
  switch (kind) {
    case 'text':
      return '';
    case 'number':
      return t('catalog-import.hintNumber');
    case 'boolean':
      return t('catalog-import.hintBoolean');
    case 'list':
      return t('catalog-import.hintList');
    case 'json':
      return t('catalog-import.hintJson');
  }
}

/** A field's name as a person reads it (issue 23 point 11: plain words; the API's name is the hint), in the language shown. */
export function fieldLabel(key: ImportFieldKey): string {
  switch (key) {
    case 'externalId':
      return t('catalog-import.fieldExternalId');
    case 'title':
      return t('catalog-import.fieldTitle');
    case 'handle':
      return t('catalog-import.fieldHandle');
    case 'bodyHtml':
      return t('catalog-import.fieldBodyHtml');
    case 'type':
      return t('catalog-import.fieldType');
    case 'status':
      return t('catalog-import.fieldStatus');
    case 'vendor':
      return t('catalog-import.fieldVendor');
    case 'source':
      return t('catalog-import.fieldSource');
    case 'url':
      return t('catalog-import.fieldUrl');
    case 'imageUrl':
      return t('catalog-import.fieldImageUrl');
    case 'price':
      return t('catalog-import.fieldPrice');
    case 'originalPrice':
      return t('catalog-import.fieldOriginalPrice');
    case 'currency':
      return t('catalog-import.fieldCurrency');
    case 'isForSale':
      return t('catalog-import.fieldIsForSale');
    case 'tags':
      return t('catalog-import.fieldTags');
    case 'collectionIds':
      return t('catalog-import.fieldCollectionIds');
    case 'externalCollectionIds':
      return t('catalog-import.fieldExternalCollectionIds');
    case 'customProperties':
      return t('catalog-import.fieldCustomProperties');
  }
}

/** Column index (0-based) feeding each mapped field; an unmapped field is absent. */
export type ColumnMapping = Partial<Record<ImportFieldKey, number>>;

/** Each field mapped to the first column whose normalized header equals the field's normalized name. */
export function autoMap(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const field of IMPORT_FIELDS) {
    const index = headers.findIndex((header) => normalizeName(header) === normalizeName(field.key));
    if (index >= 0) mapping[field.key] = index;
  }
  return mapping;
}

/** The decimal separator of each mapped number column, detected from its values. */
export type NumberStyles = Partial<Record<ImportFieldKey, DecimalStyle>>;

/** Without a detected style (a column never looked at), a number has a decimal point and commas between thousands. */
const POINT: DecimalStyle = { decimal: '.', group: ',', from: 'values' };

/**
 * Each mapped number column's decimal separator, from all its cells (`detectDecimalStyle`): when no cell decides
 * (`1,299` reads either way), `locale`'s (the browser's by default).
 */
export function detectNumberStyles(table: CsvTable, mapping: ColumnMapping, locale?: string): NumberStyles {
  const styles: NumberStyles = {};
  for (const field of IMPORT_FIELDS) {
    const index = mapping[field.key];
    if (field.kind !== 'number' || index === undefined) continue;
    styles[field.key] = detectDecimalStyle(
      table.rows.map(({ cells }) => cells[index] ?? ''),
      locale,
    );
  }
  return styles;
}

/** A column's style in words, for the preview: `decimal comma (1.299,00)`, and why when the values did not decide. */
export function describeStyle(style: DecimalStyle): string {
  const words = style.decimal === ',' ? t('catalog-import.styleComma') : t('catalog-import.stylePoint');
  return style.from === 'locale' ? t('catalog-import.styleFromLocale', { style: words }) : words;
}

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/**
 * A cell of `kind` as its field value, a number read with its column's `style`; throws an Error whose message is the
 * reason in the language shown, naming the field as the person reads it (`Price: “abc” is not a number (this column
 * uses a decimal point).`).
 */
function cellValue(key: ImportFieldKey, kind: FieldKind, text: string, style: DecimalStyle = POINT): unknown {
  switch (kind) {
    case 'text':
      return text;
    case 'number': {
      const value = parseWithStyle(text, style);
      if (value === null) throw new Error(t('catalog-import.notANumber', { field: fieldLabel(key), text, style: style.decimal === ',' ? 'comma' : 'point' }));
      return value;
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      throw new Error(t('catalog-import.notABoolean', { field: fieldLabel(key), text }));
    }
    case 'list':
      return text
        .split(/[;|]/)
        .map((part) => part.trim())
        .filter(Boolean);
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new Error(t('catalog-import.notJson', { field: fieldLabel(key) }));
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(t('catalog-import.notAnObject', { field: fieldLabel(key) }));
      return value;
    }
  }
}

/** A row as the body it will send, or the reason it cannot be sent. `externalId` is the row's, when its cell has one. */
export type ConvertedRow = { ok: true; externalId: string; body: ProductUpsertParsed } | { ok: false; externalId: string | null; reason: string };

/**
 * One data row through the cell rules (module docstring; numbers with their column's style from `styles`), then `productUpsertSchema` (the contract's zod schema),
 * whose issues are written as sentences in the language shown (src/lib/error-sentence.ts, issue 34 point 9: `price
 * must not be less than 0` reads as a sentence about the price; the `sentences` catalog must be loaded). A row without
 * an externalId fails with `The row has no External ID.` Every problem of the row is listed, a sentence each.
 */
export function convertRow(cells: readonly string[], mapping: ColumnMapping, styles: NumberStyles = {}): ConvertedRow {
  const body: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const field of IMPORT_FIELDS) {
    const index = mapping[field.key];
    const text = index === undefined ? '' : (cells[index] ?? '').trim();
    if (text === '') continue;
    try {
      body[field.key] = cellValue(field.key, field.kind, text, styles[field.key]);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const externalId = typeof body.externalId === 'string' ? body.externalId : null;
  if (externalId === null) problems.unshift(t('catalog-import.keyRequired'));
  if (!problems.length) {
    const parsed = productUpsertSchema.safeParse(body);
    if (parsed.success) return { ok: true, externalId: externalId!, body: parsed.data };
    problems.push(messageSentences(formatIssues(parsed.error.issues, 'row'), body).join(' '));
  }
  return { ok: false, externalId, reason: problems.join(' ') };
}

/** A row of the run: its number in the file, and either the body to send or why it fails without a request. */
export type PlannedRow = { row: number; externalId: string | null } & ({ body: ProductUpsertParsed; reason?: undefined } | { body?: undefined; reason: string });

/**
 * Every data row converted, in file order, numbers with their column's detected style. A row repeating an earlier row's externalId fails
 * (`The External ID “sku-1” is already on row 3.`): sent together, 4 at a time, their order of arrival would decide the result.
 */
export function planImport(table: CsvTable, mapping: ColumnMapping, styles: NumberStyles = detectNumberStyles(table, mapping)): PlannedRow[] {
  const firstRow = new Map<string, number>();
  return table.rows.map(({ row, cells }) => {
    const converted = convertRow(cells, mapping, styles);
    if (!converted.ok) return { row, externalId: converted.externalId, reason: converted.reason };
    const earlier = firstRow.get(converted.externalId);
    if (earlier !== undefined) return { row, externalId: converted.externalId, reason: t('catalog-import.keyRepeats', { key: converted.externalId, row: earlier }) };
    firstRow.set(converted.externalId, row);
    return { row, externalId: converted.externalId, body: converted.body };
  });
}

/** A row's value as preview text: lists joined by `, `, objects as JSON, absent as empty. */
export function previewText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The outcome of one row of a finished import. */
export type ImportOutcome = 'created' | 'updated' | 'failed';
export type ReportRow = { row: number; externalId: string; outcome: ImportOutcome; productId: string; reason: string };

/** What sending a planned row gave: the answer of `POST /products`, the reason it failed, or undefined when never sent. */
export type SentRow = { id: string; created: boolean } | { reason: string } | undefined;

/** The reason of a row that was never sent because the run was cancelled. */
export const NOT_SENT = 'not sent: the import was cancelled';

/**
 * One report row per planned row, in file order. `sent[i]` is what sending `plan[i]` gave (ignored for rows that
 * failed locally): created (201) or updated (200) with the product id, else failed with the reason.
 */
export function buildReport(plan: readonly PlannedRow[], sent: readonly SentRow[]): ReportRow[] {
  return plan.map((planned, index) => {
    const base = { row: planned.row, externalId: planned.externalId ?? '', productId: '', reason: '' };
    if (planned.reason !== undefined) return { ...base, outcome: 'failed', reason: planned.reason };
    const answer = sent[index];
    if (answer === undefined) return { ...base, outcome: 'failed', reason: NOT_SENT };
    if ('reason' in answer) return { ...base, outcome: 'failed', reason: answer.reason };
    return { ...base, outcome: answer.created ? 'created' : 'updated', productId: answer.id };
  });
}

/** Columns of the downloaded report, in order. */
export const REPORT_COLUMNS = ['row', 'externalId', 'outcome', 'productId', 'reason'] as const;

/**
 * The report as CSV text by papaparse: a header of REPORT_COLUMNS, one CRLF line per row, RFC 4180 quoting, and
 * `'` before any cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab or carriage return first:
 * OWASP "CSV injection", papaparse's `escapeFormulae`). No BOM.
 */
export function reportCsv(rows: readonly ReportRow[]): string {
  const data = rows.map((row) => REPORT_COLUMNS.map((column) => String(row[column])));
  const text = Papa.unparse({ fields: [...REPORT_COLUMNS], data }, { newline: '\r\n', escapeFormulae: true });
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** Counts of a report's outcomes. */
export function countOutcomes(rows: readonly ReportRow[]): Record<ImportOutcome, number> {
  const counts = { created: 0, updated: 0, failed: 0 };
  for (const row of rows) counts[row.outcome]++;
  return counts;
}
