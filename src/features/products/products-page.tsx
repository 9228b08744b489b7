/**
 * `/w/:workspaceId/products` (issue 6): the server-paginated products table with its filters, all state in the
 * URL (page, size, facets); the previous page stays on screen while the next loads, and the next page is
 * prefetched. "New product" and a product's title (or row) open the upsert drawer (lazy); "Import CSV" opens the
 * import. Writing needs `products:read-write`: without it the button is disabled and says why, and titles are
 * plain text. No sorting: `GET /products` takes no `$orderBy` (decisions.md section 6).
 */
import { Button } from '@mantine/core';
import { Suspense, lazy, useMemo, useState } from 'react';
import type { Product } from '@/api/catalog';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { PagedList } from '@/components/paged-list';
import { useWorkspaceApi } from '@/lib/api';
import { useListSearch } from '@/lib/list-search';
import { usePagedQuery } from '@/lib/paged-query';
import { allows } from '@/lib/permissions';
import { ImportProductsButton } from './import/import-products-button';
import { productColumns } from './product-columns';
import { ProductFilters } from './product-filters';
import { CLEAR_PRODUCT_FILTERS, isProductFiltered, productFilter, productSearchSchema } from './product-search';
import { type ProductListParams, productQueries } from './queries';

const ProductDrawer = lazy(() => import('./product-drawer').then((m) => ({ default: m.ProductDrawer })));

export function ProductsPage() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const [search, update] = useListSearch(productSearchSchema);
  const filter = useMemo(() => productFilter(search), [search]);
  const params = useMemo(() => ({ offset: (search.page - 1) * search.size, limit: search.size, filter }), [search.page, search.size, filter]);
  const list = usePagedQuery((page: ProductListParams) => productQueries.list(api, workspaceId, page), params, (page) => update({ page }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  /** The drawer: `{ product: null }` creates, `{ product }` edits. */
  const [editing, setEditing] = useState<{ product: Product | null } | null>(null);
  const edit = canWrite ? (product: Product) => setEditing({ product }) : undefined;
  const columns = useMemo(() => productColumns(canWrite ? (product) => setEditing({ product }) : undefined), [canWrite]);
  // A new product starts in the currency the workspace's products use.
  const usualCurrency = list.data?.items.find((product) => product.currency)?.currency ?? undefined;

  return (
    <>
      <PagedList
        title="Products"
        noun="product"
        actions={
          <>
            <DeferredTooltip position="bottom" label="Needs products:read-write" disabled={canWrite}>
              <Button onClick={() => setEditing({ product: null })} disabled={!canWrite} data-disabled={!canWrite || undefined}>
                New product
              </Button>
            </DeferredTooltip>
            <ImportProductsButton />
          </>
        }
        filters={<ProductFilters search={search} update={update} />}
        list={list}
        columns={columns}
        getRowId={(product) => product.id}
        onRowClick={edit}
        page={search.page}
        size={search.size}
        filtered={isProductFiltered(search)}
        onClearFilters={() => update(CLEAR_PRODUCT_FILTERS)}
        onPageChange={(page) => update({ page })}
        onSizeChange={(size) => update({ size })}
      />
      <Suspense fallback={null}>
        {editing ? <ProductDrawer product={editing.product} defaultCurrency={usualCurrency} onClose={() => setEditing(null)} /> : null}
      </Suspense>
    </>
  );
}
