/**
 * The product upsert drawer (issue 6), for a new product or an edit of a listed one: every field of the
 * `POST /products` request, checked by the form schema derived from the contract (product-form.ts) before any
 * request. The handle is suggested from the title until the user types one; the description's HTML has a live
 * preview that cannot run code (HtmlPreview); the image URL shows the image; currencies are searchable from
 * `Intl.supportedValuesOf('currency')`; collections are picked by title. Saving waits for the service, says
 * "Product created" (201) or "Product updated" (200), and the lists refetch; a 400 or 409 lands on its field.
 * `readOnly` (a key without products:read-write) shows a listed product's fields disabled (issue 14).
 * Texts (issue 23): the `products` catalog area (loaded with the page) and `forms` (the shared fields and frame).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, MultiSelect, NativeSelect, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { pillRenderer } from '@/components/removable-pill';
import { TagsField, removeValueName } from '@/components/tags-field';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { PRODUCT_STATUSES, type Product } from '@/api/catalog';
import { CustomPropertiesField, DescriptionFields, TitleHandleFields } from '@/components/catalog-fields';
import { UpsertDrawer, formFrame, showSaved } from '@/components/upsert-drawer';
import { DeleteRecordButton } from '@/components/catalog-delete';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { applyServerErrors, withSentences } from '@/lib/form-errors';
import { currencyOptions } from './money';
import { useUpsertProduct } from './mutations';
import { PRODUCT_FORM_FIELDS, type ProductFormOutput, type ProductFormValues, productFormSchema, productFormValues, toProductUpsert } from './product-form';
import { productQueries } from './queries';
import classes from './products.module.css';

/** A record's history (issue 33), loaded when the drawer shows it. */
const RecordHistory = lazy(() => import('@/components/record-history').then((m) => ({ default: m.RecordHistory })));

/** The image at `url` when it is an http(s) URL, or a note when it cannot be loaded. */
function ImagePreview({ url }: { url: string }) {
  const t = useT();
  const [failed, setFailed] = useState(false);
  if (!/^https?:\/\/\S+$/i.test(url.trim())) return null;
  if (failed) return <Text size="xs" c="dimmed">{t('products.imageFailed')}</Text>;
  return <img className={classes.imagePreview} src={url.trim()} alt={t('products.imagePreview')} onError={() => setFailed(true)} />;
}

/** The × of a chosen collection is named by its title (issue 23 point 8). */
const removableCollection = pillRenderer((option) => removeValueName(option.label));

