/**
 * User-facing texts of the contacts page's bulk tag dialog (issues 13, 19 point 6 and 20), in English, as one
 * object so the conversion to the i18n catalogs of issue 23 is mechanical. Numbers go through Intl.
 */
const n = (value: number) => value.toLocaleString();
const contacts = (value: number) => `${n(value)} contact${value === 1 ? '' : 's'}`;

export const contactMessages = {
  bulkOpen: (what: string) => `Tag ${what}`,
  bulkWhatSelected: (count: number) => `${n(count)} selected`,
  bulkWhatMatching: (count: number) => `all ${n(count)} matching`,
  bulkTitle: (what: string, count: number) => `Tags for ${what} contact${count === 1 ? '' : 's'}`,
  bulkClose: 'Close bulk tags',
  bulkHow:
    'The change runs as a job in the background: this dialog closes and you can go on working. Its progress is in the header; a reload or a closed tab pauses it until the console is open again, and the Jobs page has its report and an undo.',
  bulkApply: (count: number) => `Apply to ${contacts(count)}`,
  bulkFinding: (done: number, total: number) => `Finding the contacts: ${n(done)} of ${n(total)}`,
  bulkFindingLabel: 'Finding the contacts',
  bulkWaitTitle: 'The service asked to wait',
  bulkWait: (seconds: number) => `Too many requests in a short time. Finding the contacts goes on in ${n(seconds)} s.`,
  bulkCancel: 'Cancel',
  bulkFindFailed: 'Stopped before changing anything: the contacts could not be listed',
  bulkStoreFailed: 'The job could not be stored in this browser (private mode or no space left), so nothing was changed.',
  bulkNothingToDo: (count: number) => `All ${contacts(count)} are already as asked: nothing to change.`,
  bulkJobTitle: (add: readonly string[], remove: readonly string[], count: number) =>
    [add.length ? `add ${add.join(', ')}` : '', remove.length ? `remove ${remove.join(', ')}` : ''].filter(Boolean).join(', ').replace(/^./, (c) => c.toUpperCase()) +
    ` on ${contacts(count)}`,
  bulkStarted: (count: number, unchanged: number, missing: number) =>
    `Changing the tags of ${contacts(count)} in the background${unchanged ? `; ${contacts(unchanged)} already as asked` : ''}${missing ? `; ${contacts(missing)} no longer found` : ''}. Follow it in the header or on the Jobs page.`,
};
