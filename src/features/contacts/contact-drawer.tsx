/**
 * A contact's drawer (issue 5): every field, the tag editor (optimistic through `PATCH /contacts/{id}/tags`,
 * rolled back with a message when refused), and the notification switches, which use the workspace's Basic
 * credentials (asked for once and saved with the key when missing). A pending contact turns active after.
 * Tags are offered from the workspace's own, an existing tag first when a typed one differs only in case; errors
 * are sentences with their details (issue 13).
 */
import { Alert, Badge, Button, Code, Drawer, Group, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useMemo, useState } from 'react';
import type { Contact } from '@/api/contacts';
import { ErrorMessage } from '@/components/error-message';
import { notifyError } from '@/components/notify-error';
import { RelativeTime } from '@/components/relative-time';
import { TagsField } from '@/components/tags-field';
import { useWorkspaceApi } from '@/lib/api';
import { updateConnection } from '@/lib/connections';
import { useExtensions } from '@/lib/extensions';
import { allows } from '@/lib/permissions';
import { StateBadge } from './contact-columns';
import { Avatar } from '@/components/avatar';
import { useNotificationSettings, usePatchContactTags } from './mutations';
import { contactMessages as t } from './messages';
import { contactQueries } from './queries';

const EditContactDrawer = lazy(() => import('./edit-contact-drawer').then((m) => ({ default: m.EditContactDrawer })));
const EraseContactDialog = lazy(() => import('./erase-contact-dialog').then((m) => ({ default: m.EraseContactDialog })));

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value === null || value === undefined || value === '' ? '—' : value}</Text>
    </div>
  );
}

function TagEditor({ contact }: { contact: Contact }) {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const tags = useQuery(contactQueries.tags(api, workspaceId));
  const existing = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  const patch = usePatchContactTags();
  const canWrite = allows(connection.permissions, 'contacts:read-write');
  return (
    <TagsField
      label="Tags"
      description={canWrite ? 'Type to add (Enter), pick a suggestion, or remove with ×' : 'Needs contacts:read-write to edit'}
      existing={existing}
      value={contact.tags}
      disabled={!canWrite}
      onChange={(next) => {
        // The service judges the tags (1 to 64 characters, at most 100); what it refuses rolls back with its message.
        const clean = next.map((tag) => tag.trim()).filter((tag) => tag.length > 0);
        const tagsToAdd = clean.filter((tag) => !contact.tags.includes(tag));
        const tagsToRemove = contact.tags.filter((tag) => !clean.includes(tag));
        if (!tagsToAdd.length && !tagsToRemove.length) return;
        patch.mutate(
          { contactId: contact.id, tagsToAdd: tagsToAdd.length ? tagsToAdd : undefined, tagsToRemove: tagsToRemove.length ? tagsToRemove : undefined },
          { onError: (error) => notifyError('Tags not changed', error) },
        );
      }}
    />
  );
}

function BasicCredentialsForm() {
  const { workspaceId } = useWorkspaceApi();
  const [accessKey, setAccessKey] = useState('');
  const [secret, setSecret] = useState('');
  return (
    <Alert color="blue" title="Basic credentials needed">
      <Stack gap="xs">
        <Text size="sm">Notification settings use the workspace's access key and secret (not the API key). They are saved with this workspace's key.</Text>
        <TextInput label="Access key" value={accessKey} onChange={(event) => setAccessKey(event.currentTarget.value)} autoComplete="off" />
        <PasswordInput label="Secret" value={secret} onChange={(event) => setSecret(event.currentTarget.value)} autoComplete="off" />
        <Button size="xs" w="fit-content" disabled={!accessKey.trim() || !secret.trim()} onClick={() => updateConnection(workspaceId, { basic: { accessKey: accessKey.trim(), secret: secret.trim() } })}>
          Save credentials
        </Button>
      </Stack>
    </Alert>
  );
}

