import { describe, expect, it } from 'vitest';
import { textOnValue } from './debounced-input';

describe('textOnValue', () => {
  it('keeps what the person typed on when a term the box reported comes back late', () => {
    // "Hed" was reported; the person typed "Hedd" before the URL caught up.
    expect(textOnValue('Hed', 'Hedd', ['Hed'])).toEqual({ text: 'Hedd', reported: [] });
  });

  it('drops the terms reported before the one that came back, and keeps those after it awaited', () => {
    expect(textOnValue('He', 'Hedda', ['He', 'Hedda'])).toEqual({ text: 'Hedda', reported: ['Hedda'] });
    expect(textOnValue('Hedda', 'Hedda H', ['Hedd', 'Hedda'])).toEqual({ text: 'Hedda H', reported: [] });
  });

  it('follows a value the box did not report: Back, Forward, Clear filters, a value the parent rewrote', () => {
    expect(textOnValue('', 'Hedda', [])).toEqual({ text: '', reported: [] });
    expect(textOnValue('oslo', 'berg', ['bergen'])).toEqual({ text: 'oslo', reported: [] });
    expect(textOnValue('12.5', '12,5', ['12,5'])).toEqual({ text: '12.5', reported: [] });
  });

  it('follows a term again once it was seen back (Back, then Forward to it)', () => {
    const seen = textOnValue('ab', 'ab', ['ab']);
    const back = textOnValue('a', seen.text, seen.reported);
    expect(textOnValue('ab', back.text, back.reported)).toEqual({ text: 'ab', reported: [] });
  });
});
