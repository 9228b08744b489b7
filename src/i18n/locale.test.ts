import { afterEach, describe, expect, it, vi } from 'vitest';
import { intlLocale } from './locale';

describe('intlLocale (issue 23 point 3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("pairs the language with the browser's region, and follows the browser's languages when they change", () => {
    vi.stubGlobal('navigator', { languages: ['nb-NO', 'en-US'], language: 'nb-NO' });
    expect(intlLocale('nb')).toBe('nb-NO');
    expect(intlLocale('en')).toBe('en-NO');
    vi.stubGlobal('navigator', { languages: ['en-GB'], language: 'en-GB' });
    expect(intlLocale('en')).toBe('en-GB');
    expect(intlLocale('nb')).toBe('nb-GB');
  });

  it('answers the language alone without a region, and a default region without a browser', () => {
    vi.stubGlobal('navigator', { languages: ['en'], language: 'en' });
    expect(intlLocale('en')).toBe('en-US');
    vi.stubGlobal('navigator', undefined);
    expect(intlLocale('nb')).toBe('nb-NO');
  });
});
