/**
 * The products filter bar (issue 6): title search, status, type, vendor, a price range (typed and shown in the
 * reader's locale, issue 14 point 6), one collection (picked by title from every collection of the workspace) and
 * tags (any of). Each change updates the URL, which is the list's state; typing is debounced. Texts (issue 23): the
 * `products` catalog area.
 */
import { Button, Group, NativeSelect, Select } from '@mantine/core';
import { TagsField } from '@/components/tags-field';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PRODUCT_STATUSES } from '@/api/catalog';
import { DebouncedInput } from '@/components/debounced-input';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
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
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  // Asked for when the person opens the collection field, or when the URL names one (issue 19: a page is one request).
  const [opened, setOpened] = useState(false);
  const collections = useQuery({ ...productQueries.collectionChoices(api, workspaceId), enabled: opened || Boolean(search.collection) });
  const choices = collections.data ?? [];
  // A collection chosen in the URL that the choices do not hold (yet) still shows, by its id.
  const data = search.collection && !choices.some((choice) => choice.value === search.collection) ? [...choices, { value: search.collection, label: search.collection }] : choices;

  return (
    <div role="search" aria-label={t('products.filterRegion')}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DebouncedInput label={t('products.search')} placeholder={t('products.searchPlaceholder')} value={search.q} onChange={(q) => update({ q })} />
        <NativeSelect
          label={t('products.status')}
          data={[{ value: '', label: t('products.any') }, ...PRODUCT_STATUSES.map((status) => ({ value: status, label: t('products.statusLabel', { status }) }))]}
          value={search.status ?? ''}
          onChange={(event) => update({ status: (event.currentTarget.value || undefined) as ProductSearch['status'] })}
          w={130}
        />
        <DebouncedInput label={t('products.type')} value={search.type} onChange={(type) => update({ type })} width={140} />
        <DebouncedInput label={t('products.vendor')} value={search.vendor} onChange={(vendor) => update({ vendor })} width={140} />
        <DebouncedInput label={t('products.priceFrom')} inputMode="decimal" value={search.min === undefined ? '' : formatDecimal(search.min)} onChange={(text) => update({ min: amountOf(text) })} width={110} />
        <DebouncedInput label={t('products.priceTo')} inputMode="decimal" value={search.max === undefined ? '' : formatDecimal(search.max)} onChange={(text) => update({ max: amountOf(text) })} width={110} />
        <Select
          label={t('products.collection')}
          placeholder={t('products.any')}
          data={data}
          value={search.collection ?? null}
          onChange={(collection) => update({ collection: collection ?? undefined })}
          searchable
          clearable
          nothingFoundMessage={collections.isFetching ? t('shell.loadingEllipsis') : t('products.noSuchCollection')}
          onDropdownOpen={() => setOpened(true)}
          w={200}
        />
        <TagsField label={t('products.tags')} placeholder={search.tags.length ? undefined : t('products.any')} value={search.tags} onChange={(tags) => update({ tags })} clearable miw={180} maw={320} />
        {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
        <Button variant="default" onClick={() => update(CLEAR_PRODUCT_FILTERS)} style={{ visibility: isProductFiltered(search) ? undefined : 'hidden' }}>
          {t('lists.clearFilters')}
        </Button>
      </Group>
    </div>
  );
}
