/**
 * Key-value maps (statusTags, customProperties) as editable rows of key, type and value (issues 5 and 6), without
 * React, so form schemas can use them: `rowsOf` for an existing object, `toRecord` back to the object the API
 * takes. Types: text, number (typed and shown in the reader's locale, src/lib/decimal.ts; issue 14 point 6),
 * true/false, JSON.
 */
import { decimalExample, formatDecimal, parseDecimal } from './decimal';

export type ValueType = 'text' | 'number' | 'boolean' | 'json';
export type KeyValueRow = { key: string; type: ValueType; value: string };

/** Rows for an existing object (for editing). */
export function rowsOf(record: Record<string, unknown> | null | undefined): KeyValueRow[] {
  return Object.entries(record ?? {}).map(([key, value]) => {
    if (typeof value === 'number') return { key, type: 'number', value: formatDecimal(value) };
    if (typeof value === 'boolean') return { key, type: 'boolean', value: String(value) };
    if (typeof value === 'string') return { key, type: 'text', value };
    return { key, type: 'json', value: JSON.stringify(value) };
  });
}

/** The object for `rows`, or the first problem as a message. */
export function toRecord(rows: readonly KeyValueRow[]): { record: Record<string, unknown> } | { error: string } {
  const record: Record<string, unknown> = {};
  for (const [index, row] of rows.entries()) {
    const key = row.key.trim();
    if (!key) return { error: `row ${index + 1} has no key` };
    if (key in record) return { error: `the key ${key} appears twice` };
    if (row.type === 'number') {
      const number = parseDecimal(row.value);
      if (number === null) return { error: `${key} is not a number such as ${decimalExample()}` };
      record[key] = number;
    } else if (row.type === 'boolean') record[key] = row.value === 'true';
    else if (row.type === 'json') {
      try {
        record[key] = JSON.parse(row.value);
      } catch {
        return { error: `${key} is not valid JSON` };
      }
    } else record[key] = row.value;
  }
  return { record };
}
