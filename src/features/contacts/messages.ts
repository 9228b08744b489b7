/**
 * User-facing texts of the contacts screens' new code (issue 21 onwards), in English, kept here so the move to
 * translation catalogs (issue 23) is mechanical. Numbers are formatted with Intl.
 */
const whole = (n: number) => new Intl.NumberFormat().format(n);

export const contactsMessages = {
  /** The export dialog while the service is busy and gave no queue place (another service, or an older one). */
  exportBusy: (seconds: number) => `The service is busy with another export; retrying in ${whole(seconds)} s`,
  /** The export dialog while the export waits in the service's queue at `position` (1 = next). */
  exportQueued: (position: number, seconds: number) =>
    position === 1 ? `Your export is next in line; trying again in ${whole(seconds)} s` : `Your export is number ${whole(position)} in line; trying again in ${whole(seconds)} s`,
  // What to export (issue 23 point 10).
  exportRows: 'Rows',
  exportSelected: (count: number) => (count === 1 ? 'The selected contact' : `The ${whole(count)} selected contacts`),
  exportMatching: (count: number) => `All ${whole(count)} matching contacts`,
  exportColumns: 'Columns',
  exportVisible: 'Visible columns',
  exportAllFields: 'All fields',
  exportFormat: 'Format',
  exportTitle: (count: number) => `Exporting ${whole(count)} contacts`,
  exportPart: (part: number, parts: number) => `Part ${whole(part)} of ${whole(parts)} · `,
  exportPreparing: 'Writing the file…',
  exported: (count: number, filename: string) => `Exported ${whole(count)} contacts to ${filename}.`,
  exportCancelled: 'Export cancelled.',
};

/**
 * English texts of the contact extensions' screens (issue 22: correct and erase), one module for the i18n
 * conversion (issue 23). Functions for texts with values.
 */
export const contactMessages = {
  edit: 'Edit',
  editTitle: 'Edit contact',
  saveChanges: 'Save changes',
  saved: (name: string) => `Saved ${name}.`,
  nothingChanged: 'Nothing was changed.',
  editNeedsScope: 'Editing needs contacts:read-write',
  editNotAllowed: 'This service does not allow correcting a contact.',
  erase: 'Erase…',
  eraseTitle: (name: string) => `Erase ${name}?`,
  eraseWhat:
    'This erases the person from this workspace: the contact and every field of it, its tags, its entries in the search index, its place among the recipients of posts, and any stored answer to a request that held its data.',
  eraseFinal: 'It is final: nothing of it can be brought back.',
  eraseConfirmLabel: (name: string) => `Type “${name}” to confirm`,
  eraseConfirmDescription: 'The name exactly as shown.',
  eraseButton: 'Erase for good',
  cancel: 'Cancel',
  erased: (name: string) => `${name} was erased.`,
  eraseFailed: 'Not erased',
  eraseNeedsScope: 'Erasing needs contacts:read-write',
  eraseNotAllowed: 'This service does not allow erasing a contact.',
  unnamed: 'this contact',
  fields: {
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    phoneHint: 'International form, like +47 123 45 678',
    image: 'Image URL',
    address: 'Address',
    city: 'City',
    postalCode: 'Postal code',
    region: 'Region',
    source: 'Source',
    systemSource: 'System source',
    bio: 'Bio',
    customMessage: 'Custom message',
    statusTags: 'Status tags',
  },
} as const;

/**
 * User-facing texts of the contacts page's bulk tag dialog (issues 13, 19 point 6 and 20), in English, as one
 * object so the conversion to the i18n catalogs of issue 23 is mechanical. Numbers go through Intl.
 */
const n = (value: number) => value.toLocaleString();
const contacts = (value: number) => `${n(value)} contact${value === 1 ? '' : 's'}`;

export const bulkTagMessages = {
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
