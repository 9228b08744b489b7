/**
 * Every text of the header's search across workspaces and of "everything about this person" (issue 24 points 6
 * and 7), in English (issue 23 turns these into catalogs).
 */
export const messages = {
  open: 'Search people in every workspace',
  title: 'Find a person in every workspace',
  field: 'Name, email or phone',
  fieldHelp: (count: number) => `Searches the ${count === 1 ? 'workspace' : `${count} workspaces`} this console holds a key for. Press Enter, or pause after 2 characters.`,
  searching: 'Searching',
  results: 'Results by workspace',
  noScope: 'This key cannot read contacts (it needs contacts:read-only), so this workspace was not searched.',
  failed: 'Could not search this workspace:',
  none: 'No one found.',
  more: (shown: string, total: string) => `Showing ${shown} of ${total}: narrow the search to see the others.`,
  found: (count: string) => `${count} found`,
  noName: 'No name',
  everything: (who: string) => `Everything about ${who}`,
  everythingShort: 'Everything about this person',

  reportTitle: (who: string) => `Everything about ${who}`,
  reportLooking: 'Looking in every workspace',
  reportMatch: (what: string) => `Records with ${what}, in every workspace this console holds a key for.`,
  reportFoundIn: 'Found in',
  reportNotFoundIn: 'Not found in',
  reportNotSearched: 'Not searched (the key cannot read contacts, or the search failed)',
  reportRecords: (count: string) => `${count} record(s)`,
  reportDeletion:
    'The interface has no way to delete a contact. To have this person deleted, ask the service of each workspace listed under "Found in": each workspace keeps its own record.',
  downloadJson: 'Download JSON',
  downloadCsv: 'Download CSV',
  back: 'Back to the results',
  close: 'Close',
} as const;
