/**
 * The composer's recipients (issue 7): tags from the workspace's contact tags (`GET /contacts/contacts-tags`)
 * and contacts found by name or email (`GET /contacts` with `name like` / `email like` built from the AST).
 * No recipients means a public post. Without `contacts:read-only` nothing can be looked up, so tags are typed
 * freely and contacts cannot be picked.
 */
import { MultiSelect, Stack, Text } from '@mantine/core';
import { pillRenderer, useCloseOnEnter } from '@/components/removable-pill';
import { TagsField, removeTagName, removeValueName } from '@/components/tags-field';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Contact } from '@/api/contacts';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { allows } from '@/lib/permissions';
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import type { RecipientContact } from './composer-form';
import { postQueries } from './queries';

/** How a contact is named in the picker: `Ann Berg (ann@example.com)`, else its email, phone or id. */
export function contactLabel(contact: Pick<Contact, 'id' | 'name' | 'email'> & { phone?: string | null }): string {
  if (contact.name && contact.email) return `${contact.name} (${contact.email})`;
  return contact.name ?? contact.email ?? contact.phone ?? contact.id;
}

type Props = {
  tags: string[];
  contacts: RecipientContact[];
  onTagsChange: (tags: string[]) => void;
  onContactsChange: (contacts: RecipientContact[]) => void;
  error?: string | undefined;
};

/** The recipients part of the composer: tag and contact pickers, and a sentence saying who will see the post. */
/** The × of a chosen tag is named by the tag, of a contact by its label (issue 23 point 8). */
const removableTag = pillRenderer((option) => removeTagName(option.value));
const removableContact = pillRenderer((option) => removeValueName(option.label));

export function RecipientsField({ tags, contacts, onTagsChange, onContactsChange, error }: Props) {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const canLookUp = allows(connection.permissions, 'contacts:read-only');
  const t = useT();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const { openOnType: _, ...tagDropdown } = useCloseOnEnter();
  const tagList = useQuery({ ...postQueries.recipientTags(api, workspaceId), enabled: canLookUp });
  const found = useQuery({ ...postQueries.recipientContacts(api, workspaceId, debounced), enabled: canLookUp });

  const picked = contacts.length + tags.length;
  const summary =
    picked === 0
      ? t('posts.recipientsNone')
      : t('posts.recipientsPrivate', { tags: tags.length, contacts: contacts.length });

  if (!canLookUp) {
    return (
      <Stack gap="xs">
        <TagsField label={t('posts.recipientTags')} description={t('posts.recipientTagsType')} value={tags} onChange={onTagsChange} error={error} clearable />
        <Text size="sm" c="dimmed">
          {t('posts.recipientsNoLookup')}
        </Text>
        <Text size="sm">{summary}</Text>
      </Stack>
    );
  }

  const tagData = [...new Set([...(tagList.data ?? []).map((tag) => tag.name), ...tags])].map((name) => {
    const count = tagList.data?.find((tag) => tag.name === name)?.count;
    return { value: name, label: count === undefined ? name : `${name} (${formatNumber(count)})` };
  });
  const known = new Map<string, RecipientContact>(contacts.map((contact) => [contact.id, contact]));
  for (const contact of found.data?.items ?? []) if (!known.has(contact.id)) known.set(contact.id, { id: contact.id, label: contactLabel(contact) });
  const contactData = [...known.values()].map((contact) => ({ value: contact.id, label: contact.label }));

  return (
    <Stack gap="xs">
      <MultiSelect
        label={t('posts.recipientTags')}
        description={t('posts.recipientTagsHint')}
        placeholder={tags.length ? undefined : t('posts.pickTags')}
        data={tagData}
        value={tags}
        onChange={onTagsChange}
        searchable
        clearable
        nothingFoundMessage={tagList.isPending ? t('posts.loadingTags') : t('posts.noTagMatch')}
        renderPill={removableTag}
        {...tagDropdown}
        error={error}
      />
      <MultiSelect
        label={t('posts.recipientContacts')}
        description={t('posts.recipientContactsHint')}
        placeholder={contacts.length ? undefined : t('posts.searchContacts')}
        data={contactData}
        value={contacts.map((contact) => contact.id)}
        onChange={(ids) => onContactsChange(ids.flatMap((id) => known.get(id) ?? []))}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={found.isFetching ? t('posts.searching') : t('posts.noContactMatch')}
        renderPill={removableContact}
        clearable
        hidePickedOptions
      />
      <Text size="sm" aria-live="polite">
        {summary}
      </Text>
    </Stack>
  );
}
