import { describe, expect, it } from 'vitest';
import { currencyOptions, formatMoney, isMarkedDown } from './money';

describe('formatMoney', () => {
  it('formats an amount in its currency', () => {
    expect(formatMoney(1234.5, 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney(12, 'EUR', 'en-US')).toBe('€12.00');
    expect(formatMoney(99, 'JPY', 'en-US')).toBe('¥99');
  });

  it('shows a plain amount when there is no currency', () => {
    expect(formatMoney(5, null, 'en-US')).toBe('5.00');
    expect(formatMoney(5, '', 'en-US')).toBe('5.00');
  });

  it('never throws for a code Intl refuses', () => {
    expect(formatMoney(5, 'not a code', 'en-US')).toBe('5.00 not a code');
  });
});

describe('isMarkedDown', () => {
  it('is true only when the original price is higher than the price', () => {
    expect(isMarkedDown(10, 12)).toBe(true);
    expect(isMarkedDown(10, 10)).toBe(false);
    expect(isMarkedDown(10, 8)).toBe(false);
    expect(isMarkedDown(null, 8)).toBe(false);
    expect(isMarkedDown(10, null)).toBe(false);
  });
});

describe('currencyOptions', () => {
  it('lists the ISO codes Intl supports with their names, sorted', () => {
    const options = currencyOptions([], 'en-US');
    expect(options.find((option) => option.value === 'EUR')?.label).toBe('EUR · Euro');
    expect(options.map((option) => option.value)).toEqual([...options.map((option) => option.value)].sort());
    expect(options.length).toBeGreaterThan(100);
  });

  it("keeps a record's own code even when Intl does not list it", () => {
    expect(currencyOptions(['XYZ'], 'en-US').some((option) => option.value === 'XYZ')).toBe(true);
  });
});
