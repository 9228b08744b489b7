/**
 * User-facing texts the products import gained with durable jobs (issue 20 point 6), in English, as one object so
 * the conversion to the i18n catalogs of issue 23 is mechanical. Numbers go through Intl.
 */
const n = (value: number) => value.toLocaleString();

export const importMessages = {
  jobTitle: (fileName: string) => `Import ${fileName}`,
  howItRuns:
    'The import runs as a job in the background: this dialog closes and you can go on working. Its progress is in the header; a reload or a closed tab pauses it until the console is open again, and the Jobs page has its report.',
  couldNotStart: 'The import could not be stored in this browser (private mode or no space left), so it did not start.',
  started: (fileName: string, rows: number, refused: number) =>
    `Importing ${n(rows)} row${rows === 1 ? '' : 's'} of ${fileName} in the background${refused ? `; ${n(refused)} refused before sending (see the report on the Jobs page)` : ''}.`,
};
