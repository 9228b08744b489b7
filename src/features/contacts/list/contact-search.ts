/**
 * The contacts list's URL state (issue 5) and how it becomes the request: page, size and sort, the facets
 * (search, state, tags, created range, city) or an advanced `$filter` text, all composed into one `$filter` AST
 * by the shared builders (docs/style.md: never concatenated by hand). A malformed value falls back to its default.
 */
import * as z from 'zod/mini';
import { type FilterNode, and, between, compare, inList, literalLike } from '@/api/filter/ast';
import { contactSortFields } from '@/api/filter/fields';
import type { OrderByItem } from '@/api/filter/order-by';
import { personSearchFilter, phoneSearchTerm } from '@/lib/person-filter';
import { requireFilterParser } from './filter-parser';

export const CONTACT_PAGE_SIZES = [10, 20, 50, 100] as const;

const sortSchema = z
  .string()
  .check(
    z.maxLength(200),
    z.refine((text) => text.split(',').every((part) => /^[a-zA-Z]+:(asc|desc)$/.test(part) && contactSortFields.includes(part.split(':')[0]!))),
  );

/**
 * Parses only a filter the shared parser and field checks accept; anything else is refused by the schema. The parser
 * is loaded on demand (filter-parser.ts): the page waits for it whenever the address holds a filter.
 */
function isValidFilter(text: string): boolean {
  return requireFilterParser().isValidContactFilter(text);
}

const day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  z.refine((text) => !Number.isNaN(Date.parse(text))),
);

export const contactSearchSchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1),
  size: z._default(z.coerce.number().check(z.refine((size) => (CONTACT_PAGE_SIZES as readonly number[]).includes(size))), 20),
  sort: z.optional(sortSchema),
  q: z._default(z.string().check(z.maxLength(200)), ''),
  state: z.optional(z.enum(['active', 'pending'])),
  tags: z._default(
    z.pipe(
      z.string().check(z.maxLength(2000)),
      z.transform((text: string) => [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))].slice(0, 100)),
    ),
    [],
  ),
  from: z.optional(day),
  to: z.optional(day),
  city: z._default(z.string().check(z.maxLength(200)), ''),
  filter: z.optional(z.string().check(z.maxLength(2000), z.refine(isValidFilter))),
});
export type ContactSearch = z.output<typeof contactSearchSchema>;

/** `name:asc,created:desc` to `$orderBy` items; the default order (newest first) when empty. */
export function orderByOf(sort: string | undefined): OrderByItem[] {
  if (!sort) return [];
  return sort.split(',').map((part) => {
    const [field = '', direction] = part.split(':');
    return { field, direction: direction === 'desc' ? 'desc' : 'asc' };
  });
}

/** `$orderBy` items back to the URL form. */
export function sortOf(items: readonly OrderByItem[]): string | undefined {
  return items.length ? items.map((item) => `${item.field}:${item.direction}`).join(',') : undefined;
}

/** Midnight at the start (or the end) of a local calendar day, as an ISO instant. */
function localDay(date: string, end: boolean): string {
  return new Date(`${date}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString();
}

/** The search box's filter and its phone reading are shared with the header's search (src/lib/person-filter.ts). */
export { phoneSearchTerm };
const searchFilter = personSearchFilter;

/** The facets as one AST: search (name, email or phone), state, any of the tags, created range, city. */
export function facetFilter(search: ContactSearch): FilterNode | undefined {
  const text = search.q.trim();
  const city = search.city.trim();
  const created =
    search.from && search.to
      ? between('created', localDay(search.from, false), localDay(search.to, true))
      : search.from
        ? compare('created', 'ge', localDay(search.from, false))
        : search.to
          ? compare('created', 'le', localDay(search.to, true))
          : undefined;
  return and(
    text ? searchFilter(text) : undefined,
    search.state ? compare('state', 'eq', search.state) : undefined,
    search.tags.length ? inList('tags', search.tags) : undefined,
    created,
    city ? compare('city', 'like', literalLike(city)) : undefined,
  );
}

/** The filter the list requests: the advanced text when one is applied, else the facets. */
export function contactFilter(search: ContactSearch): FilterNode | undefined {
  return search.filter ? requireFilterParser().parseContactFilter(search.filter) : facetFilter(search);
}

/** True when any filter narrows the list. */
export function isFiltered(search: ContactSearch): boolean {
  return Boolean(search.filter || search.q.trim() || search.state || search.tags.length || search.from || search.to || search.city.trim());
}

/** The patch that clears every filter (page, size and sort stay). */
export const CLEAR_FILTERS: Partial<ContactSearch> = { q: '', state: undefined, tags: [], from: undefined, to: undefined, city: '', filter: undefined };
