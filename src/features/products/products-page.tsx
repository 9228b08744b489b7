/**
 * `/w/:workspaceId/products` (issue 6): the server-paginated products table with its filters, all state in the
 * URL (page, size, facets); the previous page stays on screen while the next loads, and the next page is
 * prefetched. "New product" opens the upsert drawer (lazy); a product's title (a link) or row opens it at the
 * product's address, `/w/:workspaceId/products/:productId` over the list (issue 14, src/lib/record-route.ts);
 * "Import CSV" opens the import. Writing needs `products:read-write`: without it the button is disabled and says
 * why, and a product opens read-only. No sorting: `GET /products` takes no `$orderBy` (docs/decisions.md section 6).
 * Texts (issue 23): the `products` catalog area, loaded with the page (src/app/sections.ts).
 */
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { useT } from '@/i18n/react';
import { PagedList } from '@/components/paged-list';
import type { RecordDrawer as RecordDrawerType } from '@/components/record-drawer';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { useListSearch } from '@/lib/list-search';
import { usePagedQuery } from '@/lib/paged-query';
import { allows } from '@/lib/permissions';
import { useRecordRoute } from '@/lib/record-route';
import { ImportProductsButton } from './import/import-products-button';
import { useProductColumns } from './product-columns';
import { ProductFilters } from './product-filters';
import { CLEAR_PRODUCT_FILTERS, isProductFiltered, productFilter, productSearchSchema } from './product-search';
import { type ProductListParams, productQueries } from './queries';

const SavedViews = lazy(() => import('@/components/saved-views-row').then((m) => ({ default: m.SavedViews })));
const ProductDrawer = lazy(() => import('./product-drawer').then((m) => ({ default: m.ProductDrawer })));
// Loaded when a record opens; `lazy` loses the component's type parameters, which the cast restores.
const RecordDrawer = lazy(() => import('@/components/record-drawer').then((m) => ({ default: m.RecordDrawer }))) as unknown as typeof RecordDrawerType;
const DeleteSelectionBar = lazy(() => import('@/components/catalog-delete').then((m) => ({ default: m.DeleteSelectionBar })));

/** What a phone shows of each row (issue 23 point 6): the picture, the title and the price. */
const PHONE_COLUMNS = ['image', 'title', 'price'];

export function ProductsPage() {
  const t = useT();
  const columns = useProductColumns();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const [search, update] = useListSearch(productSearchSchema);
  const filter = useMemo(() => productFilter(search), [search]);
  const params = useMemo(() => ({ offset: (search.page - 1) * search.size, limit: search.size, filter }), [search.page, search.size, filter]);
  const list = usePagedQuery((page: ProductListParams) => productQueries.list(api, workspaceId, page), params, (page) => update({ page }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  const [creating, setCreating] = useState(false);
  const records = useRecordRoute('products');
  // A new product starts in the currency the workspace's products use.
  const usualCurrency = list.data?.items.find((product) => product.currency)?.currency ?? undefined;
  // Delete over a selection (issue 22 point 9), where the service has catalog-delete and the key may write.
  const queryClient = useQueryClient();
  const deletable = useExtensions().has('catalog-delete') && canWrite;
  const [selection, setSelection] = useState<RowSelectionState>({});
  useEffect(() => setSelection({}), [workspaceId, params]);
  const selectedIds = Object.keys(selection).filter((id) => selection[id]);

  return (
    <>
      <PagedList
        title={t('products.title')}
        texts={{
          count: (count, matching) => t(matching ? 'products.countMatching' : 'products.count', { count }),
          noMatch: t('products.noMatch'),
          none: t('products.none'),
        }}
        actions={
          <>
            <DeferredTooltip position="bottom" label={t('shell.needsScope', { scope: 'products:read-write' })} disabled={canWrite}>
              <Button onClick={() => setCreating(true)} disabled={!canWrite} data-disabled={!canWrite || undefined}>
                {t('products.new')}
              </Button>
            </DeferredTooltip>
            <ImportProductsButton />
          </>
        }
        filters={
          <>
            <Suspense fallback={null}>
              <SavedViews list="products" />
            </Suspense>
            <ProductFilters search={search} update={update} />
          </>
        }
        list={list}
        columns={columns}
        selection={deletable ? selection : undefined}
        onSelectionChange={deletable ? setSelection : undefined}
        rowLabel={(product) => product.title ?? product.id}
        selectionBar={
          deletable && selectedIds.length ? (
            <Suspense fallback={null}>
              <DeleteSelectionBar
                ids={selectedIds}
                kind="product"
                remove={(id) => api.deleteProduct(id)}
                onClear={() => setSelection({})}
                onDeleted={() => {
                  setSelection({});
                  void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId] });
                }}
              />
            </Suspense>
          ) : null
        }
        getRowId={(product) => product.id}
        onRowClick={(product) => records.open(product.id)}
        primaryColumns={PHONE_COLUMNS}
        rowLink={{ column: 'title', to: (product) => records.linkTo(product.id), state: records.state }}
        page={search.page}
        size={search.size}
        filtered={isProductFiltered(search)}
        onClearFilters={() => update(CLEAR_PRODUCT_FILTERS)}
        onPageChange={(page) => update({ page })}
        onSizeChange={(size) => update({ size })}
      />
      <Suspense fallback={null}>
        {creating ? <ProductDrawer product={null} defaultCurrency={usualCurrency} onClose={() => setCreating(false)} /> : null}
        {records.recordId ? (
          <RecordDrawer noun="product" id={records.recordId} rows={list.data?.items} lookup={(id) => productQueries.detail(api, workspaceId, id)} onClose={records.close}>
            {(product) => <ProductDrawer key={product.id} product={product} readOnly={!canWrite} onClose={records.close} />}
          </RecordDrawer>
        ) : null}
      </Suspense>
    </>
  );
}
