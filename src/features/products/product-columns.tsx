/**
 * The products table's columns (issue 6): thumbnail, title (the page makes it a link to the product's address),
 * price in its currency with a higher original price struck through, status, vendor, type, collections
 * by title, for sale, tags. `GET /products` takes no `$orderBy` (docs/decisions.md section 6), so no column sorts.
 * Texts (issue 23): the `products` catalog area; prices through Intl in the language shown (./money.ts).
 */
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { currentLocale, t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import type { Product } from '@/api/catalog';
import { CellChips, CellStatus, type DataTableFeatures } from '@/components/data-table';
import { formatMoney, isMarkedDown } from './money';
import classes from './products.module.css';

const column = createColumnHelper<DataTableFeatures, Product>();
const unsorted = { enableSorting: false } as const;

/** A small square image, or an empty square when the product has none (decorative: the title names the row). */
function Thumbnail({ url }: { url: string | null }) {
  if (!url || !/^https?:\/\//i.test(url)) return <span className={classes.thumb} aria-hidden="true" />;
  return <img className={classes.thumb} src={url} alt="" width={40} height={40} loading="lazy" onError={(event) => (event.currentTarget.style.visibility = 'hidden')} />;
}

/** The price in its currency; a higher original price follows, struck through and announced as the original price. */
export function PriceCell({ product }: { product: Pick<Product, 'price' | 'originalPrice' | 'currency'> }) {
  useT();
  const { price, originalPrice, currency } = product;
  if (price === null) return null;
  return (
    <span className={classes.price}>
      <span>{formatMoney(price, currency)}</span>
      {isMarkedDown(price, originalPrice) ? (
        <s className={classes.original}>
          <span className="visually-hidden">{t('products.originalPrice')} </span>
          {formatMoney(originalPrice, currency)}
        </s>
      ) : null}
    </span>
  );
}

/** The columns in the language shown (their headers are read when built); the title column's id is `title`. */
export function useProductColumns() {
  useT();
  const locale = currentLocale();
  return useMemo(buildColumns, [locale]);
}

function buildColumns() {
  return column.columns([
    column.accessor('imageUrl', { id: 'image', header: () => <span className="visually-hidden">{t('products.image')}</span>, ...unsorted, cell: (info) => <Thumbnail url={info.getValue()} /> }),
    column.accessor('title', {
      id: 'title',
      header: t('products.colTitle'),
      ...unsorted,
      cell: (info) => info.getValue() || t('products.untitled'),
    }),
    column.accessor('price', { id: 'price', header: t('products.price'), ...unsorted, cell: (info) => <PriceCell product={info.row.original} /> }),
    column.accessor('status', { id: 'status', header: t('products.status'), ...unsorted, cell: (info) => (info.getValue() ? <CellStatus value={t('products.statusValue', { status: info.getValue() })} positive={info.getValue() === 'active'} /> : '') }),
    column.accessor('vendor', { id: 'vendor', header: t('products.vendor'), ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('type', { id: 'type', header: t('products.type'), ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('collections', {
      id: 'collections',
      header: t('products.collections'),
      ...unsorted,
      cell: (info) => <CellChips values={info.getValue().map((collection) => collection.collectionTitle ?? collection.id)} />,
    }),
    column.accessor('isForSale', { id: 'isForSale', header: t('products.forSale'), ...unsorted, cell: (info) => (info.getValue() === null ? '' : info.getValue() ? t('products.yes') : t('products.no')) }),
    column.accessor('tags', { id: 'tags', header: t('products.tags'), ...unsorted, cell: (info) => <CellChips values={info.getValue()} /> }),
  ]);
}
