import { describe, expect, it } from 'vitest';
import { weekBuckets, weekStart } from './week-buckets';

describe('week buckets of the overview', () => {
  it('starts a week on Monday at local midnight', () => {
    const sunday = new Date(2026, 10, 29, 23, 59); // Sunday 29 November 2026
    expect(weekStart(sunday)).toEqual(new Date(2026, 10, 23));
    const monday = new Date(2026, 10, 30, 0, 0);
    expect(weekStart(monday)).toEqual(new Date(2026, 10, 30));
  });

  it('gives 12 consecutive weeks, oldest first, the current one last, with no gap or overlap', () => {
    const now = new Date(2026, 10, 25, 16, 40); // Wednesday
    const weeks = weekBuckets(now);
    expect(weeks).toHaveLength(12);
    expect(weeks.at(-1)).toEqual({ start: new Date(2026, 10, 23), end: new Date(2026, 10, 30) });
    expect(weeks[0]!.start).toEqual(new Date(2026, 8, 7));
    for (let i = 1; i < weeks.length; i += 1) expect(weeks[i]!.start).toEqual(weeks[i - 1]!.end);
    expect(weeks.every((week) => week.start.getDay() === 1 && week.start.getHours() === 0)).toBe(true);
    expect(now >= weeks.at(-1)!.start && now < weeks.at(-1)!.end).toBe(true);
  });

  it('crosses a year end', () => {
    const weeks = weekBuckets(new Date(2027, 0, 2), 2); // Saturday 2 January 2027
    expect(weeks.map((week) => week.start)).toEqual([new Date(2026, 11, 21), new Date(2026, 11, 28)]);
  });

  it('refuses a count out of range and an invalid date', () => {
    expect(() => weekBuckets(new Date(), 0)).toThrow(RangeError);
    expect(() => weekBuckets(new Date(), 1.5)).toThrow(RangeError);
    expect(() => weekBuckets(new Date('nope'))).toThrow(RangeError);
  });
});
