/**
 * The Advanced `$filter` editor words the parser's problems in the language shown (issue 23 point 1), while the
 * parser's own messages stay the API's English (docs/decisions.md section 6).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { contactFilterFields } from '@/api/filter/fields';
import { parseFilter } from '@/api/filter/parse';
import { activateLocale } from '@/i18n/i18n';
import { checkFilterText } from './filter-text-input';

const cases: [filter: string, en: string, nb: string, position: number | null][] = [
  ["state eqq 'active'", 'eqq at character 7 does not fit here', 'eqq ved tegn 7 passer ikke her', 6],
  ["name eq 'Kari", "The text starting at character 9 has no closing quote (')", "Teksten som begynner ved tegn 9, mangler avsluttende apostrof (')", 8],
  ['name eq', 'The filter ends too early: a comparison, value or closing parenthesis is missing', 'Filteret slutter for tidlig: det mangler en sammenligning, en verdi eller en avsluttende parentes', 7],
  ["bio eq 'x'", 'You cannot filter on bio. Fields you can filter on: id, name, email, phone, state, source, systemSource, address, city, postalCode, region, tags, created, and updated', 'Du kan ikke filtrere på bio. Felt du kan filtrere på: id, name, email, phone, state, source, systemSource, address, city, postalCode, region, tags, created og updated', null],
  ['name eq 1', "name takes a text in quotes ('…'), not 1", "name tar en tekst i apostrofer ('…'), ikke 1", null],
  ["tags gt 'vip'", 'tags is a list: use eq (has), ne (has not) or in (has any), not gt', 'tags er en liste: bruk eq (har), ne (har ikke) eller in (har en av), ikke gt', null],
  ["created gt 'yesterday'", "created takes a date such as 2026-11-25, not 'yesterday'", "created tar en dato som 2026-11-25, ikke 'yesterday'", null],
  ["created lt '0001-01-01'", "created takes a date from Jan 1, 1970 to Dec 31, 9999, not '0001-01-01'", "created tar en dato fra 1. jan. 1970 til 31. des. 9999, ikke '0001-01-01'", null],
];

describe('checkFilterText', () => {
  afterAll(() => activateLocale('en'));

  it('accepts an empty text and a valid filter', () => {
    expect(checkFilterText('  ', contactFilterFields)).toEqual({ ok: true });
    expect(checkFilterText("tags eq 'vip' and city eq 'Tromsø'", contactFilterFields)).toEqual({ ok: true });
  });

  for (const [filter, en, nb, position] of cases) {
    it(`words ${filter} in English and in bokmål, pointing at the same place`, async () => {
      await activateLocale('en');
      expect(checkFilterText(filter, contactFilterFields)).toEqual({ ok: false, message: en, position });
      await activateLocale('nb');
      expect(checkFilterText(filter, contactFilterFields)).toEqual({ ok: false, message: nb, position });
    });
  }

  it('leaves the parser’s own message in the API’s English', async () => {
    await activateLocale('nb');
    expect(() => parseFilter("state eqq 'active'")).toThrow("unexpected token 'eqq' at position 6");
  });
});
