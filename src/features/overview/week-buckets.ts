/**
 * The weeks of the overview's "new contacts per week" (issue 24 point 1): calendar weeks that start on Monday at
 * local midnight, the current (partial) week last. Each is a half-open range `[start, end)` of instants, so a
 * contact created at the stroke of midnight on a Monday counts in exactly one week; the range is what the week's
 * `$filter` asks for (`created ge start and created lt end`, see figures.ts).
 */

/** One week: its first instant and the first instant of the next week (local Monday midnights). */
export type WeekBucket = { start: Date; end: Date };

/** Local midnight at the start of the Monday of the week holding `date`. */
export function weekStart(date: Date): Date {
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const sinceMonday = (start.getDay() + 6) % 7; // getDay: 0 Sunday .. 6 Saturday
  start.setDate(start.getDate() - sinceMonday);
  return start;
}

/**
 * The `count` weeks up to and including the week holding `now`, oldest first. Built with calendar arithmetic
 * (`setDate`), so a week across a daylight-saving change is 167 or 169 hours long and still starts at midnight.
 * @throws RangeError for a `count` that is not a whole number from 1 to 520, or an invalid `now`.
 */
export function weekBuckets(now: Date, count = 12): WeekBucket[] {
  if (!Number.isInteger(count) || count < 1 || count > 520) throw new RangeError(`count must be a whole number from 1 to 520, not ${count}`);
  if (Number.isNaN(now.getTime())) throw new RangeError('now is not a valid date');
  const current = weekStart(now);
  const weeks: WeekBucket[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    const start = new Date(current);
    start.setDate(start.getDate() - 7 * back);
    const end = new Date(start);
    end.setDate(end.getDate() + 7);
    weeks.push({ start, end });
  }
  return weeks;
}

/**
 * The 12 ISO weeks `GET /stats` counts (docs/decisions.md section 12): Mondays at 00:00 UTC, the current week last,
 * oldest first, each `[start, end)` of 7 days, so a week's `$filter` asks for the contacts its figure counted.
 */
export function utcWeekBuckets(now: Date, count = 12): WeekBucket[] {
  if (Number.isNaN(now.getTime())) throw new RangeError('now is not a valid date');
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
  return Array.from({ length: count }, (_, index) => {
    const start = monday - (count - 1 - index) * 7 * 86_400_000;
    return { start: new Date(start), end: new Date(start + 7 * 86_400_000) };
  });
}
