/**
 * The tags facet: the workspace's tags with their contact counts (`GET /contacts/contacts-tags`), any of which
 * match. The counts are for the whole workspace, not the current filters (the endpoint takes no filter), and the
 * field says so (issue 13). Issue 19: the list is asked for when the person opens the field, not with the page.
 */
import { formatNumber } from '@/i18n/format';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useState } from 'react';
import { pillRenderer, useCloseOnEnter } from '@/components/removable-pill';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { contactQueries } from '../queries';

/** The × of a chosen tag is named by the tag, not by its label with the count (issue 23 point 8). */
const removableTag = pillRenderer((option) => translate('lists.removeTag', { tag: option.value }));

export function TagFacet({ value, onChange }: { value: string[]; onChange: (tags: string[]) => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const t = useT();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: opened });
  const options = (tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${formatNumber(tag.count)})` }));
  for (const tag of value) if (!options.some((option) => option.value === tag)) options.push({ value: tag, label: tag });
  // Mantine highlights the first match when the typed text changes, not when the list arrives: text typed while the
  // list was loading left nothing highlighted, and Enter took nothing (issue 34 point 10). Enter with nothing
  // highlighted takes the first tag not yet chosen whose label holds the text (Mantine's own match).
  const pickFirstMatch = (event: KeyboardEvent<HTMLInputElement>) => {
    const wanted = search.trim().toLowerCase();
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || !wanted) return;
    const list = document.getElementById(event.currentTarget.getAttribute('aria-controls') ?? '');
    if (list?.querySelector('[data-combobox-selected]')) return; // Mantine takes the highlighted one
    const match = options.find((option) => !value.includes(option.value) && option.label.toLowerCase().includes(wanted));
    if (!match) return;
    event.preventDefault();
    onChange([...value, match.value]);
    setSearch('');
  };
  const { openOnType: _, ...dropdown } = useCloseOnEnter({ onDropdownOpen: () => setOpened(true), onKeyDown: pickFirstMatch });
  return (
    <MultiSelect
      label={t('contacts.colTags')}
      description={t('contacts.countsWorkspace')}
      placeholder={value.length ? undefined : t('contacts.any')}
      data={options}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // Typing highlights the first tag it matches, so Enter picks it (issue 34 point 10); the arrows move the highlight.
      selectFirstOptionOnChange
      clearable
      miw={200}
      maw={360}
      nothingFoundMessage={tags.isFetching ? t('contacts.loadingTags') : t('contacts.noSuchTag')}
      renderPill={removableTag}
      {...dropdown}
    />
  );
}
