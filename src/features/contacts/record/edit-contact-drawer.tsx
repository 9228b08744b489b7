/**
 * "Edit contact" (issue 22 point 7; `PATCH /contacts/{id}`, docs/decisions.md section 10): the create form's fields but
 * tags and notification settings (which have their own controls in the contact's drawer), each checked by the
 * contract's own schema, starting from the contact's values. Only the fields changed are sent; emptying a field
 * the contact had sends `null`, which clears it. None of name, email and phone left is refused before sending,
 * as on create. A 400 or 409 lands on its field (src/lib/form-errors.ts); leaving with changes asks first
 * (UpsertDrawer). Sent with an Idempotency-Key, so a retry after a lost answer applies once.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { contactCreateSchema, type Contact } from '@/api/contacts';
import type { ContactPatch } from '@/api/extensions';
import { KeyValueEditor } from '@/components/key-value-editor';
import { UpsertDrawer, formFrame, showSaved } from '@/components/upsert-drawer';
import { applyServerErrors, withSentences } from '@/lib/form-errors';
import { keyValueField, optionalText } from '@/lib/form-fields';
import { type KeyValueRow, rowsOf } from '@/lib/key-value';
import { useT } from '@/i18n/react';
import { useUpdateContact } from '../mutations';
import { needsIdentity } from './new-contact-drawer';

const shape = contactCreateSchema.shape;
const TEXT_FIELDS = ['name', 'email', 'phone', 'image', 'bio', 'address', 'city', 'postalCode', 'region', 'source', 'systemSource', 'customMessage'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type FormInput = Record<TextField, string> & { statusTags: KeyValueRow[] };

/** The form's schema for `contact`: each field the contract's check; blank clears what the contact had (`''`). */
export function editContactSchema(contact: Contact) {
  const text = (field: TextField) => optionalText(shape[field].def.innerType, { was: contact[field], clearable: true });
  return z
    .object({
      ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field, text(field)])) as Record<TextField, ReturnType<typeof text>>),
      statusTags: keyValueField(shape.statusTags.def.innerType, { was: contact.statusTags }),
    })
    .check(
      z.superRefine((values, ctx) => {
        const has = (value: unknown) => typeof value === 'string' && value.trim() !== '';
        if (!has(values.name) && !has(values.email) && !has(values.phone)) ctx.addIssue({ code: 'custom', path: ['name'], message: needsIdentity() });
      }),
    );
}

/** The form's starting values: the contact's. */
export function editContactValues(contact: Contact): FormInput {
  const values = Object.fromEntries(TEXT_FIELDS.map((field) => [field, contact[field] ?? ''])) as Record<TextField, string>;
  return { ...values, statusTags: rowsOf(contact.statusTags) };
}

/** The PATCH body: the `changed` fields of `values` (the schema's output), `''` and `{}` sent as `null` (clear). */
export function contactPatchOf(values: Record<string, unknown>, changed: readonly string[]): ContactPatch {
  const patch: Record<string, unknown> = {};
  for (const field of changed) {
    if (!(field in values)) continue;
    const value = values[field];
    const empty = value === '' || value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
    patch[field] = empty ? null : value;
  }
  return patch as ContactPatch;
}

const FIELDS = [...TEXT_FIELDS, 'statusTags'];

export function EditContactDrawer({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const update = useUpdateContact();
  const t = useT();
  const form = useForm<FormInput, unknown, Record<string, unknown>>({
    resolver: withSentences(zodResolver(editContactSchema(contact))) as never,
    defaultValues: editContactValues(contact),
  });
  const { errors, dirtyFields } = form.formState;
  // Issue 36 point 6: the contact as the form opened on it. A save after someone else saved it (its `updated` moved,
  // the change stream having loaded the new version) asks first, keeping the person's input either way.
  const openedAt = useRef(contact.updated);
  const changedSince = contact.updated !== openedAt.current;
  const [confirming, setConfirming] = useState(false);

  const submit = form.handleSubmit(async (values) => {
    const patch = contactPatchOf(values, Object.keys(dirtyFields));
    if (!Object.keys(patch).length) {
      onClose();
      return;
    }
    if (changedSince && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    try {
      const saved = await update.mutateAsync({ contactId: contact.id, patch });
      showSaved(t('contact-record.saved', { name: saved.name ?? saved.email ?? saved.phone ?? t('contact-record.unnamed') }));
      onClose();
    } catch (error) {
      await applyServerErrors(error, form.setError, FIELDS, { focus: true });
    }
  });

  const text = (name: TextField, label: string, props: Record<string, unknown> = {}) => (
    <TextInput key={name} label={label} {...form.register(name)} error={errors[name]?.message} {...props} />
  );

  // Built outside the JSX: the field names and input types are code, not text a person reads.
  const inputs = [
    text('name', t('contact-record.fieldName')),
    text('email', t('contact-record.fieldEmail'), { type: 'email' }),
    text('phone', t('contact-record.fieldPhone'), { description: t('contact-record.phoneHint') }),
    text('image', t('contact-record.fieldImage')),
    text('address', t('contact-record.fieldAddress')),
    text('city', t('contact-record.fieldCity')),
    text('postalCode', t('contact-record.fieldPostalCode')),
    text('region', t('contact-record.fieldRegion')),
    text('source', t('contact-record.fieldSource')),
    text('systemSource', t('contact-record.fieldSystemSource')),
  ];
  const registered = { bio: form.register('bio'), customMessage: form.register('customMessage') };

  return (
    <UpsertDrawer
      title={t('contact-record.editTitle')}
      {...formFrame(form.formState, update.error)}
      submitLabel={t('contact-record.saveChanges')}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      {changedSince ? (
        <Alert color="yellow" title={t('contact-record.staleFormTitle')} role="status">
          <Stack gap="xs">
            <Text size="sm">{t('contact-record.staleFormText')}</Text>
            {confirming ? (
              <Group gap="xs">
                <Button size="xs" color="yellow" autoContrast onClick={() => void submit()}>
                  {t('contact-record.saveAnyway')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                  {t('contact-record.keepEditing')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {inputs}
      </SimpleGrid>
      <Textarea label={t('contact-record.fieldBio')} autosize minRows={2} {...registered.bio} error={errors.bio?.message} />
      <Textarea label={t('contact-record.fieldCustomMessage')} autosize minRows={2} {...registered.customMessage} error={errors.customMessage?.message} />
      <Controller
        control={form.control}
        name="statusTags"
        render={({ field }) => <KeyValueEditor label={t('contact-record.fieldStatusTags')} rows={field.value} onChange={field.onChange} error={errors.statusTags?.message} />}
      />
    </UpsertDrawer>
  );
}
