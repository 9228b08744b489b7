/** The texts of the contacts page's Import button (issue 20), apart from the dialog's so the page's first screen carries only these. */
export const importButtonMessages = {
  importButton: 'Import',
  importNeedsWrite: 'Needs a key with feeds:read-write',
};
