/**
 * The collections filter bar (issue 6): title search and created and updated ranges (native date inputs: whole
 * local days, no date-picker code). Each change updates the URL, which is the list's state; typing is debounced.
 */
import { Button, Group, TextInput } from '@mantine/core';
import { DebouncedInput } from '@/components/debounced-input';
import { CLEAR_COLLECTION_FILTERS, type CollectionSearch, isCollectionFiltered } from './collection-search';

type Props = { search: CollectionSearch; update: (patch: Partial<CollectionSearch>) => void };
type DayKey = 'createdFrom' | 'createdTo' | 'updatedFrom' | 'updatedTo';

const DAYS: { key: DayKey; label: string }[] = [
  { key: 'createdFrom', label: 'Created from' },
  { key: 'createdTo', label: 'Created to' },
  { key: 'updatedFrom', label: 'Updated from' },
  { key: 'updatedTo', label: 'Updated to' },
];

export function CollectionFilters({ search, update }: Props) {
  return (
    <div role="search" aria-label="Filter collections">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DebouncedInput label="Search" placeholder="Title" value={search.q} onChange={(q) => update({ q })} />
        {DAYS.map(({ key, label }) => (
          <TextInput key={key} label={label} type="date" value={search[key] ?? ''} onChange={(event) => update({ [key]: event.currentTarget.value || undefined })} />
        ))}
        {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
        <Button variant="default" onClick={() => update(CLEAR_COLLECTION_FILTERS)} style={{ visibility: isCollectionFiltered(search) ? undefined : 'hidden' }}>
          Clear filters
        </Button>
      </Group>
    </div>
  );
}
