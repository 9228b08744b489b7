/**
 * English texts of shared components added for issue 22 (the delete confirmation), one module for the i18n
 * conversion (issue 23). Functions for texts with values.
 */
export const componentMessages = {
  cancel: 'Cancel',
  deleting: (done: number, total: number) => `Deleted ${done} of ${total}…`,
  deleteFailedAfter: (done: number, total: number) => `Stopped after deleting ${done} of ${total}.`,
  selected: (count: number) => `${count} selected`,
  clearSelection: 'Clear selection',
  selectionRegion: 'Selection',
  deleteOne: (noun: string) => `Delete ${noun}…`,
  deleteSelected: (count: number, noun: string) => `Delete ${count} ${noun}${count === 1 ? '' : 's'}…`,
  deleteTitle: (count: number, noun: string, name?: string) => (count === 1 && name ? `Delete “${name}”?` : `Delete ${count} ${noun}${count === 1 ? '' : 's'}?`),
  deleteText: (count: number, noun: string, links: string) =>
    `${count === 1 ? `This ${noun} is` : `These ${count} ${noun}s are`} deleted from the workspace and ${links}. This is final: a deleted ${noun} cannot be restored.`,
  deleteConfirm: (count: number, noun: string) => (count === 1 ? `Delete ${noun}` : `Delete ${count} ${noun}s`),
  deleted: (count: number, noun: string) => (count === 1 ? `Deleted the ${noun}.` : `Deleted ${count} ${noun}s.`),
  deleteNotAllowed: (noun: string) => `This service does not allow deleting ${noun}s.`,
  deleteNeedsScope: 'Deleting needs products:read-write',
  /** The accessible name of the × on a tag (issue 23 point 8). */
  removeTag: (tag: string) => `Remove tag ${tag}`,
  /** The accessible name of the × on any other chosen value (a collection, a contact). */
  removeValue: (label: string) => `Remove ${label}`,
  /** The tags field's hint when a typed tag is an existing one in another letter case (issue 13). */
  existingTag: (typed: string, existing: string) => `“${typed}” is the existing tag “${existing}”: Enter uses “${existing}”.`,
} as const;
