/**
 * The products filter bar (issue 6): title search, status, type, vendor, a price range (typed and shown in the
 * reader's locale, issue 14 point 6), one collection (picked by title from every collection of the workspace) and
 * tags (any of). Each change updates the URL, which is the list's state; typing is debounced.
 */
import { Button, Group, NativeSelect, Select } from '@mantine/core';
import { TagsField } from '@/components/tags-field';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PRODUCT_STATUSES } from '@/api/catalog';
import { DebouncedInput } from '@/components/debounced-input';
import { useWorkspaceApi } from '@/lib/api';
import { formatDecimal, parseDecimal } from '@/lib/decimal';
import { CLEAR_PRODUCT_FILTERS, type ProductSearch, isProductFiltered } from './product-search';
import { productQueries } from './queries';

type Props = { search: ProductSearch; update: (patch: Partial<ProductSearch>) => void };

/** An amount typed in a filter in the reader's locale (`12,5` in nb-NO): a number >= 0, or undefined for blank or anything else. */
function amountOf(text: string): number | undefined {
  const amount = parseDecimal(text);
  return amount !== null && amount >= 0 ? amount : undefined;
}

export function ProductFilters({ search, update }: Props) {
  const { api, workspaceId } = useWorkspaceApi();
  // Asked for when the person opens the collection field, or when the URL names one (issue 19: a page is one request).
  const [opened, setOpened] = useState(false);
  const collections = useQuery({ ...productQueries.collectionChoices(api, workspaceId), enabled: opened || Boolean(search.collection) });
  const choices = collections.data ?? [];
  // A collection chosen in the URL that the choices do not hold (yet) still shows, by its id.
  const data = search.collection && !choices.some((choice) => choice.value === search.collection) ? [...choices, { value: search.collection, label: search.collection }] : choices;

  return (
    <div role="search" aria-label="Filter products">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DebouncedInput label="Search" placeholder="Title" value={search.q} onChange={(q) => update({ q })} />
        <NativeSelect
          label="Status"
          data={[{ value: '', label: 'Any' }, ...PRODUCT_STATUSES.map((status) => ({ value: status, label: status[0]!.toUpperCase() + status.slice(1) }))]}
          value={search.status ?? ''}
          onChange={(event) => update({ status: (event.currentTarget.value || undefined) as ProductSearch['status'] })}
          w={130}
        />
        <DebouncedInput label="Type" value={search.type} onChange={(type) => update({ type })} width={140} />
        <DebouncedInput label="Vendor" value={search.vendor} onChange={(vendor) => update({ vendor })} width={140} />
        <DebouncedInput label="Price from" inputMode="decimal" value={search.min === undefined ? '' : formatDecimal(search.min)} onChange={(text) => update({ min: amountOf(text) })} width={110} />
        <DebouncedInput label="Price to" inputMode="decimal" value={search.max === undefined ? '' : formatDecimal(search.max)} onChange={(text) => update({ max: amountOf(text) })} width={110} />
        <Select
          label="Collection"
          placeholder="Any"
          data={data}
          value={search.collection ?? null}
          onChange={(collection) => update({ collection: collection ?? undefined })}
          searchable
          clearable
          nothingFoundMessage={collections.isFetching ? 'Loading…' : 'No such collection'}
          onDropdownOpen={() => setOpened(true)}
          w={200}
        />
        <TagsField label="Tags" placeholder={search.tags.length ? undefined : 'Any'} value={search.tags} onChange={(tags) => update({ tags })} clearable miw={180} maw={320} />
        {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
        <Button variant="default" onClick={() => update(CLEAR_PRODUCT_FILTERS)} style={{ visibility: isProductFiltered(search) ? undefined : 'hidden' }}>
          Clear filters
        </Button>
      </Group>
    </div>
  );
}
