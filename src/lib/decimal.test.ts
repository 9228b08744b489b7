import { describe, expect, it } from 'vitest';
import { decimalExample, decimalSeparators, detectDecimalStyle, formatDecimal, parseDecimal, parseWithStyle } from './decimal';

describe('decimalSeparators', () => {
  it.each([
    ['en-US', '.', ','],
    ['de-DE', ',', '.'],
    ['nb-NO', ',', '\u00a0'],
  ])('reads %s from Intl: decimal %j, group %j', (locale, decimal, group) => {
    expect(decimalSeparators(locale)).toEqual({ decimal, group });
  });
});

describe('parseDecimal', () => {
  it.each([
    ['nb-NO', '199,5', 199.5],
    ['nb-NO', '1 299,50', 1299.5],
    ['nb-NO', '1\u00a0299,50', 1299.5],
    ['nb-NO', '199.5', 199.5],
    ['nb-NO', '−3,25', -3.25],
    ['de-DE', '199,5', 199.5],
    ['de-DE', '1.299,00', 1299],
    ['de-DE', '1.299', 1299],
    ['de-DE', '19.95', 19.95],
    ['de-DE', ',5', 0.5],
    ['en-US', '199.5', 199.5],
    ['en-US', '1,299.00', 1299],
    ['en-US', '12', 12],
    ['en-US', ' 0 ', 0],
  ])('in %s reads %j as %d', (locale, text, value) => {
    expect(parseDecimal(text, locale)).toBe(value);
  });

  it.each([
    ['en-US', '199,5'],
    ['en-US', '1,29.00'],
    ['de-DE', '1,299.00'],
    ['de-DE', '12,5,1'],
    ['nb-NO', 'abc'],
    ['nb-NO', ''],
    ['nb-NO', ','],
    ['en-US', '1e3'],
    ['en-US', '--1'],
  ])('in %s refuses %j', (locale, text) => {
    expect(parseDecimal(text, locale)).toBeNull();
  });
});

describe('formatDecimal and decimalExample', () => {
  it('shows numbers as inputs in the locale, without grouping and keeping every decimal', () => {
    expect(formatDecimal(1299.5, 'nb-NO')).toBe('1299,5');
    expect(formatDecimal(1299.5, 'de-DE')).toBe('1299,5');
    expect(formatDecimal(1299.125, 'en-US')).toBe('1299.125');
    expect(decimalExample('de-DE')).toBe('1.234,5');
  });

  it('reads back what it shows, in every tested locale', () => {
    for (const locale of ['nb-NO', 'de-DE', 'en-US']) {
      for (const value of [0, 0.5, 19.95, 1299.5, 1234567.891]) expect(parseDecimal(formatDecimal(value, locale), locale)).toBe(value);
    }
  });
});

describe('detectDecimalStyle', () => {
  it.each([
    [['1,299.00', '12'], '.'],
    [['1.299,00', '12'], ','],
    [['12,5', '7'], ','],
    [['12.5'], '.'],
    [['1.299.000'], ','],
    [['1,299,000'], '.'],
    [['1,299', '12,50'], ','],
  ])('reads %j with a decimal %j, from the values', (values, decimal) => {
    expect(detectDecimalStyle(values, 'en-US')).toMatchObject({ decimal, from: 'values' });
  });

  it("follows the locale when no value decides", () => {
    expect(detectDecimalStyle(['1,299', '12'], 'en-US')).toEqual({ decimal: '.', group: ',', from: 'locale' });
    expect(detectDecimalStyle(['1,299', '12'], 'de-DE')).toEqual({ decimal: ',', group: '.', from: 'locale' });
    expect(detectDecimalStyle([], 'nb-NO')).toMatchObject({ decimal: ',', from: 'locale' });
  });

  it('reads cells with the detected style, exponents included', () => {
    expect(parseWithStyle('1.299,00', { decimal: ',', group: '.' })).toBe(1299);
    expect(parseWithStyle('1,299.00', { decimal: '.', group: ',' })).toBe(1299);
    expect(parseWithStyle('1e3', { decimal: '.', group: ',' })).toBe(1000);
    expect(parseWithStyle('12.5', { decimal: ',', group: '.' })).toBeNull();
  });
});
