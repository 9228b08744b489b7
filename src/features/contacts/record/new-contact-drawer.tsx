/**
 * "New contact" (issues 5 and 13): every field of the create request in a react-hook-form form whose schema
 * derives from the contract's `contactCreateSchema` (each field's own checks; empty inputs mean "not given").
 * - A contact with none of name, email or phone is refused before sending (the service accepts one; the console
 *   does not make blanks, issue 13).
 * - It sits in the shared `UpsertDrawer`, so closing a filled form (Escape, the close button, Cancel, another
 *   page, the tab) asks first.
 * - The server's 400 and 409 messages land, as sentences, on the field they concern, which is focused and so
 *   scrolled into view; the rest shows at the top with its details.
 * - Tags are offered from the workspace's own, an existing tag first when the typed one differs only in case.
 * - A phone without `+` or `00` is read in the national format of the country the import would choose without a
 *   file (the workspace's contacts' phones, then the browser's language: phone-country.ts `chooseCountry`), so
 *   "912 34 567" is +4791234567 in a Norwegian workspace (issue 34 point 2); one that cannot be read goes to the
 *   contract's E.164 check as typed, whose message says why.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Avatar, Checkbox, Group, NativeSelect, SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { CountryCode } from 'libphonenumber-js/min';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { NOTIFICATION_CHOICES, contactCreateSchema } from '@/api/contacts';
import { formatLocale } from '@/i18n/format';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { KeyValueEditor } from '@/components/key-value-editor';
import { TagsField } from '@/components/tags-field';
import { UpsertDrawer, formFrame } from '@/components/upsert-drawer';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { applyServerErrors, withSentences } from '@/lib/form-errors';
import { keyValueField } from '@/lib/form-fields';
import type { KeyValueRow } from '@/lib/key-value';
import { useCreateContact } from '../mutations';
import { chooseCountry, toE164 } from '../phone-country';
import { contactQueries } from '../queries';

const shape = contactCreateSchema.shape;
/** An optional text field of the contract, where an empty input means "not given". */
const emptyAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const blank = <T extends z.ZodMiniType>(schema: T) => z.pipe(z.transform(emptyAsUndefined), schema as unknown as z.ZodMiniType<z.output<T>>);

/**
 * The message when none of name, email and phone is given (shown on the name field, which gets the focus), in the
 * language shown: called when the form is checked (the `contact-record` catalog is loaded with the drawer).
 */
export const needsIdentity = () => translate('contact-record.needsIdentity');

/** A typed phone in E.164 when it reads as a national number of `country`, else as typed (for the contract's check). */
const nationalPhone = (country: CountryCode | null) => (value: unknown) => {
  if (typeof value !== 'string' || !value.trim() || value.trim().startsWith('+')) return value;
  return toE164(value, country) ?? value;
};

/**
 * The form's schema: the contract's create fields, plus form-only shapes for statusTags and the choice; `country`
 * reads a phone typed without `+` (`nationalPhone`; null: only international numbers, as the contract says).
 */
export const contactFormSchema = (country: CountryCode | null) => z
  .object({
    name: blank(shape.name),
    email: blank(shape.email),
    phone: z.pipe(z.transform(nationalPhone(country)), blank(shape.phone)),
    image: blank(shape.image),
    bio: blank(shape.bio),
    address: blank(shape.address),
    city: blank(shape.city),
    postalCode: blank(shape.postalCode),
    region: blank(shape.region),
    source: blank(shape.source),
    systemSource: blank(shape.systemSource),
    customMessage: blank(shape.customMessage),
    tags: shape.tags.def.innerType,
    statusTags: keyValueField(shape.statusTags.def.innerType),
    notificationSettings: blank(shape.notificationSettings),
    addDirectly: z.boolean(),
    useEmailByDefault: z.boolean(),
  })
  .check(
    z.superRefine((values, ctx) => {
      if (!values.name?.trim() && !values.email && !values.phone) ctx.addIssue({ code: 'custom', path: ['name'], message: needsIdentity() });
    }),
  );
/** The form's schema with international numbers only. */
export const newContactSchema = contactFormSchema(null);
type FormInput = z.input<typeof newContactSchema>;

const DEFAULTS: FormInput = {
  name: '', email: '', phone: '', image: '', bio: '', address: '', city: '', postalCode: '', region: '', source: '', systemSource: '',
  customMessage: '', tags: [], statusTags: [] as KeyValueRow[], notificationSettings: '', addDirectly: false, useEmailByDefault: false,
};
const FIELDS = [...Object.keys(DEFAULTS), 'follows'];

