/**
 * `$orderBy` parsing and printing (docs/decisions.md section 6):
 *
 *   orderBy = item *( "," item )        ; at most 10 items, each field at most once
 *   item    = field [ "asc" / "desc" ]  ; direction case-insensitive, default asc
 */

/** One sort key (docs/decisions.md section 6). */
export type OrderByItem = { field: string; direction: 'asc' | 'desc' };

/** Most items in one `$orderBy` (docs/decisions.md section 6). */
export const ORDER_BY_MAX_ITEMS = 10;

/**
 * The only error `parseOrderBy` throws (docs/decisions.md section 6). `position` is the 0-based index
 * into the input where the problem starts. Messages are unprefixed.
 */
export class OrderBySyntaxError extends Error {
  override readonly name = 'OrderBySyntaxError';
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses `state asc, created desc` into `[{ field: 'state', direction: 'asc' }, ...]`
 * (docs/decisions.md section 6). Field names are exact identifiers; whitespace (spaces, tabs,
 * newlines) around items and commas is ignored.
 * @throws OrderBySyntaxError with messages such as `empty $orderBy`,
 *   `expected a field name at position 5` (e.g. after a trailing comma),
 *   `invalid field name 'na-me' at position 0`,
 *   `expected 'asc' or 'desc' after 'name' at position 5`,
 *   `expected ',' after 'name desc' at position 10`, `field 'name' appears twice`,
 *   `$orderBy has more than 10 items`.
 */
export function parseOrderBy(text: string): OrderByItem[] {
  if (text.trim() === '') throw new OrderBySyntaxError('empty $orderBy', 0);
  const items: OrderByItem[] = [];
  let start = 0;
  for (const part of text.split(',')) {
    const words = [...part.matchAll(/[^ \t\r\n]+/g)].map((m) => ({ text: m[0], pos: start + m.index }));
    start += part.length + 1;
    const [field, direction, extra] = words;

    if (field === undefined) {
      const end = start - 1; // where this item's comma or the input ends
      throw new OrderBySyntaxError(`expected a field name at position ${end}`, end);
    }
    if (!FIELD.test(field.text)) {
      throw new OrderBySyntaxError(`invalid field name '${field.text}' at position ${field.pos}`, field.pos);
    }
    if (items.length === ORDER_BY_MAX_ITEMS) {
      throw new OrderBySyntaxError(`$orderBy has more than ${ORDER_BY_MAX_ITEMS} items`, field.pos);
    }
    if (items.some((item) => item.field === field.text)) {
      throw new OrderBySyntaxError(`field '${field.text}' appears twice`, field.pos);
    }
    const lower = direction?.text.toLowerCase();
    if (direction !== undefined && lower !== 'asc' && lower !== 'desc') {
      throw new OrderBySyntaxError(`expected 'asc' or 'desc' after '${field.text}' at position ${direction.pos}`, direction.pos);
    }
    if (extra !== undefined) {
      throw new OrderBySyntaxError(`expected ',' after '${field.text} ${direction!.text}' at position ${extra.pos}`, extra.pos);
    }
    items.push({ field: field.text, direction: lower === 'desc' ? 'desc' : 'asc' });
  }
  return items;
}

/**
 * Prints items as `name asc, created desc`, always with the direction; `[]` prints as `''`
 * (omit the parameter then) (docs/decisions.md section 6).
 * @throws RangeError for a field that is not an identifier `[A-Za-z_][A-Za-z0-9_]*`.
 */
export function printOrderBy(items: readonly OrderByItem[]): string {
  return items
    .map(({ field, direction }) => {
      if (!FIELD.test(field)) throw new RangeError(`cannot print field name '${field}'`);
      return `${field} ${direction}`;
    })
    .join(', ');
}
