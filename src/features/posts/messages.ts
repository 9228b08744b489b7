/**
 * English texts of the composer's publish time (issue 23 point 9), until the composer moves to the `posts` catalogs
 * (issue 23). Functions for texts with values.
 */
export const postMessages = {
  // The composer's publish time (issue 23 point 9).
  publishAt: 'Publish at',
  suggestedAt: 'Suggested publish time (optional)',
  publishAtHint: (zone: string) => `Date and time in ${zone}`,
  timeZone: 'Time zone',
  calendarLabels: { nextMonth: 'Next month', previousMonth: 'Previous month', nextYear: 'Next year', previousYear: 'Previous year', nextDecade: 'Next decade', previousDecade: 'Previous decade', monthLevelControl: 'Choose the month', yearLevelControl: 'Choose the year' },
  timeZoneHint: 'Remembered for this workspace on this device',
  browserZone: (zone: string) => `${zone} (this browser)`,
  noTimeZone: 'No such time zone',
  sentAs: 'Sent as',
  sentAsUtc: '(UTC)',
  timePassed: ' — this time has passed',
  /** An instant shown in the chosen zone, with the zone's short name: `1 Jul 2026, 09:00 CEST`. */
  zonedTime: (instant: string, zone: string) =>
    new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: zone, timeZoneName: 'short' }).format(new Date(instant)),
} as const;
