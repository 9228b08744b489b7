import { describe, expect, it } from 'vitest';
import { canonicalTags, caseVariantOf, suggestionsFor } from './tag-match';

const existing = ['lead', 'vip', 'Newsletter'];

describe('tags that differ only in case', () => {
  it('finds the existing tag a typed one matches ignoring case, and none for an exact or new tag', () => {
    expect(caseVariantOf('VIP', existing)).toBe('vip');
    expect(caseVariantOf(' newsletter ', existing)).toBe('Newsletter');
    expect(caseVariantOf('vip', existing)).toBeNull();
    expect(caseVariantOf('vipp', existing)).toBeNull();
    expect(caseVariantOf('', existing)).toBeNull();
  });

  it('offers the existing spelling first', () => {
    expect(suggestionsFor('Vip', existing)).toEqual(['vip', 'lead', 'Newsletter']);
    expect(suggestionsFor('new one', existing)).toBe(existing);
  });

  it('writes variants as the existing tag and drops repeats ignoring case', () => {
    expect(canonicalTags(['VIP', 'fresh', 'vip', ' Fresh ', 'LEAD'], existing)).toEqual(['vip', 'fresh', 'lead']);
  });
});
