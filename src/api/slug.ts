/**
 * Handles: the lower-case slug rule of docs/decisions.md section 7 ("`handle` is a lower-case slug ... derived from the
 * title when absent"). Framework-free, so the service and the dashboard derive the same handle from a title; the
 * result always passes `handleSchema` (src/api/catalog.ts) unless it is the empty string.
 */

/**
 * A lower-case slug of `title`: accents dropped (NFKD), every run of other characters one `-`, no dash at either
 * end, at most 240 characters (room for a `-2` suffix within the 255 of `handleSchema`). `fallback` when nothing
 * is left (`'!!!'`, `'日本'`): `Summer Jacket!` -> `summer-jacket`, `Crème brûlée` -> `creme-brulee`.
 */
export function slugify(title: string, fallback = 'item'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 240)
    .replace(/-+$/, '');
  return slug || fallback;
}
