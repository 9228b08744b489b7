/**
 * User-facing texts the products import gained with durable jobs (issue 20 point 6), in English, as one object so
 * the conversion to the i18n catalogs of issue 23 is mechanical. Numbers go through Intl.
 */
const n = (value: number) => value.toLocaleString();

export const importMessages = {
  /** Plain names of the product fields a column can feed (issue 23 point 11); the API's name is the hint. */
  fieldLabels: {
    externalId: 'External ID',
    title: 'Title',
    handle: 'Handle',
    bodyHtml: 'Description',
    type: 'Type',
    status: 'Status',
    vendor: 'Vendor',
    source: 'Source',
    url: 'Product URL',
    imageUrl: 'Image URL',
    price: 'Price',
    originalPrice: 'Original price',
    currency: 'Currency',
    isForSale: 'For sale',
    tags: 'Tags',
    collectionIds: 'Collection IDs',
    externalCollectionIds: 'External collection IDs',
    customProperties: 'Custom properties',
  } as Record<string, string>,
  /** A mapping field's hint: what the cells hold, and the API's name for the field. */
  fieldHint: (hint: string | undefined, apiName: string) => [hint, `API field: ${apiName}`].filter(Boolean).join(' · '),
  missingKey: 'Choose the column of each product’s External ID',
  jobTitle: (fileName: string) => `Import ${fileName}`,
  howItRuns:
    'The import runs as a job in the background: this dialog closes and you can go on working. Its progress is in the header; a reload or a closed tab pauses it until the console is open again, and the Jobs page has its report.',
  couldNotStart: 'The import could not be stored in this browser (private mode or no space left), so it did not start.',
  started: (fileName: string, rows: number, refused: number) =>
    `Importing ${n(rows)} row${rows === 1 ? '' : 's'} of ${fileName} in the background${refused ? `; ${n(refused)} refused before sending (see the report on the Jobs page)` : ''}.`,
};
