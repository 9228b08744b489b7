/**
 * The contacts feature's job kinds (contact-jobs.ts) as the job engine reads them from its table
 * (src/lib/jobs/job-kinds.ts, issue 38 point 4): the titles made from each kind's `meta`, read in the language shown
 * (issue 23; moved here from the engine's job-title.test.ts with their assertions unchanged when the titles moved to
 * the kinds), and each kind's source, list and undo, which stored jobs and the service's activity log already hold.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { jobKind, registerJobKinds } from '@/lib/jobs/job-kinds';
import { jobTitle, titleFromMeta, undoTitle } from '@/lib/jobs/job-title';
import { EMPTY_COUNTS, type JobRecord } from '@/lib/jobs/job-types';
import { canUndo } from '@/lib/jobs/workspace-runner';
import { contactJobKinds } from './contact-jobs';

registerJobKinds(...contactJobKinds);

describe('the contacts job kinds', () => {
  afterAll(() => activateLocale('en'));

  const erase = { title: 'Erase 1,200 contacts', titleMessage: titleFromMeta('bulk-erase', { requested: 1200 }, 1200)! };
  const tags = { title: 'Add vip, remove lead on 1 contact', titleMessage: titleFromMeta('bulk-tags', { tagsToAdd: ['vip'], tagsToRemove: ['lead'], matched: 1 }, 1)! };
  const imported = { title: 'Import kunder.csv', titleMessage: titleFromMeta('contacts-import', { fileName: 'kunder.csv', importTag: 'import-1' }, 3)! };

  it('renders each kind in English as the callers wrote it', async () => {
    await activateLocale('en');
    expect(jobTitle(erase)).toBe('Erase 1,200 contacts');
    expect(jobTitle(tags)).toBe('Add vip, remove lead on 1 contact');
    expect(jobTitle(imported)).toBe('Import kunder.csv');
    expect(jobTitle({ title: 'x', titleMessage: undoTitle(imported) })).toBe('Undo: Import kunder.csv');
  });

  it('renders the same stored records in bokmål, numbers and plurals included', async () => {
    await activateLocale('nb');
    expect(jobTitle(erase)).toBe('Slett 1\u00a0200 kontakter');
    expect(jobTitle(tags)).toBe('Legg til vip og fjern lead på 1 kontakt');
    expect(jobTitle({ title: 'x', titleMessage: undoTitle(imported) })).toBe('Angre: Importer kunder.csv');
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
