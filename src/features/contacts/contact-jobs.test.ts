/**
 * The contacts feature's job kinds (contact-jobs.ts) as the job engine reads them from its table
 * (src/lib/jobs/job-kinds.ts, issue 38 point 4): the titles made from each kind's `meta` (as catalog keys and raw
 * values, which the engine's job-title.test.ts renders in either language, issue 23), and each kind's source, list
 * and undo, which stored jobs and the service's activity log already hold.
 */
import { describe, expect, it } from 'vitest';
import { jobKind, registerJobKinds } from '@/lib/jobs/job-kinds';
import { jobTitle, titleFromMeta, undoTitle } from '@/lib/jobs/job-title';
import { EMPTY_COUNTS, type JobRecord } from '@/lib/jobs/job-types';
import { canUndo } from '@/lib/jobs/workspace-runner';
import { contactJobKinds } from './contact-jobs';

registerJobKinds(...contactJobKinds);

describe('the contacts job kinds', () => {
  // The stored keys and raw values job-title.test.ts renders in both languages (issue 23).
  it('titles each kind from its meta as a catalog key and raw values', () => {
    expect(titleFromMeta('bulk-erase', { requested: 1200 }, 1200)).toEqual({ key: 'jobs.titleErase', values: { count: 1200 } });
    expect(titleFromMeta('bulk-tags', { tagsToAdd: ['vip'], tagsToRemove: ['lead'], matched: 1 }, 1)).toEqual({ key: 'jobs.titleTagsBoth', values: { added: ['vip'], removed: ['lead'], count: 1 } });
    expect(titleFromMeta('bulk-tags', { tagsToAdd: ['vip'], tagsToRemove: [] }, 4)).toEqual({ key: 'jobs.titleTagsAdd', values: { added: ['vip'], count: 4 } });
    expect(titleFromMeta('bulk-tags', { tagsToAdd: [], tagsToRemove: ['lead'], matched: 2 }, 9)).toEqual({ key: 'jobs.titleTagsRemove', values: { removed: ['lead'], count: 2 } });
    const imported = titleFromMeta('contacts-import', { fileName: 'kunder.csv', importTag: 'import-1' }, 3)!;
    expect(imported).toEqual({ key: 'jobs.titleImport', values: { fileName: 'kunder.csv' } });
    expect(jobTitle({ title: 'x', titleMessage: undoTitle({ title: 'Import kunder.csv', titleMessage: imported }) })).toBe('Undo: Import kunder.csv');
  });

  it('has no title from meta that lacks what it needs', () => {
    expect(titleFromMeta('contacts-import', {}, 3)).toBeNull();
    expect(titleFromMeta('bulk-tags', { tagsToAdd: [], tagsToRemove: [] }, 3)).toBeNull();
    expect(titleFromMeta('bulk-erase', {}, 3)).toEqual({ key: 'jobs.titleErase', values: { count: 3 } });
  });

  // The sources are what the activity log of jobs already run holds (docs/decisions.md section 11).
  it.each([
    { kind: 'contacts-import', source: 'console/import', undoable: true, final: false },
    { kind: 'bulk-tags', source: 'console/bulk-tags', undoable: true, final: false },
    { kind: 'bulk-erase', source: 'console/erasure', undoable: false, final: true },
  ])('$kind: logged as $source, changes the contacts list, undone by a job: $undoable, final: $final', ({ kind, source, undoable, final }) => {
    const spec = jobKind(kind);
    expect(spec).toMatchObject({ source, changes: 'contacts', undoable });
    expect(spec.final !== undefined).toBe(final);
    const finished: JobRecord = {
      id: 'j', workspaceId: 'ws', kind, title: 'x', state: 'done', total: 1, settled: 1, position: 1, counts: { ...EMPTY_COUNTS, tagged: 1 }, refused: 0, unchanged: 0,
      meta: {}, createdAt: 0, updatedAt: 0, finishedAt: 0, runStartedAt: null, settledAtRunStart: 0, waitingUntil: null, stopReason: null, undoneBy: null,
    };
    expect(canUndo(finished)).toBe(undoable);
  });

  it("names the tag an import's created contacts carry and links to them", () => {
    const created = jobKind('contacts-import').created!;
    expect(created.tag({ importTag: 'import-2026-11-25' })).toBe('import-2026-11-25');
    expect(created.tag({})).toBeNull();
    expect(created.list('a b&c')).toBe('contacts?tags=a%20b%26c');
  });
});
