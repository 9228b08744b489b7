import { formatDateTime, formatRelative } from '@/i18n/format';
import { useT } from '@/i18n/react';
/** "3 days ago" with the exact local time on hover and in `dateTime` (issue 5: created column). */
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** `iso` relative to `now`, in words. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return formatRelative(Math.round(seconds / size), unit);
  return formatRelative(Math.round(seconds), 'second');
}

export function RelativeTime({ iso }: { iso: string }) {
  useT();
  const exact = formatDateTime(iso);
  return (
    <time dateTime={iso} title={exact}>
      {relativeTime(iso)}
    </time>
  );
}
