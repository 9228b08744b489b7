import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { jobTitle, titleFromMeta, undoTitle } from './job-title';

describe('job titles (issue 23: a stored title reads in the language shown)', () => {
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

  it('shows a record stored before titles had keys, or with a key the catalog lacks, as stored', async () => {
    await activateLocale('nb');
    expect(jobTitle({ title: 'Import old.csv' })).toBe('Import old.csv');
    expect(jobTitle({ title: 'Import old.csv', titleMessage: { key: 'jobs.gone', values: {} } })).toBe('Import old.csv');
    expect(jobTitle({ title: 'Undo: Import old.csv', titleMessage: undoTitle({ title: 'Import old.csv' }) })).toBe('Angre: Import old.csv');
  });

  it('has no title from meta that lacks what it needs', () => {
    expect(titleFromMeta('contacts-import', {}, 3)).toBeNull();
    expect(titleFromMeta('bulk-tags', { tagsToAdd: [], tagsToRemove: [] }, 3)).toBeNull();
  });
});
