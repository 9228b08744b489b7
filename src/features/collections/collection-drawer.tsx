/**
 * The collection upsert drawer (issue 6), for a new collection or an edit of a listed one: every field of the
 * `POST /collections` request, checked by the form schema derived from the contract (collection-form.ts) before
 * any request; the handle suggested from the title until the user types one; the description's HTML with a live
 * preview that cannot run code. Saving waits for the service, says "Collection created" (201) or "Collection
 * updated" (200), and the lists refetch; a 400 or 409 lands on its field. `readOnly` (a key without
 * products:read-write) shows a listed collection's fields disabled (issue 14). A listed collection's drawer also lists
 * its products, and a key that may write adds and removes them there (issue 34 point 10, collection-products-section.tsx).
 * Texts (issue 23): the `collections` catalog area (loaded with the page) and `forms` (the shared fields and frame).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, TextInput } from '@mantine/core';
import { Suspense, lazy, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { Collection } from '@/api/catalog';
import { CustomPropertiesField, DescriptionFields, TitleHandleFields } from '@/components/catalog-fields';
import { UpsertDrawer, formFrame, showSaved } from '@/components/upsert-drawer';
import { DeleteRecordButton } from '@/components/catalog-delete';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { applyServerErrors, withSentences } from '@/lib/form-errors';
import { CollectionProducts } from './collection-products-section';
import { COLLECTION_FORM_FIELDS, type CollectionFormOutput, type CollectionFormValues, collectionFormSchema, collectionFormValues, toCollectionUpsert } from './collection-form';
import { useUpsertCollection } from './mutations';

/** A record's history (issue 33), loaded when the drawer shows it. */
const RecordHistory = lazy(() => import('@/components/record-history').then((m) => ({ default: m.RecordHistory })));

export function CollectionDrawer({ collection, readOnly = false, onClose }: { collection: Collection | null; readOnly?: boolean; onClose: () => void }) {
  const t = useT();
  const upsert = useUpsertCollection();
  const { api } = useWorkspaceApi();
  const schema = useMemo(() => collectionFormSchema(collection), [collection]);
  const form = useForm<CollectionFormValues, unknown, CollectionFormOutput>({ resolver: withSentences(zodResolver(schema)), defaultValues: collectionFormValues(collection) });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const result = await upsert.mutateAsync(toCollectionUpsert(values, collection));
      showSaved(result.created ? t('collections.savedNew') : t('collections.savedEdit'));
      onClose();
    } catch (error) {
      await applyServerErrors(error, form.setError, COLLECTION_FORM_FIELDS, { focus: true });
    }
  });

  // The fields' registrations, outside the markup (field names are not texts a person reads).
  const inputs = { source: form.register('source'), externalId: form.register('externalId') };

  return (
    <UpsertDrawer
      title={collection ? (readOnly ? t('collections.view') : t('collections.edit')) : t('collections.new')}
      {...formFrame(form.formState, upsert.error)}
      submitLabel={collection ? t('collections.save') : t('collections.create')}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      readOnly={readOnly}
      // Beside the fields, not among them: a read-only key's fields are a disabled fieldset, and its products list and
      // History work all the same.
      aside={
        collection ? (
          <>
            <CollectionProducts collection={collection} canWrite={!readOnly} />
            <Suspense fallback={null}>
              <RecordHistory resourceId={collection.id} canRevert={!readOnly} />
            </Suspense>
          </>
        ) : undefined
      }
    >
      {collection ? (
        <DeleteRecordButton record={collection} canWrite={!readOnly} kind="collection" remove={(id) => api.deleteCollection(id)} onDeleted={onClose} />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TitleHandleFields form={form} editing={Boolean(collection)} />
        <TextInput label={t('collections.source')} {...inputs.source} error={errors.source?.message} />
        <TextInput label={t('collections.externalId')} description={t('collections.externalIdHint')} {...inputs.externalId} error={errors.externalId?.message} />
      </SimpleGrid>
      <DescriptionFields form={form} />
      <CustomPropertiesField form={form} />
    </UpsertDrawer>
  );
}
