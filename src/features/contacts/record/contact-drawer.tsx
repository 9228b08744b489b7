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
import { useWorkspaceApi } from '@/lib/workspace-api';
import { updateConnection } from '@/lib/connections';
import { useExtensions } from '@/lib/extensions';
import { useChangedElsewhere } from '@/lib/live/live-store';
import { compare } from '@/api/filter/ast';
import { allows } from '@/lib/permissions';
import { StateBadge } from '../list/contact-columns';
import { Avatar } from '@/components/avatar';
import { useT } from '@/i18n/react';
import { useNotificationSettings, usePatchContactTags } from '../mutations';
import { contactQueries } from '../queries';

// Loaded when the drawer shows them (issue 33): the contacts page's first screen does not carry the history's code.
const ContactActivity = lazy(() => import('@/components/record-history').then((m) => ({ default: m.ContactActivity })));
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
  const t = useT();
  return (
    <TagsField
      label={t('contact-record.tags')}
      description={canWrite ? t('contact-record.tagsHint') : t('contact-record.tagsNeedScope')}
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
          { onError: (error) => notifyError(t('contact-record.tagsNotChanged'), error) },
        );
      }}
    />
  );
}

function BasicCredentialsForm() {
  const { workspaceId } = useWorkspaceApi();
  const [accessKey, setAccessKey] = useState('');
  const [secret, setSecret] = useState('');
  const t = useT();
  return (
    <Alert color="blue" title={t('contact-record.basicTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t('contact-record.basicText')}</Text>
        <TextInput label={t('contact-record.accessKey')} value={accessKey} onChange={(event) => setAccessKey(event.currentTarget.value)} autoComplete="off" />
        <PasswordInput label={t('contact-record.secret')} value={secret} onChange={(event) => setSecret(event.currentTarget.value)} autoComplete="off" />
        <Button size="xs" w="fit-content" disabled={!accessKey.trim() || !secret.trim()} onClick={() => updateConnection(workspaceId, { basic: { accessKey: accessKey.trim(), secret: secret.trim() } })}>
          {t('contact-record.saveCredentials')}
        </Button>
      </Stack>
    </Alert>
  );
}

function NotificationSwitches({ contact }: { contact: Contact }) {
  const { connection } = useWorkspaceApi();
  const settings = useNotificationSettings();
  const t = useT();
  if (!connection.basic) return <BasicCredentialsForm />;
  const change = (patch: { email?: boolean; sms?: boolean }) =>
    settings.mutate(
      { contactId: contact.id, ...patch },
      {
        onSuccess: (updated) => notifications.show({ color: 'green', message: t('contact-record.settingsSaved', { state: updated.state }) }),
        onError: (error) => notifyError(t('contact-record.settingsNotSaved'), error),
      },
    );
  return (
    <Stack gap="xs">
      <Switch label={t('contact-record.emailNotifications')} checked={contact.notificationSettings.email} disabled={settings.isPending || !contact.email} onChange={(event) => change({ email: event.currentTarget.checked })} />
      <Switch label={t('contact-record.smsNotifications')} checked={contact.notificationSettings.sms} disabled={settings.isPending || !contact.phone} onChange={(event) => change({ sms: event.currentTarget.checked })} />
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
  const t = useT();
  if (!extensions.known) return null;
  const canWrite = allows(connection.permissions, 'contacts:read-write');
  const canEdit = extensions.has('contact-update');
  const canErase = extensions.has('contact-erasure');
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {canEdit ? (
          <Button size="xs" variant="default" onClick={onEdit} disabled={!canWrite} title={canWrite ? undefined : t('contact-record.editNeedsScope')} aria-label={t('contact-record.editName', { name: contact.name ?? t('contact-record.unnamed') })}>
            {t('contact-record.edit')}
          </Button>
        ) : null}
        {canErase ? (
          <Button size="xs" variant="light" color="red" onClick={onErase} disabled={!canWrite} title={canWrite ? undefined : t('contact-record.eraseNeedsScope')}>
            {t('contact-record.erase')}
          </Button>
        ) : null}
      </Group>
      {canEdit ? null : <Text size="xs" c="dimmed">{t('contact-record.editNotAllowed')}</Text>}
      {canErase ? null : <Text size="xs" c="dimmed">{t('contact-record.eraseNotAllowed')}</Text>}
    </Stack>
  );
}

/**
 * "Changed by …a1b2 just now" (issue 36 point 6; docs/decisions.md section 13): shown while the open contact was
 * changed elsewhere in the last five minutes (the change stream marks it, src/lib/live/live-store.ts; this tab's own
 * writes are not marked); the values below are already the new ones (src/lib/live/live-watch.tsx replaced them).
 * Who changed it is the key hint of the contact's latest activity entry (one request), where the service keeps the
 * log (`activity`); else "someone else".
 */
function ChangedElsewhere({ contactId }: { contactId: string }) {
  const { api, workspaceId } = useWorkspaceApi();
  const at = useChangedElsewhere(workspaceId, contactId);
  const extensions = useExtensions();
  const t = useT();
  const withLog = extensions.has('activity');
  const latest = useQuery({
    queryKey: ['ws', workspaceId, 'activity', 'latest', contactId, at],
    queryFn: async ({ signal }) => (await api.listActivity({ filter: compare('resourceId', 'eq', contactId), limit: 1, signal })).items[0]?.keyHint ?? null,
    enabled: at !== undefined && withLog,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (at === undefined || Date.now() - at > 5 * 60_000 || (withLog && latest.isPending)) return null;
  return (
    <Alert color="blue" role="status">
      {t('contact-record.changedElsewhere', { who: latest.data ?? t('contact-record.someoneElse') })}
    </Alert>
  );
}

export function ContactDrawer({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'erase'>('view');
  const { connection } = useWorkspaceApi();
  const t = useT();
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
    <Drawer opened={contact !== null} onClose={onClose} position="right" size="md" title={contact?.name ?? t('contact-record.contact')} closeButtonProps={{ 'aria-label': t('contact-record.close') }}>
      {contact ? (
        <Stack gap="md">
          <Group>
            <Avatar src={contact.image} name={contact.name} size={56} />
            <div>
              <Title order={3} size="h4">
                {contact.name ?? t('contacts.noName')}
              </Title>
              <StateBadge state={contact.state} />
            </div>
          </Group>
          <ChangedElsewhere contactId={contact.id} />
          <ExtensionActions contact={contact} onEdit={() => setMode('edit')} onErase={() => setMode('erase')} />
          <TagEditor contact={contact} />
          <Title order={4} size="h5">
            {t('contact-record.notifications')}
          </Title>
          <NotificationSwitches contact={contact} />
          <Title order={4} size="h5">
            {t('contact-record.details')}
          </Title>
          <Field label={t('contact-record.fieldEmail')} value={contact.email} />
          <Field label={t('contact-record.fieldPhone')} value={contact.phone} />
          <Field label={t('contact-record.fieldAddress')} value={[contact.address, contact.postalCode, contact.city, contact.region].filter(Boolean).join(', ')} />
          <Field label={t('contact-record.fieldBio')} value={contact.bio} />
          <Field label={t('contact-record.fieldCustomMessage')} value={contact.customMessage} />
          <Field label={t('contact-record.fieldSource')} value={contact.source} />
          <Field label={t('contact-record.fieldSystemSource')} value={contact.systemSource} />
          <Field
            label={t('contact-record.fieldStatusTags')}
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
          <Field label={t('contact-record.fieldFollows')} value={contact.follows === null || contact.follows === undefined ? null : <Code>{JSON.stringify(contact.follows)}</Code>} />
          <Field label={t('contact-record.fieldCreated')} value={<RelativeTime iso={contact.created} />} />
          <Field label={t('contact-record.fieldUpdated')} value={<RelativeTime iso={contact.updated} />} />
          <Field label={t('contact-record.fieldId')} value={<Code>{contact.id}</Code>} />
          <Suspense fallback={null}>
            <ContactActivity contactId={contact.id} canRevert={allows(connection.permissions, 'contacts:read-write')} />
          </Suspense>
        </Stack>
      ) : null}
    </Drawer>
    </>
  );
}
