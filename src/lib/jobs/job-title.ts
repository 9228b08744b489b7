/**
 * A durable job's title in the language shown (issue 23). A job's record is stored in IndexedDB when the job is
 * made and may be read days later in the other language, so the record keeps its title as a catalog key and values
 * (`JobRecord.titleMessage`, `JobTitle`), rendered at each read by `jobTitle`, beside the title text in the language
 * it was made in (`JobRecord.title`: file names of reports, and records stored before titles had keys, which show
 * that text as stored).
 *
 * The keys are a stored format: one stored today must keep its meaning (rename none; a key the catalog no longer
 * holds falls back to the stored text). Values are kept raw (a file name, a count, tag names, the title of the job
 * an undo reverses), so numbers and plurals are formatted in the language shown. Texts: the `jobs` catalog, which
 * the jobs page, the header's progress and the runner load.
 */
import { t } from '@/i18n/i18n';
import { findJobKind } from './job-kinds';
import type { JobKind, JobRecord, JobTitle } from './job-types';

const isTitle = (value: unknown): value is JobTitle =>
  typeof value === 'object' && value !== null && typeof (value as JobTitle).key === 'string' && typeof (value as JobTitle).values === 'object' && (value as JobTitle).values !== null;

/**
 * The title of a new job of `kind` with `meta` (as its feature sets it) and `steps` steps: its kind's
 * `JobKindSpec.title` (job-kinds.ts, issue 38 point 4: an import's "Import {fileName}", written by the feature that
 * owns the kind), or null when `meta` lacks what it needs, the kind has no `title`, or no spec is registered (the
 * job then shows the text it was given). Called once the kinds are registered (workspace-runner.ts
 * `enqueueStoredJob` awaits them). An undo's title is made by `undoTitle`.
 */
export function titleFromMeta(kind: JobKind, meta: Record<string, unknown> | undefined, steps: number): JobTitle | null {
  return findJobKind(kind)?.title?.(meta ?? {}, steps) ?? null;
}

/**
 * An import's title from its `meta`: "Import {fileName}" (`meta.fileName`, the file as the person chose it), or null
 * when `meta` names no file. The `title` of every import's job kind (the contacts' and the products',
 * `JobKindSpec.title`), so both read alike.
 */
export function importTitle(meta: Record<string, unknown>): JobTitle | null {
  return typeof meta.fileName === 'string' ? { key: 'jobs.titleImport', values: { fileName: meta.fileName } } : null;
}

/** The title of the undo of `job`: "Undo: " and the job's own title (kept as its key, so it follows the language too). */
export function undoTitle(job: Pick<JobRecord, 'title' | 'titleMessage'>): JobTitle {
  return { key: 'jobs.titleUndo', values: { title: job.titleMessage ?? job.title } };
}

/** `title` rendered in the language shown: nested titles rendered, tag names joined; null when its key is unknown. */
export function renderTitle(title: JobTitle): string | null {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(title.values)) {
    if (isTitle(value)) {
      const inner = renderTitle(value);
      if (inner === null) return null;
      values[name] = inner;
    } else values[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = t(title.key, values);
  return text === title.key ? null : text;
}

/**
 * A job's title as shown: its stored key and values in the language shown, else the text it was stored with
 * (records made before titles had keys, or a key the catalog does not hold).
 */
export function jobTitle(job: Pick<JobRecord, 'title' | 'titleMessage'>): string {
  return (isTitle(job.titleMessage) && renderTitle(job.titleMessage)) || job.title;
}
