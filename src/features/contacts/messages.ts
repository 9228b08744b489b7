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
 * The bulk tag job's title (issues 13 and 20), stored with the job and shown on the Jobs page, in English like that
 * page until it moves to the catalogs (issue 23; the dialog's own texts are in the `contacts` catalog). Numbers go
 * through Intl.
 */
const contacts = (value: number) => `${whole(value)} contact${value === 1 ? '' : 's'}`;

export const bulkTagMessages = {
  bulkJobTitle: (add: readonly string[], remove: readonly string[], count: number) =>
    [add.length ? `add ${add.join(', ')}` : '', remove.length ? `remove ${remove.join(', ')}` : ''].filter(Boolean).join(', ').replace(/^./, (c) => c.toUpperCase()) +
    ` on ${contacts(count)}`,
};

/** Minutes as the browser's language says them (Intl units): `38 minutes`, `2.5 hours`, `40 seconds`. */
function durationWords(minutes: number): string {
  const [value, unit] = minutes < 1 ? [Math.max(1, Math.ceil(minutes * 60)), 'second'] : minutes < 120 ? [Math.ceil(minutes), 'minute'] : [Math.round(minutes / 6) / 10, 'hour'];
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 1 }).format(value);
}

/**
 * User-facing texts of the contacts page's bulk erasure (issue 22 point 7), in English, as one object for the i18n
 * conversion (issue 23). Numbers and durations go through Intl.
 */
const n = whole;

export const bulkEraseMessages = {
  whatSelected: (count: number) => `${n(count)} selected`,
  whatMatching: (count: number) => `all ${n(count)} matching`,
  open: (what: string) => `Erase ${what}…`,
  notAllowed: 'This service does not allow erasing contacts.',
  title: (count: number) => `Erase ${contacts(count)}?`,
  close: 'Close erasure',
  what: 'This erases each of these people from this workspace: the contact and every field of it, its tags, its entries in the search index, its place among the recipients of posts, and any stored answer to a request that held its data.',
  final: 'It is final and cannot be undone: nothing of them can be brought back, and the job has no undo.',
  countSelected: (count: number) => `${contacts(count)}, as selected.`,
  countMatching: (count: number) => `${contacts(count)}: every contact matching the filter, found just before the erasure starts.`,
  requests: (count: number, lookups: number) =>
    lookups ? `The job will send ${n(count)} erasure requests, after ${n(lookups)} to find the contacts.` : `The job will send ${n(count)} erasure requests.`,
  time: (minutes: number, perMinute: number, limit: number) =>
    `About ${durationWords(minutes)} at the ${n(perMinute)} requests a minute that jobs may use of this key’s limit of ${n(limit)}.`,
  noLimit: 'The service announces no rate limit for this key.',
  how: 'It runs as a job in the background: its progress is in the header, and the Jobs page has its report, which lists the erased contacts by id only. Pausing or cancelling it stops further erasures; those done stay done.',
  confirmLabel: (count: number) => `Type ${n(count)} to confirm`,
  confirmDescription: 'The number of contacts to erase.',
  changed: (was: number, now: number) => `The filter now matches ${contacts(now)}, not ${n(was)}. Check the list, then type ${n(now)} to erase them.`,
  none: 'No contact matches the filter any more: nothing to erase.',
  button: (count: number) => `Erase ${contacts(count)}`,
  cancel: 'Cancel',
  findFailed: 'Stopped before erasing anything: the contacts could not be listed',
  storeFailed: 'The job could not be stored in this browser (private mode or no space left), so nothing was erased.',
  jobTitle: (count: number) => `Erase ${contacts(count)}`,
  started: (count: number) => `Erasing ${contacts(count)} in the background. Follow it in the header or on the Jobs page.`,
};
