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
} as const;
