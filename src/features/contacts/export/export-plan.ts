/**
 * What an export asks the service for (issue 23 point 10), framework-free and unit-tested (export-plan.test.ts).
 *
 * The export is `GET /contacts` with `Accept: text/csv` or the xlsx type (interface document endpoint 3;
 * docs/decisions.md section 7): it takes `$filter` and `$orderBy`, nothing else (an unknown parameter is a 400), so the
 * selection travels as `id in ('…', '…')` filters and the column choice is applied in the browser. A filter is at
 * most 2,000 characters, 50 comparisons and 100 values in one `in` (docs/decisions.md section 6): a contact id (a UUID)
 * printed with its quotes and separator takes 40 characters, so one request carries about 49 ids, and a
 * selection of any size is cut into the fewest such filters (`idFilters`, greedy packing, which is optimal here:
 * every id costs the same or nearly, and the character limit binds before the 100 values).
 *
 * Fewer requests for big selections: when the ids need more than one request and the list's own filter matches at
 * most `FILTER_ROUTE_MAX_ROWS` contacts, the plan asks for the whole filter once and keeps only the selected rows
 * in the browser (`keepIds`); any selected id the filter did not return (a selection made under another filter)
 * is then fetched by id (`missingFilters`). One request for a page of 100 selected rows instead of three; the
 * bandwidth is bounded by the row cap.
 */
import type { FilterNode } from '@/api/filter/ast';
import { printFilter } from '@/api/filter/print';
import { CONTACT_EXPORT_COLUMNS } from '@/api/contacts';

/** docs/decisions.md section 6: most characters in a `$filter`, most values in one `in`. */
export const FILTER_MAX_CHARS = 2000;
export const IN_MAX_VALUES = 100;
/** The largest list fetched whole to pick a selection out of it, in rows (about 2 MB of CSV). */
export const FILTER_ROUTE_MAX_ROWS = 10_000;

/** `id in (…)` filters holding every id once, in order, each within the filter limits; `[]` for no ids. */
export function idFilters(ids: readonly string[]): FilterNode[] {
  const filters: FilterNode[] = [];
  let values: string[] = [];
  const fits = (next: string[]) => next.length <= IN_MAX_VALUES && printFilter({ kind: 'in', field: 'id', values: next }).length <= FILTER_MAX_CHARS;
  for (const id of new Set(ids)) {
    if (values.length && !fits([...values, id])) {
      filters.push({ kind: 'in', field: 'id', values });
      values = [];
    }
    if (!fits([id])) throw new RangeError(`a contact id of ${id.length} characters cannot be written in one filter`);
    values.push(id);
  }
  if (values.length) filters.push({ kind: 'in', field: 'id', values });
  return filters;
}

/** The export columns to keep: `null` for all fields; else the shown table columns, in the export's order (`id` is never a table column). */
export function exportColumns(choice: 'visible' | 'all', hiddenTableColumns: readonly string[], tableColumns: readonly string[]): string[] | null {
  if (choice === 'all') return null;
  return CONTACT_EXPORT_COLUMNS.filter((column) => tableColumns.includes(column) && !hiddenTableColumns.includes(column));
}

/**
 * The requests of an export and what the browser does with their files:
 * - `filters`: one `$filter` per request (`undefined`: no filter, every contact);
 * - `keepIds`: keep only these rows (the selection, when the list's filter is fetched whole), else null;
 * - `columns`: keep only these columns, else null (all fields);
 * - `rewrite`: whether the browser must read and write the file (several parts, rows or columns dropped); when
 *   false the service's file is saved as it is.
 */
export type ExportPlan = { filters: (FilterNode | undefined)[]; keepIds: ReadonlySet<string> | null; columns: string[] | null; rewrite: boolean };

/**
 * The plan for exporting `selectedIds` (all matching contacts when empty) of the list whose filter is `filter`
 * and which matches `total` contacts, keeping `columns` (null: all fields).
 */
export function planExport(options: { selectedIds: readonly string[]; filter: FilterNode | undefined; total: number | undefined; columns: string[] | null }): ExportPlan {
  const { selectedIds, filter, total, columns } = options;
  if (selectedIds.length === 0) return { filters: [filter], keepIds: null, columns, rewrite: columns !== null };
  const byId = idFilters(selectedIds);
  if (byId.length > 1 && total !== undefined && total <= FILTER_ROUTE_MAX_ROWS && total < selectedIds.length * 50) {
    return { filters: [filter], keepIds: new Set(selectedIds), columns, rewrite: true };
  }
  return { filters: byId, keepIds: null, columns, rewrite: byId.length > 1 || columns !== null };
}

/** The filters fetching the selected ids that the parts read so far did not hold (`found`), fewest requests. */
export function missingFilters(selectedIds: readonly string[], found: ReadonlySet<string>): FilterNode[] {
  return idFilters(selectedIds.filter((id) => !found.has(id)));
}
