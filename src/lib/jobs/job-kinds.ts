/**
 * The table of job kinds (issue 38 point 4: "jobs own their types, ... adding a kind touches no engine code";
 * docs/style.md, "One resource, one road"). What the engine and the Jobs page need of a kind of job is one
 * `JobKindSpec`, registered by the feature that owns the kind (the contacts feature its import, bulk tags and bulk
 * erasure, the products feature its import); `src/app/kinds.ts` registers them all, beside the step kinds'
 * handlers (step-kinds.ts), so no engine module (step-runner.ts, workspace-runner.ts, job-title.ts) and no other
 * feature (the Jobs page) names a feature's kind. Adding a kind is a spec and one line there.
 *
 * The specs load on demand with the step handlers, not with the first screen: the app names the registering module
 * with job-names.ts `provideKinds(load)`, and the engine awaits `kindsReady()` before it runs, titles or undoes a
 * job, as the Jobs page does before it shows its entries (use-jobs.ts `useKindsReady`). Nothing a first screen reads
 * needs a kind: the header's progress shows a job's stored title (job-title.ts `jobTitle`).
 *
 * One kind is the engine's own: the undo of a job by inverse steps (`UNDO_KIND`, workspace-runner.ts `undoJob`),
 * registered here. Its name, `undo-tags`, is older than the table and stays (records in IndexedDB hold it), though
 * the undo is no longer the contacts' alone: it holds whatever inverse steps the undone job's step handlers give
 * (step-kinds.ts `StepHandler.undo`), it is logged as `console/undo`, and it changes the lists the job it undoes
 * changed (`meta.undoOf`), so it names no feature's list either. Framework-free.
 */
import type { JobKind, JobTitle } from './job-types';

/**
 * What a job kind's finished job says of the records it created, on the Jobs page (an import's: which tag they
 * carry, and a link to them):
 * - `tag(meta)`: the tag the created records carry, from the job's `meta`; null when it names none;
 * - `texts`: catalog keys (issue 23): `withTag` (read with `{ tag }`: which tag they carry), `noTag` (said when
 *   there is none), `undoable` (added where the service keeps an activity log: what Undo in one request does to
 *   them, docs/decisions.md section 11), `show` (the link's text, read with `{ tag }`);
 * - `list(tag)`: the list of the records carrying `tag`, as a path under the workspace (`contacts?tags=...`).
 */
export type CreatedRecords = {
  tag(meta: Record<string, unknown>): string | null;
  readonly texts: { readonly withTag: string; readonly noTag: string; readonly undoable: string; readonly show: string };
  list(tag: string): string;
};

/**
 * One kind of job. Written with method syntax, as `StepHandler` is.
 * - `kind`: its name, stored on each of its jobs (`JobRecord.kind`, in IndexedDB): never rename one.
 * - `source`: the `Activity-Source` header of its writes (`console/import`; docs/decisions.md section 11): the
 *   service's activity log names the console's job by it (step-runner.ts).
 * - `changes`: the list its jobs change, the React Query area refetched in every tab when one ends or stops
 *   (`['ws', workspaceId, changes]`, docs/style.md "Queries"). Absent: a job made as another's undo (`meta.undoOf`)
 *   changes that job's lists (the engine's `UNDO_KIND`); any other job refetches nothing.
 * - `label`: the catalog key of the kind's name on the Jobs page ("Contacts import", issue 23).
 * - `title(meta, steps)`: the title of a new job from its `meta` (as the owning feature sets it) and its number of
 *   steps, as a catalog key and values (job-title.ts), or null when `meta` lacks what it needs; absent, the job shows
 *   the title it was given.
 * - `undoable`: true when its finished job's tag changes may be undone by a job of inverse steps (workspace-runner.ts
 *   `canUndo`, `undoJob`), its steps' handlers giving each inverse.
 * - `created`: what the Jobs page says of the records its jobs created (`CreatedRecords`); absent, nothing.
 * - `final`: the catalog key of the sentence saying why its jobs have no undo of any kind, not even the activity
 *   log's undo in one request (an erasure: docs/decisions.md section 10); absent, a finished job may be undone there.
 */
export type JobKindSpec = {
  readonly kind: JobKind;
  readonly source: string;
  readonly changes?: string;
  readonly label: string;
  title?(meta: Record<string, unknown>, steps: number): JobTitle | null;
  readonly undoable: boolean;
  readonly created?: CreatedRecords;
  readonly final?: string;
};

/** A job whose kind no spec is registered for: the run stops (nothing sent) rather than write unlogged or unnamed. */
export class UnknownJobKindError extends Error {
  constructor(readonly kind: string) {
    super(`No spec is registered for the job kind "${kind}"`);
    this.name = 'UnknownJobKindError';
  }
}

/**
 * The engine's own kind: the undo of a job by the inverse of its steps (workspace-runner.ts `undoJob`; see the
 * module's comment for why it is named `undo-tags`). It changes what the job it undoes changed (`meta.undoOf`), and
 * an undo that changed tags may itself be undone.
 */
export const UNDO_KIND: JobKindSpec = { kind: 'undo-tags', source: 'console/undo', label: 'jobs.kindUndoTags', undoable: true };

const table = new Map<string, JobKindSpec>([[UNDO_KIND.kind, UNDO_KIND]]);

/** Registers `specs` by their kinds; a kind registered again takes the later spec (a module loaded twice). */
export function registerJobKinds(...specs: readonly JobKindSpec[]): void {
  for (const spec of specs) table.set(spec.kind, spec);
}

/** The spec of `kind`, or undefined when none is registered (a view shows such a job by what it stored). */
export function findJobKind(kind: string): JobKindSpec | undefined {
  return table.get(kind);
}

/**
 * The spec of `kind`.
 * @throws UnknownJobKindError when none is registered.
 */
export function jobKind(kind: string): JobKindSpec {
  const spec = table.get(kind);
  if (!spec) throw new UnknownJobKindError(kind);
  return spec;
}
