import { describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { countText, notLoadedText } from './list-count';

describe('countText', () => {
  it('keeps the page’s own count, and says when it is the last known one', () => {
    expect(countText('1 product')).toBe('1 product');
    expect(countText('2,500 matching products', true)).toBe('2,500 matching products (last known: waiting)');
  });

  it('says it in bokmål (issue 23)', async () => {
    await activateLocale('nb', { needed: ['lists'] });
    try {
      expect(countText('3 kolleksjoner', true)).not.toContain('last known');
      expect(countText('3 kolleksjoner', true)).toMatch(/^3 kolleksjoner \(.+\)$/);
      expect(notLoadedText()).not.toBe('This list could not be loaded: see the message above.');
    } finally {
      await activateLocale('en');
    }
  });
});
