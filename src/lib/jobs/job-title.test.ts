import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { UNDO_KIND, registerJobKinds } from './job-kinds';
import type { JobTitle } from './job-types';
import { jobTitle, titleFromMeta, undoTitle } from './job-title';

describe('job titles (issue 23: a stored title reads in the language shown)', () => {
  afterAll(() => activateLocale('en'));

  // Records as stored: a catalog key and raw values (the contacts feature's kinds make these: contact-jobs.test.ts).
  const erase = { title: 'Erase 1,200 contacts', titleMessage: { key: 'jobs.titleErase', values: { count: 1200 } } };
  const tags = { title: 'Add vip, remove lead on 1 contact', titleMessage: { key: 'jobs.titleTagsBoth', values: { added: ['vip'], removed: ['lead'], count: 1 } } };
  const imported = { title: 'Import kunder.csv', titleMessage: { key: 'jobs.titleImport', values: { fileName: 'kunder.csv' } } };

  it('renders stored records in English', async () => {
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

  it('shows a record stored before titles had keys, or with a key the catalog lacks, as stored', async () => {
    await activateLocale('nb');
    expect(jobTitle({ title: 'Import old.csv' })).toBe('Import old.csv');
    expect(jobTitle({ title: 'Import old.csv', titleMessage: { key: 'jobs.gone', values: {} } })).toBe('Import old.csv');
    expect(jobTitle({ title: 'Undo: Import old.csv', titleMessage: undoTitle({ title: 'Import old.csv' }) })).toBe('Angre: Import old.csv');
  });

  it("makes a new job's title by its kind's spec (issue 38 point 4), and none for a kind without a title or a spec", () => {
    registerJobKinds({
      kind: 'test-titled',
      source: 'console/test-titled',
      label: 'jobs.kindTest',
      undoable: false,
      title: (meta, steps): JobTitle | null => (typeof meta.fileName === 'string' ? { key: 'jobs.titleImport', values: { fileName: `${meta.fileName} (${steps})` } } : null),
    });
    expect(titleFromMeta('test-titled', { fileName: 'a.csv' }, 3)).toEqual({ key: 'jobs.titleImport', values: { fileName: 'a.csv (3)' } });
    expect(titleFromMeta('test-titled', undefined, 3)).toBeNull();
    expect(titleFromMeta(UNDO_KIND.kind, { undoOf: 'x' }, 3)).toBeNull();
    expect(titleFromMeta('test-nobody-registered', { fileName: 'a.csv' }, 3)).toBeNull();
  });
});
