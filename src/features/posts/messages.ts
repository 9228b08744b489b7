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
} as const;
