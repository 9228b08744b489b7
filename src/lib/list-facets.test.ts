import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { printFilter } from '@/api/filter/print';
import { amountParam, anyOfFilter, commaListParam, containsFilter, dayParam, dayRangeFilter, localDayBound, rangeFilter } from './list-facets';

const printed = (node: ReturnType<typeof rangeFilter>) => (node ? printFilter(node) : undefined);

describe('list facets', () => {
  it('builds ranges from either end, both, or neither', () => {
    expect(printed(rangeFilter('price', 1, 5))).toBe('price between 1 and 5');
    expect(printed(rangeFilter('price', 1, undefined))).toBe('price ge 1');
    expect(printed(rangeFilter('price', undefined, 0))).toBe('price le 0');
    expect(rangeFilter('price', undefined, undefined)).toBeUndefined();
  });

  it('covers whole local days', () => {
    expect(printed(dayRangeFilter('created', '2026-03-01', undefined))).toBe(`created ge '${localDayBound('2026-03-01', false)}'`);
    expect(new Date(localDayBound('2026-03-01', true)).getTime() - new Date(localDayBound('2026-03-01', false)).getTime()).toBe(86_399_999);
  });

  it('matches typed text literally, and skips blank text and empty lists', () => {
    expect(printed(containsFilter('title', ' 100%_ '))).toBe("title like '100\\%\\_'");
    expect(containsFilter('title', '  ')).toBeUndefined();
    expect(printed(anyOfFilter('tags', ['a', "b'c"]))).toBe("tags in ('a', 'b''c')");
    expect(anyOfFilter('tags', [])).toBeUndefined();
  });

  it('parses URL values, refusing what is malformed', () => {
    expect(commaListParam.parse('a, b,,a')).toEqual(['a', 'b']);
    expect(commaListParam.parse(undefined)).toEqual([]);
    expect(dayParam.safeParse('2026-02-29').success).toBe(false);
    expect(dayParam.safeParse('2028-02-29').success).toBe(true);
    expect(amountParam.safeParse('12.5').data).toBe(12.5);
    expect(amountParam.safeParse('-1').success).toBe(false);
    expect(z.object({ min: z.optional(amountParam) }).safeParse({ min: 'abc' }).success).toBe(false);
  });
});
