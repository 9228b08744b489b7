/**
 * English texts of the posts area's extension screens (issue 22 point 8: scheduled and suggested posts, Withdraw, the
 * month calendar), one module for the i18n conversion (issue 23). Functions for texts with values.
 */
export const postMessages = {
  plannedTab: 'Scheduled and suggested',
  notListed: 'This service does not list scheduled or suggested posts.',
  withdrawNotAllowed: 'This service does not allow withdrawing a post.',
  withdrawNeedsScope: 'Withdrawing needs posts:read-write',
  plannedTable: 'Scheduled and suggested posts',
  loadingLabel: 'scheduled and suggested posts',
  columnState: 'State',
  columnWhen: 'When',
  columnPost: 'Post',
  columnActions: 'Actions',
  scheduled: 'Scheduled',
  suggested: 'Suggested',
  noTime: 'No time set',
  untitled: '(no header or text)',
  none: 'No scheduled or suggested posts.',
  timeZoneNote: (zone: string) => `Times are in your time zone, ${zone}.`,
  more: (shown: number, total: number) => `Showing the first ${shown} of ${total}.`,
  withdraw: 'Withdraw',
  withdrawLabel: (title: string) => `Withdraw “${title}”`,
  withdrawTitle: 'Withdraw this post?',
  withdrawText: (title: string) => `“${title}” will not be published. It is removed from the plan and cannot be restored.`,
  withdrawConfirm: 'Withdraw post',
  cancel: 'Cancel',
  withdrawn: (title: string) => `Withdrew “${title}”.`,
  calendarTitle: 'Scheduled this month',
  calendarLabel: 'Calendar of scheduled posts',
  dayCount: (count: number) => (count === 1 ? '1 post scheduled' : `${count} posts scheduled`),
  /** The public feed tab (issue 23 point 11: plain words, the endpoint as a hint at the end). */
  publicFeedIntro:
    'The newest public posts, shown the way your public page shows them to everyone. Posts with recipients and suggestions never appear here. (API: the public posts list.)',
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
