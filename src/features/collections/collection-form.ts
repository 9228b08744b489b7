/**
 * The collection upsert form's model (issue 6), framework-free so it is unit-tested: every field of
 * `POST /collections` (title, handle, bodyHtml, source, externalId, customProperties), starting from the listed
 * collection on an edit, checked by the contract's field schemas (`collectionUpsertSchema`; a collection always
 * needs a title, docs/decisions.md section 7), and the request with the collection's `id` on an edit. The missing-title
 * message is read from the `collections` catalog when the schema is made (issue 23).
 */
import * as z from 'zod/mini';
import { type Collection, type CollectionUpsert, collectionUpsertSchema } from '@/api/catalog';
import { t } from '@/i18n/i18n';
import { type CatalogFormValues, catalogFormFields, catalogFormValues, catalogUpsertBase } from '@/lib/catalog-form';

export type CollectionFormValues = CatalogFormValues;

/** The form fields a server message can land on (`applyServerErrors`). */
export const COLLECTION_FORM_FIELDS = ['title', 'handle', 'bodyHtml', 'source', 'externalId', 'customProperties'] as const satisfies readonly (keyof CollectionFormValues)[];

/** Starting values: the collection's own on an edit, blanks (the handle to be suggested) on a create. */
export function collectionFormValues(collection: Collection | null | undefined): CollectionFormValues {
  return catalogFormValues(collection);
}

/** The form schema for a create (`collection` absent) or an edit of `collection` (see src/lib/catalog-form.ts). */
export function collectionFormSchema(collection?: Collection | null) {
  return z.object(catalogFormFields(collectionUpsertSchema.shape, collection, t('collections.needsTitle')));
}
export type CollectionFormOutput = z.output<ReturnType<typeof collectionFormSchema>>;

/** The `POST /collections` body for checked form values, with the collection's `id` on an edit. */
export function toCollectionUpsert(values: CollectionFormOutput, collection?: Collection | null): CollectionUpsert {
  return catalogUpsertBase(values, collection);
}
