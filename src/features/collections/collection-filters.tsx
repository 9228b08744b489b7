/**
 * The collections filter bar (issue 6): title search and created and updated ranges (native date inputs: whole
 * local days, no date-picker code). Each change updates the URL, which is the list's state; typing is debounced.
 * Texts (issue 23): the `collections` catalog area.
 */
import { Button, Group, TextInput } from '@mantine/core';
import { DebouncedInput } from '@/components/debounced-input';
import { t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { CLEAR_COLLECTION_FILTERS, type CollectionSearch, isCollectionFiltered } from './collection-search';

type Props = { search: CollectionSearch; update: (patch: Partial<CollectionSearch>) => void };
type DayKey = 'createdFrom' | 'createdTo' | 'updatedFrom' | 'updatedTo';

/** The day fields with their labels, read in the language shown. */
const DAYS: { key: DayKey; label: () => string }[] = [
  { key: 'createdFrom', label: () => t('collections.createdFrom') },
  { key: 'createdTo', label: () => t('collections.createdTo') },
  { key: 'updatedFrom', label: () => t('collections.updatedFrom') },
  { key: 'updatedTo', label: () => t('collections.updatedTo') },
];

export function CollectionFilters({ search, update }: Props) {
  useT();
  return (
    <div role="search" aria-label={t('collections.filterRegion')}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DebouncedInput label={t('collections.search')} placeholder={t('collections.searchPlaceholder')} value={search.q} onChange={(q) => update({ q })} />
        {DAYS.map(({ key, label }) => (
          <TextInput key={key} label={label()} type="date" value={search[key] ?? ''} onChange={(event) => update({ [key]: event.currentTarget.value || undefined })} />
        ))}
        {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
        <Button variant="default" onClick={() => update(CLEAR_COLLECTION_FILTERS)} style={{ visibility: isCollectionFiltered(search) ? undefined : 'hidden' }}>
          {t('lists.clearFilters')}
        </Button>
      </Group>
    </div>
  );
}
