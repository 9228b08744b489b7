import { describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { countText } from './list-count';

describe('countText', () => {
  it('counts with the right plural', () => {
    expect(countText(1, false, 'product')).toBe('1 product');
    expect(countText(2500, true, 'product')).toBe(`${(2500).toLocaleString()} matching products`);
    expect(countText(0, false, 'collection')).toBe('0 collections');
    expect(countText(3, true, 'collection', true)).toBe('3 collections (last known: waiting)');
  });

  it('counts in bokmål, the number through Intl (issue 23)', async () => {
    await activateLocale('nb', { needed: ['lists'] });
    try {
      expect(countText(2500, true, 'product')).toBe(`${new Intl.NumberFormat('nb-NO').format(2500)} produkter passer`);
      expect(countText(1, false, 'collection')).toBe('1 kolleksjon');
    } finally {
      await activateLocale('en');
    }
  });
});
