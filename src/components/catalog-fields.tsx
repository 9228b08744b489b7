/**
 * Fields the product and collection upsert drawers share (issue 6), over a react-hook-form whose values include
 * `CatalogFormValues` (src/lib/catalog-form.ts): title and handle (the handle suggested from the title while it
 * is the suggestion, on a create), the description's HTML with its live preview that cannot run code, and the
 * custom properties (key-value editor with typed values). Texts (issue 23): the `forms` catalog area, loaded by
 * the UpsertDrawer these fields sit in.
 */
import { Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { useT } from '@/i18n/react';
import { type CatalogFormValues, suggestedHandle } from '@/lib/catalog-form';
import { HtmlPreview } from './html-preview';
import { KeyValueEditor } from './key-value-editor';

/** A drawer's form, whatever else its values hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the transformed values type is not used here
type CatalogForm<Values extends CatalogFormValues> = UseFormReturn<Values, unknown, any>;
/** The same form seen through its shared fields only. */
const shared = <Values extends CatalogFormValues>(form: CatalogForm<Values>) => form as unknown as UseFormReturn<CatalogFormValues>;

/** Title (required) and handle; `editing` turns the suggestion off (an edit keeps the record's handle). */
export function TitleHandleFields<Values extends CatalogFormValues>({ form, editing }: { form: CatalogForm<Values>; editing: boolean }) {
  const t = useT();
  const fields = shared(form);
  const names = suggestedHandle(fields);
  const suggested = useWatch({ control: fields.control, name: 'handleSuggested' });
  const { errors } = fields.formState;
  return (
    <>
      <TextInput label={t('forms.title')} required {...names.title} error={errors.title?.message} />
      <TextInput
        label={t('forms.handle')}
        description={suggested && !editing ? t('forms.handleSuggested') : t('forms.handleRule')}
        {...names.handle}
        error={errors.handle?.message}
      />
    </>
  );
}

/** The description's HTML in a monospace text area, and its sanitized preview in a sandboxed frame. */
export function DescriptionFields<Values extends CatalogFormValues>({ form }: { form: CatalogForm<Values> }) {
  const t = useT();
  const fields = shared(form);
  const html = useWatch({ control: fields.control, name: 'bodyHtml' });
  const bodyHtml = fields.register('bodyHtml');
  return (
    <>
      <Textarea
        label={t('forms.description')}
        autosize
        minRows={3}
        maxRows={12}
        {...bodyHtml}
        error={fields.formState.errors.bodyHtml?.message}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} component="div">
          {t('forms.descriptionPreview')}
        </Text>
        <HtmlPreview html={html} label={t('forms.descriptionPreview')} />
      </Stack>
    </>
  );
}

/** `customProperties` as key-value rows; a problem with the rows (or the service's 400 about them) shows below. */
export function CustomPropertiesField<Values extends CatalogFormValues>({ form }: { form: CatalogForm<Values> }) {
  const t = useT();
  const fields = shared(form);
  return (
    <Controller
      control={fields.control}
      name="customProperties"
      render={({ field }) => <KeyValueEditor label={t('forms.customProperties')} rows={field.value} onChange={field.onChange} error={fields.formState.errors.customProperties?.message} />}
    />
  );
}
