/**
 * Every user-facing text of the contacts import (issue 20), in English, for the conversion to catalogs (issue 23):
 * plain strings, and small functions for texts with values. Numbers are formatted with Intl by `count`.
 */

/** A count as the browser's language writes it (`12,345`). */
export const count = (n: number) => new Intl.NumberFormat().format(n);

export const messages = {
  /** Plain names of the contact fields a column can feed (issue 23 point 11); the API's name is the hint. */
  fieldLabels: {
    email: 'Email',
    phone: 'Phone',
    name: 'Name',
    tags: 'Tags',
    source: 'Source',
    address: 'Address',
    city: 'City',
    postalCode: 'Postal code',
    region: 'Region',
    bio: 'Bio',
    image: 'Image URL',
    customMessage: 'Custom message',
    systemSource: 'System source',
    notificationSettings: 'Notifications',
    addDirectly: 'Add as active',
    useEmailByDefault: 'Email by default',
    statusTags: 'Status tags',
    follows: 'Follows',
  } as Record<string, string>,
  /** A mapping field's hint: the API's name for the field. */
  fieldHint: (apiName: string) => `API field: ${apiName}`,
  // The contacts page's button.

  dialogTitle: 'Import contacts',
  closeImport: 'Close import',

  // Step 1: the file.
  fileStep: '1. Choose a file',
  fileIntro:
    'A CSV or Excel (xlsx) file with one contact per row and a header row: an export from Mailchimp, HubSpot or Brevo, or a spreadsheet of your own. Nothing is sent before you have seen the plan.',
  fileLabel: 'CSV or Excel file',
  reading: (name: string) => `Reading ${name}…`,
  readRows: (n: number) => `${count(n)} rows read`,
  cannotImport: 'Cannot import this file',
  couldNotRead: (name: string, reason: string) => `Could not read ${name}: ${reason}`,
  noHeader: 'The file has no header row.',
  noRows: 'The file has no rows under its header.',
  notSpreadsheet: 'Choose a .csv, .txt, .tsv or .xlsx file.',
  sheetLabel: 'Sheet',
  sheetRows: (name: string, n: number) => `${name} (${count(n)} rows)`,
  encodingNote: (encoding: string) => `Read as ${encoding}.`,
  parseWarnings: 'The file has formatting problems',

  // Step 2: mapping.
  mapStep: '2. Map columns',
  fileSummary: (name: string, rows: number, columns: number) => `${name}: ${count(rows)} rows, ${count(columns)} columns.`,
  recognised: (format: string) => `Recognised as a ${format} export.`,
  notImported: (headers: string[]) => `Not imported: ${headers.join(', ')}.`,
  notMapped: '— not imported —',
  nameColumns: 'Columns joined into name',
  nameColumnsHint: 'First + Last Name are joined with a space',
  tagColumns: 'Columns feeding tags',
  tagColumnsHint: 'Each cell is split on commas',
  importTag: 'Tag for the whole import',
  importTagHint: 'Added to every imported contact; one filter finds them later',
  sourceDefault: 'Default source',
  sourceDefaultHint: 'Used where the source column is empty or not mapped',
  country: 'Default country for phone numbers',
  countryHint: 'Numbers without +country code are read as numbers of this country',
  previewCaption: (n: number) => `Preview of the first ${count(n)} rows as they will be sent`,
  previewRow: 'Row',
  previewCheck: 'Check',
  ok: 'ok',
  chooseAnother: 'Choose another file',
  needsKey: 'Map a column to email, phone or name',
  makePlan: (n: number) => `Check ${count(n)} rows`,
  fieldHints: {
    text: '',
    boolean: 'true/false, yes/no or 1/0',
    json: 'JSON',
    list: 'values separated by commas',
  } as Record<string, string>,

  // Cleaning (reasons of refused rows).
  needsKeyValue: 'no email, phone or name',
  badEmail: (value: string) => `email '${value}' is not a valid email address`,
  badPhone: (value: string, country: string) => `phone '${value}' is not a valid phone number (read with default country ${country})`,
  badBoolean: (field: string, value: string) => `${field}: '${value}' is not true/false, yes/no or 1/0`,
  badJson: (field: string) => `${field}: is not valid JSON`,
  mergedInto: (row: number) => `merged into row ${row}`,

  // Step 3: the plan.
  checking: 'Looking for contacts that already exist…',
  checkingProgress: (done: number, total: number) => `${count(done)} of ${count(total)} look-ups done`,
  cleaningProgress: (done: number, total: number) => `${count(done)} of ${count(total)} rows checked`,
  lookupFailed: 'The look-up for existing contacts failed',
  planStep: '3. The plan',
  planNew: (n: number) => `${count(n)} new`,
  planExists: (n: number, tagged: number) => `${count(n)} already exist (${count(tagged)} get tags added, nothing else changes)`,
  planRefused: (n: number) => `${count(n)} refused`,
  planMerged: (n: number) => `${count(n)} rows merged into an earlier row with the same email or phone`,
  planCounts: 'Plan',
  planRequests: (n: number) => `The import will send ${count(n)} requests.`,
  planLookups: (n: number) => `The plan spent ${count(n)} look-up requests.`,
  planTime: (minutes: string, limit: number) => `About ${minutes} at this key's rate limit of ${count(limit)} requests a minute.`,
  planNoLimit: 'The service announces no rate limit for this key.',
  refusedCaption: 'Refused rows',
  refusedReason: 'Reason',
  refusedMore: (n: number) => `And ${count(n)} more in the file of refused rows.`,
  downloadRefused: 'Download refused rows (CSV)',
  refusedColumn: 'reason',
  back: 'Back to mapping',
  start: (n: number) => `Start import (${count(n)} requests)`,
  nothingToDo: 'Nothing to send: every row exists already with its tags, or is refused.',
  starting: 'Starting…',
  startFailed: 'The import could not start',
  noRunner: 'Imports run as background jobs, which this console cannot start yet.',
  close: 'Close',
  jobTitle: (fileName: string) => `Import ${fileName}`,
};