export function NewContactDrawer({ onClose }: { onClose: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const tags = useQuery(contactQueries.tags(api, workspaceId));
  const existing = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  const phones = useQuery(contactQueries.phones(api, workspaceId));
  const country = useMemo(() => chooseCountry({ fileNumbers: [], workspacePhones: phones.data ?? [], languages: navigator.languages ?? [navigator.language] }).country, [phones.data]);
  const schema = useMemo(() => contactFormSchema(country), [country]);
  const create = useCreateContact();
  const form = useForm<FormInput, unknown, z.output<typeof newContactSchema>>({ resolver: withSentences(zodResolver(schema)), defaultValues: DEFAULTS });
  const { errors } = form.formState;
  const t = useT();
  const image = String(useWatch({ control: form.control, name: 'image' }) ?? '');

  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await create.mutateAsync(values);
      notifications.show({ color: 'green', message: t('contact-record.created', { name: created.name ?? created.email ?? created.phone ?? t('contact-record.theContact'), state: created.state }) });
      onClose();
    } catch (error) {
      await applyServerErrors(error, form.setError, FIELDS, { focus: true });
    }
  });

  const text = (name: keyof FormInput, label: string, props: Record<string, unknown> = {}) => (
    <TextInput label={label} {...form.register(name as 'name')} error={errors[name]?.message} {...props} />
  );

  // Built outside the JSX: the field names and input types are code, not text a person reads.
  const inputs = {
    name: text('name', t('contact-record.fieldName'), { description: t('contact-record.nameHint') }),
    email: text('email', t('contact-record.fieldEmail'), { type: 'email' }),
    phone: text('phone', t('contact-record.fieldPhone'), { description: country ? t('contact-record.phoneHintCountry', { country: countryName(country) }) : t('contact-record.phoneHint') }),
    image: text('image', t('contact-record.fieldImage'), { style: { flex: 1 } }),
    address: text('address', t('contact-record.fieldAddress')),
    city: text('city', t('contact-record.fieldCity')),
    postalCode: text('postalCode', t('contact-record.fieldPostalCode')),
    region: text('region', t('contact-record.fieldRegion')),
    source: text('source', t('contact-record.fieldSource')),
    systemSource: text('systemSource', t('contact-record.fieldSystemSource')),
  };
  const registered = {
    bio: form.register('bio'),
    customMessage: form.register('customMessage'),
    notificationSettings: form.register('notificationSettings'),
    addDirectly: form.register('addDirectly'),
    useEmailByDefault: form.register('useEmailByDefault'),
  };

  return (
    <UpsertDrawer
      title={t('contact-record.newTitle')}
      {...formFrame(form.formState, create.error)}
      submitLabel={t('contact-record.create')}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {inputs.name}
        {inputs.email}
        {inputs.phone}
        <Group align="flex-end" wrap="nowrap" gap="xs">
          {inputs.image}
          <Avatar src={image && /^https?:\/\//.test(image) ? image : null} alt={t('contact-record.imagePreview')} size="md" radius="xl" />
        </Group>
        {inputs.address}
        {inputs.city}
        {inputs.postalCode}
        {inputs.region}
        {inputs.source}
        {inputs.systemSource}
      </SimpleGrid>
      <Textarea label={t('contact-record.fieldBio')} autosize minRows={2} {...registered.bio} error={errors.bio?.message} />
      <Textarea label={t('contact-record.fieldCustomMessage')} autosize minRows={2} {...registered.customMessage} error={errors.customMessage?.message} />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => (
          <TagsField
            ref={field.ref}
            label={t('contact-record.tags')}
            existing={existing}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.tags?.message ?? (errors.tags as unknown as { message?: string }[] | undefined)?.find?.(Boolean)?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="statusTags"
        render={({ field }) => <KeyValueEditor label={t('contact-record.fieldStatusTags')} rows={field.value} onChange={field.onChange} error={errors.statusTags?.message} />}
      />
      <NativeSelect
        label={t('contact-record.notificationSettings')}
        {...registered.notificationSettings}
        data={[{ value: '', label: t('contact-record.notificationDefault') }, ...NOTIFICATION_CHOICES.map((choice) => ({ value: choice, label: t('contact-record.notificationChoice', { choice }) }))]}
        error={errors.notificationSettings?.message}
      />
      <Checkbox label={t('contact-record.addDirectly')} {...registered.addDirectly} />
      <Checkbox label={t('contact-record.useEmailByDefault')} {...registered.useEmailByDefault} />
    </UpsertDrawer>
  );
}

/** A country's name in the language shown (Intl), else its code. */
function countryName(country: CountryCode): string {
  try {
    return new Intl.DisplayNames(formatLocale(), { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}