function NotificationSwitches({ contact }: { contact: Contact }) {
  const { connection } = useWorkspaceApi();
  const settings = useNotificationSettings();
  if (!connection.basic) return <BasicCredentialsForm />;
  const change = (patch: { email?: boolean; sms?: boolean }) =>
    settings.mutate(
      { contactId: contact.id, ...patch },
      {
        onSuccess: (updated) => notifications.show({ color: 'green', message: `Notification settings saved; the contact is ${updated.state}.` }),
        onError: (error) => notifyError('Settings not saved', error),
      },
    );
  return (
    <Stack gap="xs">
      <Switch label="Email notifications" checked={contact.notificationSettings.email} disabled={settings.isPending || !contact.email} onChange={(event) => change({ email: event.currentTarget.checked })} />
      <Switch label="SMS notifications" checked={contact.notificationSettings.sms} disabled={settings.isPending || !contact.phone} onChange={(event) => change({ sms: event.currentTarget.checked })} />
      {settings.isError ? (
        <Alert color="red" role="alert" p="xs">
          <ErrorMessage error={settings.error} />
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * Edit and Erase (issue 22 point 7), offered only where the service has `contact-update` / `contact-erasure`
 * (src/lib/extensions.ts); where it has not, one line says so. Both need contacts:read-write.
 */
function ExtensionActions({ contact, onEdit, onErase }: { contact: Contact; onEdit: () => void; onErase: () => void }) {
  const { connection } = useWorkspaceApi();
  const extensions = useExtensions();
  if (!extensions.known) return null;
  const canWrite = allows(connection.permissions, 'contacts:read-write');
  const canEdit = extensions.has('contact-update');
  const canErase = extensions.has('contact-erasure');
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {canEdit ? (
          <Button size="xs" variant="default" onClick={onEdit} disabled={!canWrite} title={canWrite ? undefined : t.editNeedsScope} aria-label={`${t.edit} ${contact.name ?? t.unnamed}`}>
            {t.edit}
          </Button>
        ) : null}
        {canErase ? (
          <Button size="xs" variant="light" color="red" onClick={onErase} disabled={!canWrite} title={canWrite ? undefined : t.eraseNeedsScope}>
            {t.erase}
          </Button>
        ) : null}
      </Group>
      {canEdit ? null : <Text size="xs" c="dimmed">{t.editNotAllowed}</Text>}
      {canErase ? null : <Text size="xs" c="dimmed">{t.eraseNotAllowed}</Text>}
    </Stack>
  );
}

export function ContactDrawer({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'erase'>('view');
  if (contact && mode === 'edit') {
    return (
      <Suspense fallback={null}>
        <EditContactDrawer contact={contact} onClose={() => setMode('view')} />
      </Suspense>
    );
  }
  return (
    <>
    {contact && mode === 'erase' ? (
      <Suspense fallback={null}>
        <EraseContactDialog contact={contact} onCancel={() => setMode('view')} onErased={onClose} />
      </Suspense>
    ) : null}
    <Drawer opened={contact !== null} onClose={onClose} position="right" size="md" title={contact?.name ?? 'Contact'} closeButtonProps={{ 'aria-label': 'Close contact' }}>
      {contact ? (
        <Stack gap="md">
          <Group>
            <Avatar src={contact.image} name={contact.name} size={56} />
            <div>
              <Title order={3} size="h4">
                {contact.name ?? '(no name)'}
              </Title>
              <StateBadge state={contact.state} />
            </div>
          </Group>
          <ExtensionActions contact={contact} onEdit={() => setMode('edit')} onErase={() => setMode('erase')} />
          <TagEditor contact={contact} />
          <Title order={4} size="h5">
            Notifications
          </Title>
          <NotificationSwitches contact={contact} />
          <Title order={4} size="h5">
            Details
          </Title>
          <Field label="Email" value={contact.email} />
          <Field label="Phone" value={contact.phone} />
          <Field label="Address" value={[contact.address, contact.postalCode, contact.city, contact.region].filter(Boolean).join(', ')} />
          <Field label="Bio" value={contact.bio} />
          <Field label="Custom message" value={contact.customMessage} />
          <Field label="Source" value={contact.source} />
          <Field label="System source" value={contact.systemSource} />
          <Field
            label="Status tags"
            value={
              contact.statusTags && Object.keys(contact.statusTags).length ? (
                <Group gap={4}>
                  {Object.entries(contact.statusTags).map(([key, value]) => (
                    <Badge key={key} variant="default" tt="none">
                      {key}: {typeof value === 'string' ? value : JSON.stringify(value)}
                    </Badge>
                  ))}
                </Group>
              ) : null
            }
          />
          <Field label="Follows" value={contact.follows === null || contact.follows === undefined ? null : <Code>{JSON.stringify(contact.follows)}</Code>} />
          <Field label="Created" value={<RelativeTime iso={contact.created} />} />
          <Field label="Updated" value={<RelativeTime iso={contact.updated} />} />
          <Field label="Id" value={<Code>{contact.id}</Code>} />
        </Stack>
      ) : null}
    </Drawer>
    </>
  );
}
