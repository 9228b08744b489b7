/**
 * The contacts feature's job kinds (issue 38 point 4): what the job engine and the Jobs page need of each, as specs
 * in the engine's table (src/lib/jobs/job-kinds.ts), registered by src/app/kinds.ts. Their steps are this feature's
 * step kinds (contact-steps.ts); their names are stored on each job in IndexedDB, so none is ever renamed.
 * - `contacts-import` (import/contact-import.ts `importJobHead`): logged as `console/import`; titled by its file's
 *   name; its tag changes on contacts that existed may be undone by a job; the contacts it created carry the import's
 *   tag (`meta.importTag`; `<tag>-updated` on those that existed, issue 34 point 1), which the Jobs page names and
 *   links to.
 * - `bulk-tags` (bulk/bulk-tag-job.ts): logged as `console/bulk-tags`; titled by the tags added and removed and the
 *   contacts chosen (`meta.matched`, else one per step); undone by a job of inverse tag changes.
 * - `bulk-erase` (bulk/bulk-erase-job.ts): logged as `console/erasure`; titled by the contacts asked for
 *   (`meta.requested`); final, with no undo of any kind (docs/decisions.md section 10; issue 22 point 7).
 * All three change the contacts list (`['ws', workspaceId, 'contacts']`). The undo of their tag changes is the
 * engine's own kind (`UNDO_KIND`, `undo-tags`), which takes the list of the job it undoes. Texts: the `jobs` catalog.
 */
import type { JobKindSpec } from '@/lib/jobs/job-kinds';
import { importTitle } from '@/lib/jobs/job-title';
import type { JobTitle } from '@/lib/jobs/job-types';

/** The names of this feature's job kinds, for its job specs (`JobSpec.kind`): a misspelt kind fails to compile. */
export type ContactJobKind = 'contacts-import' | 'bulk-tags' | 'bulk-erase';

/** A contacts job kind's spec, its `kind` one of this feature's. */
type ContactJobKindSpec = JobKindSpec & { readonly kind: ContactJobKind };

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** The import of a file of contacts: "Import {fileName}" (`meta.fileName`), its created contacts found by its tag. */
export const contactsImportKind: ContactJobKindSpec = {
  kind: 'contacts-import',
  source: 'console/import',
  changes: 'contacts',
  label: 'jobs.kindContactsImport',
  title: importTitle,
  undoable: true,
  created: {
    tag: (meta) => (typeof meta.importTag === 'string' ? meta.importTag : null),
    texts: { withTag: 'jobs.createdWithTag', noTag: 'jobs.createdNoTag', undoable: 'jobs.createdUndoable', show: 'jobs.showImported' },
    list: (tag) => `contacts?tags=${encodeURIComponent(tag)}`,
  },
};

/**
 * A bulk tag change: "Add {added}, remove {removed} on {count} contacts" (`meta.tagsToAdd`, `meta.tagsToRemove`,
 * `meta.matched`, else `steps`), null when it names no tag.
 */
export const bulkTagsKind: ContactJobKindSpec = {
  kind: 'bulk-tags',
  source: 'console/bulk-tags',
  changes: 'contacts',
  label: 'jobs.kindBulkTags',
  title(meta, steps): JobTitle | null {
    const added = strings(meta.tagsToAdd);
    const removed = strings(meta.tagsToRemove);
    const count = typeof meta.matched === 'number' ? meta.matched : steps;
    if (added.length && removed.length) return { key: 'jobs.titleTagsBoth', values: { added, removed, count } };
    if (added.length) return { key: 'jobs.titleTagsAdd', values: { added, count } };
    if (removed.length) return { key: 'jobs.titleTagsRemove', values: { removed, count } };
    return null;
  },
  undoable: true,
};

/** A bulk erasure: "Erase {count} contacts" (`meta.requested`, else `steps`); final. */
export const bulkEraseKind: ContactJobKindSpec = {
  kind: 'bulk-erase',
  source: 'console/erasure',
  changes: 'contacts',
  label: 'jobs.kindBulkErase',
  title: (meta, steps) => ({ key: 'jobs.titleErase', values: { count: typeof meta.requested === 'number' ? meta.requested : steps } }),
  undoable: false,
  final: 'jobs.erasureFinal',
};

/** The contacts feature's job kinds, for the engine's table (`registerJobKinds`). */
export const contactJobKinds = [contactsImportKind, bulkTagsKind, bulkEraseKind] as const;
