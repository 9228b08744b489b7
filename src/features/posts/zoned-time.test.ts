import { describe, expect, it } from 'vitest';
import { exemplarCity, isTimeZone, timeZoneNames, utcToZoned, zonedToUtc, formatZoned, zoneMatches } from './zoned-time';

const iso = (local: string, zone: string) => zonedToUtc(local, zone)?.toISOString() ?? null;

describe('zonedToUtc: a wall time in a chosen zone to the instant sent', () => {
  it.each([
    ['Oslo in summer is UTC+2', '2026-07-01 09:00', 'Europe/Oslo', '2026-07-01T07:00:00.000Z'],
    ['Oslo in winter is UTC+1', '2026-12-24 18:30', 'Europe/Oslo', '2026-12-24T17:30:00.000Z'],
    ['New York in summer is UTC-4', '2026-07-01 09:00', 'America/New_York', '2026-07-01T13:00:00.000Z'],
    ['Kolkata is UTC+5:30', '2026-01-15 12:00', 'Asia/Kolkata', '2026-01-15T06:30:00.000Z'],
    ['UTC is itself', '2026-03-29 02:30', 'UTC', '2026-03-29T02:30:00.000Z'],
    ['seconds are kept when given', '2026-07-01 09:00:30', 'Europe/Oslo', '2026-07-01T07:00:30.000Z'],
    ['Chatham Islands is UTC+13:45 in its summer', '2026-01-01 00:00', 'Pacific/Chatham', '2025-12-31T10:15:00.000Z'],
  ])('%s', (_, local, zone, expected) => {
    expect(iso(local, zone)).toBe(expected);
  });

  describe('the DST edges of Europe/Oslo in 2026 (summer time from 29 March 01:00 UTC to 25 October 01:00 UTC)', () => {
    it('the last minute before the spring jump is still winter time', () => {
      expect(iso('2026-03-29 01:59', 'Europe/Oslo')).toBe('2026-03-29T00:59:00.000Z');
    });
    it('03:00 on the spring day is the first summer-time minute', () => {
      expect(iso('2026-03-29 03:00', 'Europe/Oslo')).toBe('2026-03-29T01:00:00.000Z');
    });
    it('02:30 on the spring day never happens: it is moved forward by the hour skipped, to 03:30 summer time', () => {
      expect(iso('2026-03-29 02:30', 'Europe/Oslo')).toBe('2026-03-29T01:30:00.000Z');
      expect(utcToZoned(zonedToUtc('2026-03-29 02:30', 'Europe/Oslo')!, 'Europe/Oslo')).toBe('2026-03-29 03:30:00');
    });
    it('02:30 on the autumn day happens twice: the earlier, still summer time (UTC+2), is taken', () => {
      expect(iso('2026-10-25 02:30', 'Europe/Oslo')).toBe('2026-10-25T00:30:00.000Z');
    });
    it('03:00 on the autumn day is winter time again', () => {
      expect(iso('2026-10-25 03:00', 'Europe/Oslo')).toBe('2026-10-25T02:00:00.000Z');
    });
  });

  it.each([
    ['an empty time', '', 'Europe/Oslo'],
    ['a time without minutes', '2026-07-01 09', 'Europe/Oslo'],
    ['31 February', '2026-02-31 09:00', 'Europe/Oslo'],
    ['hour 24', '2026-07-01 24:00', 'Europe/Oslo'],
    ['an unknown zone', '2026-07-01 09:00', 'Europe/Atlantis'],
  ])('gives null for %s', (_, local, zone) => {
    expect(zonedToUtc(local, zone)).toBeNull();
  });

  it('round-trips every fourth hour of 2026 in Oslo, Sydney and Los Angeles except the skipped spring hour', () => {
    for (const zone of ['Europe/Oslo', 'Australia/Sydney', 'America/Los_Angeles']) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 4 * 3_600_000) {
        const wall = utcToZoned(t, zone);
        const back = zonedToUtc(wall, zone)!.getTime();
        // A repeated hour's later instant reads back as the earlier one, an hour before.
        expect([t, t - 3_600_000]).toContain(back);
        expect(utcToZoned(back, zone)).toBe(wall);
      }
    }
  });
});

describe('time zone names', () => {
  it('knows real zones and refuses others', () => {
    expect(isTimeZone('Europe/Oslo')).toBe(true);
    expect(isTimeZone('Not/AZone')).toBe(false);
  });
  it('lists Oslo and UTC, sorted', () => {
    const names = timeZoneNames();
    expect(names).toContain('Europe/Oslo');
    expect(names).toContain('UTC');
    expect([...names].sort()).toEqual(names);
  });
});

describe('an instant shown in the chosen zone', () => {
  it('names the zone and shows its wall time (Intl refuses dateStyle with timeZoneName, so fields are spelled out)', () => {
    const text = formatZoned('2026-07-01T07:00:00.000Z', 'Europe/Oslo');
    expect(text).toMatch(/09:00/);
    expect(text).toMatch(/GMT\+2|CEST/);
    expect(formatZoned('2026-07-01T07:00:00.000Z', 'America/New_York')).toMatch(/03:00/);
  });
});

describe('zoneMatches: the time-zone search finds cities and common names (issue 34 point 10)', () => {
  const found = (search: string, locale = 'en') => timeZoneNames().filter((zone) => zoneMatches(zone, search, locale));
  it.each([
    ['a city with a space, as people write it', 'New York', 'America/New_York'],
    ['lower case', 'new york', 'America/New_York'],
    ['a zone\'s long name', 'Eastern Standard', 'America/New_York'],
    ['a city with an accent, typed without', 'sao paulo', 'America/Sao_Paulo'],
    ['the id itself', 'Europe/Oslo', 'Europe/Oslo'],
    ['a region\'s name', 'Central European', 'Europe/Oslo'],
  ])('%s: "%s" finds %s', (_, search, zone) => {
    expect(found(search)).toContain(zone);
  });
  it('finds by the long names in the language shown', () => {
    expect(found('sentraleuropeisk', 'nb')).toContain('Europe/Oslo');
  });
  it('an empty search finds every zone, a word of no zone none', () => {
    expect(found('')).toEqual(timeZoneNames());
    expect(found('Atlantis')).toEqual([]);
  });
  it('the exemplar city is the last part of the id', () => {
    expect(exemplarCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(exemplarCity('UTC')).toBe('UTC');
  });
});
