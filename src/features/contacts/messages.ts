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
