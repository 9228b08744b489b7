/**
 * `/w/:workspaceId/products` (issue 6): the catalog's list page (src/components/catalog-list-page.tsx) over the
 * products, with their filters, all state in the URL (page, size, facets). "New product" (in the currency the
 * workspace's products use) and a product's row open the upsert drawer (lazy), at
 * `/w/:workspaceId/products/:productId` for a product (issue 14); "Import CSV" opens the import. No sorting:
 * `GET /products` takes no `$orderBy` (docs/decisions.md section 6).
 * Texts (issue 23): the `products` catalog area, loaded with the page (src/app/sections.ts).
 */
import { lazy, useMemo } from 'react';
import { CatalogListPage } from '@/components/catalog-list-page';
import { useT } from '@/i18n/react';
import { useListSearch } from '@/lib/list-search';
import { ImportProductsButton } from './import/import-products-button';
import { useProductColumns } from './product-columns';
import { ProductFilters } from './product-filters';
import { CLEAR_PRODUCT_FILTERS, isProductFiltered, productFilter, productSearchSchema } from './product-search';
import { productQueries } from './queries';

const ProductDrawer = lazy(() => import('./product-drawer').then((m) => ({ default: m.ProductDrawer })));

/** What a phone shows of each row (issue 23 point 6): the picture, the title and the price. */
const PHONE_COLUMNS = ['image', 'title', 'price'];

export function ProductsPage() {
  const t = useT();
  const columns = useProductColumns();
  const [search, update] = useListSearch(productSearchSchema);
  const filter = useMemo(() => productFilter(search), [search]);
  return (
    <CatalogListPage
      resource="products"
      noun="product"
      texts={{
        title: t('products.title'),
        new: t('products.new'),
        count: (count, matching) => t(matching ? 'products.countMatching' : 'products.count', { count }),
        noMatch: t('products.noMatch'),
        none: t('products.none'),
      }}
      columns={columns}
      phoneColumns={PHONE_COLUMNS}
      page={search.page}
      size={search.size}
      filter={filter}
      filtered={isProductFiltered(search)}
      onClearFilters={() => update(CLEAR_PRODUCT_FILTERS)}
      onPage={update}
      filters={<ProductFilters search={search} update={update} />}
      actions={<ImportProductsButton />}
      queries={productQueries}
      remove={(api, id) => api.deleteProduct(id)}
      drawer={({ record, readOnly, onClose, rows }) =>
        record ? (
          <ProductDrawer key={record.id} product={record} readOnly={readOnly} onClose={onClose} />
        ) : (
          // A new product starts in the currency the workspace's products use.
          <ProductDrawer product={null} defaultCurrency={rows?.find((product) => product.currency)?.currency ?? undefined} onClose={onClose} />
        )
      }
    />
  );
}
