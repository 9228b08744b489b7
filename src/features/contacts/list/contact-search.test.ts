import { describe, expect, it, vi } from 'vitest';
import { printFilter } from '@/api/filter/print';
import { contactSearchSchema, facetFilter, phoneSearchTerm } from './contact-search';

const searchFor = (q: string) => {
  const filter = facetFilter(contactSearchSchema.parse({ q }));
  return filter ? printFilter(filter) : undefined;
};

describe('phoneSearchTerm', () => {
  it.each([
    ['+4712345678', '+4712345678'],
    ['+47 123 45 678', '+4712345678'],
    ['4712345678', '4712345678'],
    ['47 12 34', '471234'],
    ['+47 (0) 12-34.56', '+470123456'],
    ['123', '123'],
    ['12/34', '1234'],
  ])('reads %j as the phone digits %j', (typed, digits) => {
    expect(phoneSearchTerm(typed)).toBe(digits);
  });

  it.each(['ann', 'ann 12', '+', '', ' ', '12+34', '+-', '١٢٣'])('reads %j as no phone number', (typed) => {
    expect(phoneSearchTerm(typed)).toBeNull();
  });
});

describe('the search box filter', () => {
  it('searches name and email for words', () => {
    expect(searchFor('Ann')).toBe("name like 'Ann' or email like 'Ann'");
  });

  it('also searches the phone for a number typed with spaces and a plus', () => {
    expect(searchFor(' +47 123 45 ')).toBe("name like '+47 123 45' or email like '+47 123 45' or phone like '+4712345'");
  });

  it('also searches the phone for digits typed without a plus', () => {
    expect(searchFor('12345')).toBe("name like '12345' or email like '12345' or phone like '12345'");
  });

  it('keeps typed wildcards literal in every field', () => {
    expect(searchFor('10%_a')).toBe("name like '10\\%\\_a' or email like '10\\%\\_a'");
  });
});

describe('the advanced filter, read with the parser loaded on demand', () => {
  it('is not loaded until asked for, then accepts a valid filter and refuses an invalid one', async () => {
    // A fresh module graph: the test files of a worker share modules (vitest.config.ts), and an earlier file may
    // have loaded the parser already.
    vi.resetModules();
    const { contactFilter, contactSearchSchema } = await import('./contact-search');
    const { contactFilterParser, loadFilterParser } = await import('./filter-parser');
    expect(contactFilterParser()).toBeUndefined();
    expect(() => contactFilter(contactSearchSchema.parse({}))).not.toThrow();
    await loadFilterParser();
    const search = contactSearchSchema.parse({ filter: "city eq 'Oslo'" });
    const filter = contactFilter(search);
    expect(filter && printFilter(filter)).toBe("city eq 'Oslo'");
    expect(contactSearchSchema.safeParse({ filter: 'city eq' }).success).toBe(false);
    expect(contactSearchSchema.safeParse({ filter: "nosuchfield eq 'x'" }).success).toBe(false);
  });
});