export function ProductDrawer({ product, defaultCurrency, readOnly = false, onClose }: { product: Product | null; defaultCurrency?: string | undefined; readOnly?: boolean; onClose: () => void }) {
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  const collections = useQuery(productQueries.collectionChoices(api, workspaceId));
  const upsert = useUpsertProduct();
  const schema = useMemo(() => productFormSchema(product), [product]);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({ resolver: withSentences(zodResolver(schema)), defaultValues: productFormValues(product, { currency: defaultCurrency }) });
  const { errors } = form.formState;
  const imageUrl = useWatch({ control: form.control, name: 'imageUrl' });
  const currencies = useMemo(() => currencyOptions([product?.currency ?? '', defaultCurrency ?? '']), [product, defaultCurrency]);
  // The product's own collections stay choosable by title while the full list loads (or when it is capped).
  const collectionData = useMemo(() => {
    const choices = collections.data ?? [];
    const own = (product?.collections ?? []).filter((collection) => !choices.some((choice) => choice.value === collection.id));
    return [...choices, ...own.map((collection) => ({ value: collection.id, label: collection.collectionTitle ?? collection.id }))];
  }, [collections.data, product]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const result = await upsert.mutateAsync(toProductUpsert(values, product));
      showSaved(result.created ? t('products.created') : t('products.updated'));
      onClose();
    } catch (error) {
      await applyServerErrors(error, form.setError, PRODUCT_FORM_FIELDS, { focus: true });
    }
  });

  const text = (name: 'type' | 'vendor' | 'source' | 'url' | 'imageUrl' | 'price' | 'originalPrice' | 'externalId', label: string, props: Record<string, unknown> = {}) => (
    <TextInput label={label} {...form.register(name)} error={errors[name]?.message} {...props} />
  );

  // The fields' registrations, outside the markup (field names are not texts a person reads).
  const inputs = {
    status: form.register('status'),
    isForSale: form.register('isForSale'),
    type: text('type', t('products.type')),
    vendor: text('vendor', t('products.vendor')),
    source: text('source', t('products.source')),
    price: text('price', t('products.price'), { inputMode: 'decimal' }),
    originalPrice: text('originalPrice', t('products.originalPrice'), { inputMode: 'decimal', description: t('products.originalPriceHint') }),
    url: text('url', t('products.url'), { type: 'url' }),
    externalId: text('externalId', t('products.externalId'), { description: t('products.externalIdHint') }),
    imageUrl: text('imageUrl', t('products.imageUrl'), { type: 'url' }),
  };

  return (
    <UpsertDrawer
      title={product ? (readOnly ? t('products.view') : t('products.edit')) : t('products.new')}
      {...formFrame(form.formState, upsert.error)}
      submitLabel={product ? t('products.save') : t('products.create')}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      readOnly={readOnly}
      // Beside the fields, not among them: a read-only key's fields are a disabled fieldset, and its History opens too.
      aside={
        product ? (
          <Suspense fallback={null}>
            <RecordHistory resourceId={product.id} canRevert={!readOnly} />
          </Suspense>
        ) : undefined
      }
    >
      {product ? (
        <DeleteRecordButton record={product} canWrite={!readOnly} kind="product" remove={(id) => api.deleteProduct(id)} onDeleted={onClose} />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TitleHandleFields form={form} editing={Boolean(product)} />
        <NativeSelect label={t('products.status')} data={PRODUCT_STATUSES.map((status) => ({ value: status, label: t('products.statusValue', { status }) }))} {...inputs.status} error={errors.status?.message} />
        {inputs.type}
        {inputs.vendor}
        {inputs.source}
        {inputs.price}
        {inputs.originalPrice}
        <Controller
          control={form.control}
          name="currency"
          render={({ field }) => (
            <Select
              label={t('products.currency')}
              placeholder={t('products.currencySearch')}
              data={currencies}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              searchable
              clearable
              nothingFoundMessage={t('products.noSuchCurrency')}
              error={errors.currency?.message}
            />
          )}
        />
        <Checkbox label={t('products.forSale')} mt={{ sm: 30 }} {...inputs.isForSale} />
        {inputs.url}
        {inputs.externalId}
      </SimpleGrid>
      {inputs.imageUrl}
      <ImagePreview key={imageUrl} url={imageUrl} />
      <DescriptionFields form={form} />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => <TagsField label={t('products.tags')} value={field.value} onChange={field.onChange} onBlur={field.onBlur} clearable error={errors.tags?.message} />}
      />
      <Controller
        control={form.control}
        name="collectionIds"
        render={({ field }) => (
          <MultiSelect
            label={t('products.collections')}
            placeholder={field.value.length ? undefined : t('products.collectionsSearch')}
            data={collectionData}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            searchable
            clearable
            nothingFoundMessage={collections.isPending ? t('shell.loadingEllipsis') : t('products.noSuchCollection')}
            renderPill={removableCollection}
            error={errors.collectionIds?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="externalCollectionIds"
        render={({ field }) => (
          <TagsField
            removeName={removeValueName}
            label={t('products.externalCollections')}
            description={t('products.externalCollectionsHint')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.externalCollectionIds?.message}
          />
        )}
      />
      <CustomPropertiesField form={form} />
    </UpsertDrawer>
  );
}
