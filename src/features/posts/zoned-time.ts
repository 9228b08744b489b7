/**
 * Wall-clock times in a chosen IANA time zone, for the composer's "Publish at" (issue 23 point 9), through Intl
 * only (no time-zone data of our own). Framework-free, unit-tested (zoned-time.test.ts).
 *
 * - `zonedToUtc('2026-07-01 09:00', 'Europe/Oslo')`: the instant that wall time names in that zone
 *   (2026-07-01T07:00:00.000Z), or null for an unreadable time or an unknown zone. Seconds may be given
 *   (`HH:mm:ss`) and are kept. A wall time that happens twice (the hour repeated when summer time ends) is the
 *   earlier instant; one that never happens (the hour skipped when summer time starts) is moved forward by the
 *   length of the gap (02:30 on the spring-forward day in Oslo is 03:30 summer time). This is the "compatible"
 *   disambiguation of TC39 Temporal (`Temporal.ZonedDateTime.from`) and of RFC 5545's DTSTART rules.
 * - `utcToZoned(instant, zone)`: the wall time of an instant in a zone, `YYYY-MM-DD HH:mm:ss`.
 * - `browserTimeZone()`: the browser's zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), `UTC` if none.
 * - `timeZoneNames()`: the zones this browser knows (`Intl.supportedValuesOf('timeZone')`), with the browser's zone
 *   and UTC always among them.
 * - `isTimeZone(name)`: whether Intl accepts `name` as a zone.
 * - `zoneMatches(zone, search, locale)`: whether a search finds a zone (issue 34 point 10): by its id, its exemplar city
 *   ("New York" for America/New_York, from the id) and its long names in the language shown ("Eastern Standard Time",
 *   "Central European Summer Time"), as `Intl.DateTimeFormat`'s `timeZoneName: 'long'` and `'longGeneric'` give them.
 */

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** A formatter giving the parts of an instant's wall time in `timeZone` (cached; throws RangeError for an unknown zone). */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall time of `epochMs` in `timeZone`, read as if it were UTC (ms), so that its difference to `epochMs` is the zone's offset. */
function wallAsUtc(epochMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(epochMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

/** The zone's offset from UTC at `epochMs`, in ms (Oslo in summer: +7,200,000). */
function offsetAt(epochMs: number, timeZone: string): number {
  return wallAsUtc(Math.floor(epochMs / 1000) * 1000, timeZone) - Math.floor(epochMs / 1000) * 1000;
}

/** Whether Intl accepts `name` as a time zone. */
export function isTimeZone(name: string): boolean {
  try {
    partsFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant (a Date) that the wall time `local` (`YYYY-MM-DD HH:mm` or `HH:mm:ss`) names in `timeZone`, with
 * Temporal's "compatible" disambiguation (see the module comment); null for an unreadable time or unknown zone.
 */
export function zonedToUtc(local: string, timeZone: string): Date | null {
  const match = WALL_TIME.exec(local.trim());
  if (!match || !isTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute, second = '0'] = match.slice(1).map((part) => part ?? '0');
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(wall);
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  // The offsets in force a day either side bound every offset the wall time can have (no zone jumps twice a day).
  const before = offsetAt(wall - 86_400_000, timeZone);
  const after = offsetAt(wall + 86_400_000, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wallAsUtc(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  if (candidates.length) return new Date(candidates[0]!); // the earlier of a repeated hour
  // Skipped (a spring-forward gap): read with the offset before the gap, which lands as far past it as it was into it.
  return new Date(wall - before);
}

/** The wall time of `instant` in `timeZone`, `YYYY-MM-DD HH:mm:ss`. @throws RangeError for an unknown zone. */
export function utcToZoned(instant: Date | number, timeZone: string): string {
  const wall = new Date(wallAsUtc(typeof instant === 'number' ? instant : instant.getTime(), timeZone));
  return wall.toISOString().slice(0, 19).replace('T', ' ');
}

/** The browser's time zone, `UTC` when it names none. */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** The zones this browser knows, sorted, always holding the browser's zone and UTC. */
export function timeZoneNames(): string[] {
  let names: string[] = [];
  try {
    names = Intl.supportedValuesOf('timeZone');
  } catch {
    names = [];
  }
  return [...new Set([...names, browserTimeZone(), 'UTC'])].sort();
}

/**
 * An instant (ISO 8601) shown in `timeZone` with the zone's short name, in `locale` (a BCP 47 tag; the runtime's
 * default when omitted): `1 Jul 2026, 09:00 CEST`. Intl refuses `dateStyle` with `timeZoneName`, so the fields are
 * spelled out.
 */
export function formatZoned(instant: string, timeZone: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(new Date(instant));
}

/** Lower case without accents, `_` and `/` read as spaces: how zone names are compared with a search. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[_/]+/g, ' ').toLowerCase();

/** The city a zone id names: its last part, `_` as spaces (`America/Argentina/Buenos_Aires` -> `Buenos Aires`). */
export function exemplarCity(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replace(/_/g, ' ');
}

const zoneTexts = new Map<string, string>();
/** What a zone is found by, folded (cached by zone and locale): its id, its city, and its long names in `locale`. */
function zoneText(zone: string, locale: string | undefined): string {
  const key = `${locale ?? ''}|${zone}`;
  let text = zoneTexts.get(key);
  if (text === undefined) {
    const names = [zone, exemplarCity(zone)];
    for (const style of ['long', 'longGeneric'] as const) {
      try {
        // January and July: a zone's standard and summer names.
        const format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style });
        for (const month of [0, 6]) names.push(format.formatToParts(Date.UTC(2026, month, 15)).find((part) => part.type === 'timeZoneName')?.value ?? '');
      } catch {
        // An older runtime without `longGeneric`, or a zone it does not know: the id and the city still find it.
      }
    }
    text = folded(names.join(' | '));
    zoneTexts.set(key, text);
  }
  return text;
}

/**
 * Whether `search` finds `zone`: every word of it is in the zone's id, its exemplar city or its long names in
 * `locale` (case, accents, `_` and `/` ignored). "new york", "eastern", "oslo", "sentraleuropeisk" (in bokmål).
 */
export function zoneMatches(zone: string, search: string, locale?: string): boolean {
  const words = folded(search).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = zoneText(zone, locale);
  return words.every((word) => text.includes(word));
}
