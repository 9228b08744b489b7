/**
 * "New contact" (issue 5): every field of the create request in a react-hook-form form whose schema derives
 * from the contract's `contactCreateSchema` (each field's own checks; empty inputs mean "not given"). The
 * server's 400 and 409 messages land on the field they concern, the rest at the top.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Avatar, Button, Checkbox, Drawer, Group, NativeSelect, SimpleGrid, Stack, TagsInput, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import * as z from 'zod';
import { NOTIFICATION_CHOICES, contactCreateSchema } from '@/api/contacts';
import { KeyValueEditor, type KeyValueRow, toRecord } from '@/components/key-value-editor';
import { useWorkspaceApi } from '@/lib/api';
import { applyServerErrors } from '@/lib/form-errors';
import { useCreateContact } from './mutations';
import { contactQueries } from './queries';

const shape = contactCreateSchema.shape;
/** An optional text field of the contract, where an empty input means "not given". */
const blank = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);

/** The form's schema: the contract's create fields, plus form-only shapes for statusTags and the choice. */
export const newContactSchema = z.object({
  name: blank(shape.name),
  email: blank(shape.email),
  phone: blank(shape.phone),
  image: blank(shape.image),
  bio: blank(shape.bio),
  address: blank(shape.address),
  city: blank(shape.city),
  postalCode: blank(shape.postalCode),
  region: blank(shape.region),
  source: blank(shape.source),
  systemSource: blank(shape.systemSource),
  customMessage: blank(shape.customMessage),
  tags: shape.tags.unwrap(),
  notificationSettings: blank(shape.notificationSettings),
  addDirectly: z.boolean(),
  useEmailByDefault: z.boolean(),
});
type FormInput = z.input<typeof newContactSchema>;

const DEFAULTS: FormInput = {
  name: '', email: '', phone: '', image: '', bio: '', address: '', city: '', postalCode: '', region: '', source: '', systemSource: '',
  customMessage: '', tags: [], notificationSettings: '', addDirectly: false, useEmailByDefault: false,
};
const FIELDS = [...Object.keys(DEFAULTS), 'statusTags', 'follows'];

export function NewContactDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: opened });
  const create = useCreateContact();
  const [statusTags, setStatusTags] = useState<KeyValueRow[]>([]);
  const [statusTagsError, setStatusTagsError] = useState<string | undefined>();
  const form = useForm<FormInput, unknown, z.output<typeof newContactSchema>>({ resolver: zodResolver(newContactSchema), defaultValues: DEFAULTS });
  const { errors } = form.formState;
  const image = String(form.watch('image') ?? '');

  const close = () => {
    form.reset(DEFAULTS);
    setStatusTags([]);
    setStatusTagsError(undefined);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    const statusRecord = toRecord(statusTags);
    if ('error' in statusRecord) return setStatusTagsError(statusRecord.error);
    setStatusTagsError(undefined);
    try {
      const created = await create.mutateAsync({ ...values, statusTags: statusTags.length ? statusRecord.record : undefined });
      notifications.show({ color: 'green', message: `Created ${created.name ?? created.email ?? created.phone ?? 'the contact'} (${created.state}).` });
      close();
    } catch (error) {
      applyServerErrors(error, form.setError, FIELDS);
      if (/statusTags/.test(String((error as Error).message))) setStatusTagsError((error as Error).message);
    }
  });

  const text = (name: keyof FormInput, label: string, props: Record<string, unknown> = {}) => (
    <TextInput label={label} {...form.register(name as 'name')} error={errors[name]?.message} {...props} />
  );

  return (
    <Drawer opened={opened} onClose={close} position="right" size="lg" title="New contact" closeButtonProps={{ 'aria-label': 'Close new contact' }}>
      <form onSubmit={(event) => void submit(event)} aria-label="New contact" noValidate>
        <Stack>
          {errors.root ? (
            <Alert color="red" role="alert" title="Not created">
              {errors.root.message}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('name', 'Name')}
            {text('email', 'Email', { type: 'email' })}
            {text('phone', 'Phone', { description: 'E.164, like +47 123 45 678' })}
            <Group align="flex-end" wrap="nowrap" gap="xs">
              {text('image', 'Image URL', { style: { flex: 1 } })}
              <Avatar src={image && /^https?:\/\//.test(image) ? image : null} alt="Image preview" size="md" radius="xl" />
            </Group>
            {text('address', 'Address')}
            {text('city', 'City')}
            {text('postalCode', 'Postal code')}
            {text('region', 'Region')}
            {text('source', 'Source')}
            {text('systemSource', 'System source')}
          </SimpleGrid>
          <Textarea label="Bio" autosize minRows={2} {...form.register('bio')} error={errors.bio?.message} />
          <Textarea label="Custom message" autosize minRows={2} {...form.register('customMessage')} error={errors.customMessage?.message} />
          <Controller
            control={form.control}
            name="tags"
            render={({ field }) => (
              <TagsInput label="Tags" data={(tags.data ?? []).map((tag) => tag.name)} value={field.value} onChange={field.onChange} error={errors.tags?.message ?? (errors.tags as unknown as { message?: string }[] | undefined)?.find?.(Boolean)?.message} />
            )}
          />
          <KeyValueEditor label="Status tags" rows={statusTags} onChange={setStatusTags} error={statusTagsError} />
          <NativeSelect
            label="Notification settings"
            {...form.register('notificationSettings')}
            data={[{ value: '', label: 'Default (email when there is an email; sms when there is a phone)' }, ...NOTIFICATION_CHOICES.map((choice) => ({ value: choice, label: choice }))]}
            error={errors.notificationSettings?.message}
          />
          <Checkbox label="Add directly (active at once, no confirmation)" {...form.register('addDirectly')} />
          <Checkbox label="Use email by default" {...form.register('useEmailByDefault')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Create contact
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
