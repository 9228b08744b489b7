import { describe, expect, it } from 'vitest';
import type { Collection } from '@/api/catalog';
import { CANNOT_CLEAR } from '@/lib/form-fields';
import { type CollectionFormValues, collectionFormSchema, collectionFormValues, toCollectionUpsert } from './collection-form';

const collection: Collection = {
  id: 'c-1',
  feedId: 'w-1',
  externalId: 'winter',
  title: 'Winter',
  handle: 'winter',
  bodyHtml: '<p>Cold</p>',
  source: 'shop',
  customProperties: { season: 4 },
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-02T00:00:00.000Z',
};

function submit(values: CollectionFormValues, original?: Collection) {
  const parsed = collectionFormSchema(original).safeParse(values);
  if (!parsed.success) return { errors: Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])) };
  return { body: toCollectionUpsert(parsed.data, original) };
}

describe('the collection form', () => {
  it('needs a title', () => {
    expect(submit(collectionFormValues(null)).errors).toEqual({ title: 'A collection needs a title.' });
  });

  it('creates with the title and leaves the suggested handle to the service', () => {
    expect(submit({ ...collectionFormValues(null), title: 'Summer Sale', handle: 'summer-sale' }).body).toEqual({ title: 'Summer Sale' });
  });

  it('sends a handle the user typed, and refuses one that is not a slug', () => {
    expect(submit({ ...collectionFormValues(null), title: 'Summer', handle: 'sun', handleSuggested: false }).body).toEqual({ title: 'Summer', handle: 'sun' });
    expect(submit({ ...collectionFormValues(null), title: 'Summer', handle: 'Sun!', handleSuggested: false }).errors).toEqual({
      handle: 'must be a lower-case slug of letters, digits and single dashes',
    });
  });

  it('edits from the row and saves with its id', () => {
    expect(collectionFormValues(collection)).toEqual({
      title: 'Winter', handle: 'winter', handleSuggested: false, bodyHtml: '<p>Cold</p>', source: 'shop', externalId: 'winter',
      customProperties: [{ key: 'season', type: 'number', value: '4' }],
    });
    expect(submit({ ...collectionFormValues(collection), title: 'Winter 2026' }, collection).body).toEqual({
      id: 'c-1', title: 'Winter 2026', handle: 'winter', bodyHtml: '<p>Cold</p>', source: 'shop', externalId: 'winter', customProperties: { season: 4 },
    });
  });

  it('clears the source on an edit, and refuses to empty the external id', () => {
    expect(submit({ ...collectionFormValues(collection), source: '' }, collection).body?.source).toBe('');
    expect(submit({ ...collectionFormValues(collection), externalId: ' ' }, collection).errors).toEqual({ externalId: CANNOT_CLEAR });
  });
});
