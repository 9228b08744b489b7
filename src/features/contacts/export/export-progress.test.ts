import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { durationText } from '@/lib/duration';
import { XLSX_BYTES_PER_ROW, exportProgress } from './export-progress';
import { busyText } from './export-retry';

describe('exportProgress', () => {
  it('shows CSV rows of the total, the percent and the time left at the rate so far', () => {
    const shown = exportProgress({ format: 'csv', bytes: 300 * 1024, rows: 1250, startedAt: 0 }, 5000, 10_000);
    expect(shown).toEqual({ percent: 25, text: '1,250 of 5,000 rows (25%) · 300 KB · about 30 s left', estimated: false });
  });

  it('shows xlsx bytes with an estimate said to be one, never 100% before the end', () => {
    const half = exportProgress({ format: 'xlsx', bytes: 2500 * XLSX_BYTES_PER_ROW, rows: null, startedAt: 0 }, 5000, 4000);
    expect(half.estimated).toBe(true);
    expect(half.percent).toBe(50);
    expect(half.text).toMatch(/^391 KB received · about 50% \(estimated from the size/);
    expect(half.text).toMatch(/about 4 s left$/);
    expect(exportProgress({ format: 'xlsx', bytes: 10 * 5000 * XLSX_BYTES_PER_ROW, rows: null, startedAt: 0 }, 5000, 4000).percent).toBe(99);
  });
});

describe('durationText', () => {
  it.each([
    [0.4, 'about 0 s'],
    [42, 'about 42 s'],
    [75, 'about 1 min 15 s'],
    [120, 'about 2 min'],
    [3 * 3600 + 30 * 60, 'about 3 h 30 min'],
  ])('%s s reads %s', (seconds, text) => expect(durationText(seconds)).toBe(text));
});

describe('exportProgress in bokmål (issue 23)', () => {
  afterAll(() => activateLocale('en'));

  it('writes rows, percent and size through Intl in the language shown', async () => {
    await activateLocale('nb');
    const shown = exportProgress({ format: 'csv', bytes: 2 * 1024 * 1024, rows: 1250, startedAt: 0 }, 5000, 0);
    expect(shown.text.replace(/[\u00a0\u202f]/g, ' ')).toBe('1 250 av 5 000 rader (25 %) · 2,0 MB');
    expect(busyText(3, 2)).toBe('Eksporten din er nummer 2 i køen; prøver igjen om 3 s');
    expect(busyText(3, 1)).toBe('Eksporten din er neste i køen; prøver igjen om 3 s');
  });
});
