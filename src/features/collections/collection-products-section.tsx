/**
 * A collection's products in its drawer (issue 34 point 10: "a collection cannot list or add its products"), as a
 * section of its own (the drawer's `aside`, so a read-only key can still page through it).
 *
 * - The list: `GET /products?$filter=collectionIds eq '<id>'`, ten a page, server-paged with Previous and Next and
 *   the count the service answers (`meta.maxResults`), and a link to the products list filtered by the collection
 *   (`/w/<workspace>/products?collection=<id>`), where every product of it can be filtered further.
 * - A key with products:read-write (`canWrite`) adds a product (a search by title among the products not in the
 *   collection, asked for when the field opens) and removes one (a button on its row). Both go through the product's
 *   upsert with its whole `collectionIds` (mutations.ts `useCollectionMembership`; docs/decisions.md section 7), and every
 *   products query of the workspace refreshes, this list, the products page and a product's drawer included.
 *   A read-only key sees the list and a line saying why it cannot change it.
 *
 * Texts (issue 23): the `collections` catalog area (loaded with the page), `shell` for the shared loading word and range.
 */
import { Anchor, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Collection, Product } from '@/api/catalog';
import { ErrorMessage } from '@/components/error-message';
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { COLLECTION_PRODUCTS_PAGE, lastPageOffset, productsListSearch } from './collection-products';
import { useCollectionMembership } from './mutations';
import { collectionQueries } from './queries';

/** A product's name as the section shows it: its title, else its handle, else its id. */
function productName(product: Pick<Product, 'id' | 'title' | 'handle'>): string {
  return product.title || product.handle || product.id;
}

export function CollectionProducts({ collection, canWrite }: { collection: Collection; canWrite: boolean }) {
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  const headingId = useId();
  const [offset, setOffset] = useState(0);
  const page = useQuery(collectionQueries.products(api, workspaceId, collection.id, offset));
  const membership = useCollectionMembership();
  const total = page.data?.meta.maxResults;

  // A removal that empties the last page shows the page before it.
  useEffect(() => {
    if (total !== undefined && !page.isPlaceholderData) {
      const fitting = lastPageOffset(offset, COLLECTION_PRODUCTS_PAGE, total);
      if (fitting !== offset) setOffset(fitting);
    }
  }, [total, offset, page.isPlaceholderData]);

  const change = (product: Pick<Product, 'id' | 'title' | 'handle'>, add: boolean) =>
    membership.mutate(
      { productId: product.id, collectionId: collection.id, add },
      {
        onSuccess: (result) => {
          const title = result.title || productName(product);
          if (result.gone) notifications.show({ color: 'yellow', message: t('collections.productGone') });
          else notifications.show({ color: 'green', message: add ? t('collections.productAdded', { title }) : t('collections.productRemoved', { title }) });
        },
      },
    );

  const items = page.data?.items ?? [];
  const first = total ? offset + 1 : 0;
  const last = Math.min(offset + items.length, total ?? 0);

  return (
    <section aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          {t('collections.productsHeading')}
        </Title>
        {page.isPending ? (
          <Text size="sm" c="dimmed">
            {t('shell.loadingEllipsis')}
          </Text>
        ) : page.isError ? (
          <ErrorMessage error={page.error} />
        ) : (
          <>
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm">{t('collections.productsCount', { count: total ?? 0 })}</Text>
              {total ? (
                <Anchor component={Link} size="sm" to={{ pathname: `/w/${workspaceId}/products`, search: productsListSearch(collection.id) }}>
                  {t('collections.productsShowAll')}
                </Anchor>
              ) : null}
            </Group>
            {items.length ? (
              <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('collections.productsHeading')} aria-busy={page.isFetching || undefined}>
                {items.map((product) => (
                  <Group component="li" key={product.id} justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {productName(product)}
                    </Text>
                    {canWrite ? (
                      <Button
                        size="compact-xs"
                        variant="default"
                        disabled={membership.isPending}
                        loading={membership.isPending && membership.variables?.productId === product.id}
                        onClick={() => change(product, false)}
                        aria-label={t('collections.removeProductLabel', { title: productName(product) })}
                      >
                        {t('collections.removeProduct')}
                      </Button>
                    ) : null}
                  </Group>
                ))}
              </Stack>
            ) : null}
            {total !== undefined && total > COLLECTION_PRODUCTS_PAGE ? (
              <Group gap="xs" justify="flex-end">
                <Text size="xs" c="dimmed">
                  {t('lists.range', { first: formatNumber(first), last: formatNumber(last), total: formatNumber(total) })}
                </Text>
                <Button size="compact-xs" variant="default" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - COLLECTION_PRODUCTS_PAGE))}>
                  {t('collections.productsPrevious')}
                </Button>
                <Button size="compact-xs" variant="default" disabled={offset + COLLECTION_PRODUCTS_PAGE >= total} onClick={() => setOffset(offset + COLLECTION_PRODUCTS_PAGE)}>
                  {t('collections.productsNext')}
                </Button>
              </Group>
            ) : null}
          </>
        )}
        {canWrite ? (
          <AddProduct collectionId={collection.id} busy={membership.isPending} onPick={(product) => change(product, true)} />
        ) : (
          <Text size="xs" c="dimmed">
            {t('collections.productsReadOnly')}
          </Text>
        )}
        {membership.isError ? <ErrorMessage error={membership.error} /> : null}
      </Stack>
    </section>
  );
}

/**
 * The "Add a product" field: a search by title among the products not in the collection (at most PRODUCT_CHOICES at
 * once, asked for once the field opens and again as the person types, debounced); picking one adds it.
 */
function AddProduct({ collectionId, busy, onPick }: { collectionId: string; busy: boolean; onPick: (product: Product) => void }) {
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [words] = useDebouncedValue(search, 250);
  const choices = useQuery({ ...collectionQueries.productChoices(api, workspaceId, collectionId, words), enabled: opened, placeholderData: keepPreviousData });
  const products = useMemo(() => choices.data ?? [], [choices.data]);
  const data = useMemo(() => {
    const counts = new Map<string, number>();
    for (const product of products) counts.set(productName(product), (counts.get(productName(product)) ?? 0) + 1);
    return products.map((product) => {
      const name = productName(product);
      return { value: product.id, label: (counts.get(name) ?? 0) > 1 && product.handle ? `${name} (${product.handle})` : name };
    });
  }, [products]);

  return (
    <Select
      label={t('collections.addProduct')}
      placeholder={t('collections.addProductPlaceholder')}
      data={data}
      value={null}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The service has filtered by title already (`like`, any case); the words typed may be anywhere in it.
      filter={({ options }) => options}
      onChange={(id) => {
        const product = products.find((candidate) => candidate.id === id);
        if (!product) return;
        setSearch('');
        onPick(product);
      }}
      onDropdownOpen={() => setOpened(true)}
      nothingFoundMessage={choices.isFetching || search !== words ? t('shell.loadingEllipsis') : t('collections.addProductNone')}
      disabled={busy}
      maw={420}
      // The field sits just above the drawer's sticky footer: the list opens upwards, where there is room (below, it was
      // pushed about and hidden on a 360 px phone).
      comboboxProps={{ position: 'top-start', middlewares: { flip: false, shift: true } }}
    />
  );
}
