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
import { useState } from 'react';
import { pillRenderer, useCloseOnEnter } from '@/components/removable-pill';
import { useWorkspaceApi } from '@/lib/api';
import { contactQueries } from './queries';

/** The × of a chosen tag is named by the tag, not by its label with the count (issue 23 point 8). */
const removableTag = pillRenderer((option) => translate('shell.removeTag', { tag: option.value }));

export function TagFacet({ value, onChange }: { value: string[]; onChange: (tags: string[]) => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const t = useT();
  const [opened, setOpened] = useState(false);
  const { openOnType: _, ...dropdown } = useCloseOnEnter({ onDropdownOpen: () => setOpened(true) });
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: opened });
  const options = (tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${formatNumber(tag.count)})` }));
  for (const tag of value) if (!options.some((option) => option.value === tag)) options.push({ value: tag, label: tag });
  return (
    <MultiSelect
      label={t('contacts.colTags')}
      description={t('contacts.countsWorkspace')}
      placeholder={value.length ? undefined : t('contacts.any')}
      data={options}
      value={value}
      onChange={onChange}
      searchable
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
