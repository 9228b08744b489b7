/**
 * English texts of shared components added for issue 22 (the delete confirmation), one module for the i18n
 * conversion (issue 23). Functions for texts with values.
 */
export const componentMessages = {
  /** The accessible name of the × on a tag (issue 23 point 8). */
  removeTag: (tag: string) => `Remove tag ${tag}`,
  /** The accessible name of the × on any other chosen value (a collection, a contact). */
  removeValue: (label: string) => `Remove ${label}`,
  /** The tags field's hint when a typed tag is an existing one in another letter case (issue 13). */
  existingTag: (typed: string, existing: string) => `“${typed}” is the existing tag “${existing}”: Enter uses “${existing}”.`,
} as const;
