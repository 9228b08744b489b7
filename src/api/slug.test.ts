import { describe, expect, it } from 'vitest';
import { handleSchema } from './catalog';
import { slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Summer Jacket!', 'summer-jacket'],
    ['  Crème brûlée  ', 'creme-brulee'],
    ['T-Shirt -- XL', 't-shirt-xl'],
    ['100% Cotton_Socks', '100-cotton-socks'],
  ])('turns %j into %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('gives the fallback when nothing is left of the title', () => {
    expect(slugify('!!!')).toBe('item');
    expect(slugify('日本', 'product')).toBe('product');
    expect(slugify('', '')).toBe('');
  });

  it('keeps at most 240 characters and never ends on a dash', () => {
    const slug = slugify(`${'a'.repeat(239)} b`);
    expect(slug).toBe('a'.repeat(239));
    expect(slugify('x'.repeat(300))).toHaveLength(240);
  });

  it('always gives a handle the contract accepts', () => {
    for (const title of ['Hello World', 'Ünïcödé', '--a--b--', 'A1 B2 C3', 'x'.repeat(500)]) expect(handleSchema.safeParse(slugify(title)).success).toBe(true);
  });
});
