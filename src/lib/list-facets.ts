/**
 * Pieces shared by the list pages' URL state and filters (docs/style.md, lists; issue 6): zod schemas for common
 * search parameters (page and size, a comma list, a calendar day, an amount), each falling back to its default
 * when malformed, and builders that turn facet values into `$filter` AST nodes with the shared builders
 * (docs/decisions.md section 6: `like` contains-matches, `between` is inclusive, dates compare as instants).
 */
import * as z from 'zod/mini';
import { type FilterNode, type FilterValue, between, compare, inList, literalLike } from '@/api/filter/ast';

/** Page sizes offered by the lists, all within the default `$limit` cap of 100 (docs/decisions.md section 6). */
export const LIST_PAGE_SIZES = [10, 20, 50, 100] as const;

/** `page` (1-based) and `size` (one of `LIST_PAGE_SIZES`, default 20), for a list's search schema. */
export const pageParams = {
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1),
  size: z._default(z.coerce.number().check(z.refine((size) => (LIST_PAGE_SIZES as readonly number[]).includes(size))), 20),
};

/** `a,b,c` as a list: trimmed, blanks and repeats dropped, at most 100 (the `in` limit); `[]` when absent. */
export const commaListParam = z._default(
  z.pipe(
    z.string().check(z.maxLength(2000)),
    z.transform((text: string) => [...new Set(text.split(',').map((part) => part.trim()).filter(Boolean))].slice(0, 100)),
  ),
  [],
);

/** A calendar day `YYYY-MM-DD` that exists (`2026-02-30` does not), as a native date input gives it. */
export const dayParam = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  z.refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }),
);

/** A non-negative amount in major units (`12.5`), as the catalogue's money fields take (docs/decisions.md section 1). */
export const amountParam = z.coerce.number().check(z.gte(0), z.lte(1e12));

/** `field like '<text>'` matching the typed text literally ("contains"), or undefined for blank text. */
export function containsFilter(field: string, text: string): FilterNode | undefined {
  return text.trim() ? compare(field, 'like', literalLike(text)) : undefined;
}

/** `field in (...)` ("has any of" on array fields), or undefined for no values. */
export function anyOfFilter(field: string, values: readonly string[]): FilterNode | undefined {
  return values.length ? inList(field, values) : undefined;
}

/**
 * A range on `field`: `between low and high` (inclusive) when both ends are given, `ge low` or `le high` when
 * one is, undefined when neither is. Ends are not reordered: a low above the high matches nothing.
 */
export function rangeFilter(field: string, low: FilterValue | undefined, high: FilterValue | undefined): FilterNode | undefined {
  if (low !== undefined && high !== undefined) return between(field, low, high);
  if (low !== undefined) return compare(field, 'ge', low);
  if (high !== undefined) return compare(field, 'le', high);
  return undefined;
}

/** The first (or the last) millisecond of a local calendar day `YYYY-MM-DD`, as an ISO instant. */
export function localDayBound(day: string, end: boolean): string {
  return new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString();
}

/** A date range of whole local days on `field` (`from` 00:00 to `to` 23:59:59.999), see `rangeFilter`. */
export function dayRangeFilter(field: string, from: string | undefined, to: string | undefined): FilterNode | undefined {
  return rangeFilter(field, from ? localDayBound(from, false) : undefined, to ? localDayBound(to, true) : undefined);
}
