/**
 * The product upsert form's model (issue 6), framework-free so it is unit-tested:
 * - `productFormValues`: every field's starting value, from the listed product on an edit (the form starts from
 *   the row), else blanks (status `active`, for sale, the workspace's usual currency);
 * - `productFormSchema`: each field checked by the contract's own field schema (`productUpsertSchema`, src/api/
 *   catalog.ts), so a negative price or a bad URL is refused before any request, in the service's wording;
 * - `toProductUpsert`: the `POST /products` body, with the product's `id` on an edit (docs/decisions.md section 7).
 * The form's own message (a missing title) is read from the `products` catalog when the schema is made (issue 23).
 */
import * as z from 'zod/mini';
import { PRODUCT_STATUSES, type Product, type ProductStatus, type ProductUpsert, productUpsertSchema } from '@/api/catalog';
import { type CatalogFormValues, catalogFormFields, catalogFormValues, catalogUpsertBase } from '@/lib/catalog-form';
import { t } from '@/i18n/i18n';
import { formatDecimal } from '@/lib/decimal';
import { listField, optionalAmount, optionalText } from '@/lib/form-fields';

const wire = productUpsertSchema.shape;

/** What the form's inputs hold. */
export type ProductFormValues = CatalogFormValues & {
  type: string;
  status: ProductStatus;
  vendor: string;
  url: string;
  imageUrl: string;
  /** Amounts as typed, in the reader's locale (`12.50`, `12,50`). */
  price: string;
  originalPrice: string;
  currency: string;
  isForSale: boolean;
  tags: string[];
  collectionIds: string[];
  externalCollectionIds: string[];
};

/** The form fields a server message can land on (`applyServerErrors`). */
export const PRODUCT_FORM_FIELDS = [
  'title', 'handle', 'bodyHtml', 'type', 'status', 'vendor', 'source', 'url', 'imageUrl', 'price', 'originalPrice', 'currency',
  'isForSale', 'tags', 'collectionIds', 'externalId', 'externalCollectionIds', 'customProperties',
] as const satisfies readonly (keyof ProductFormValues)[];

const isStatus = (status: string | null | undefined): status is ProductStatus => (PRODUCT_STATUSES as readonly (string | null | undefined)[]).includes(status);
/** An amount as its input shows it, in the reader's locale (`12,5` in nb-NO). */
const amountText = (amount: number | null | undefined) => (amount === null || amount === undefined ? '' : formatDecimal(amount));

/**
 * Starting values: the product's own on an edit; on a create blanks, status `active`, for sale, and
 * `defaults.currency` (the page passes the currency its products use). `externalCollectionIds` always starts empty:
 * listed products name their collections by id, which `collectionIds` holds.
 */
export function productFormValues(product: Product | null | undefined, defaults: { currency?: string } = {}): ProductFormValues {
  return {
    ...catalogFormValues(product),
    type: product?.type ?? '',
    status: isStatus(product?.status) ? product.status : 'active',
    vendor: product?.vendor ?? '',
    url: product?.url ?? '',
    imageUrl: product?.imageUrl ?? '',
    price: amountText(product?.price),
    originalPrice: amountText(product?.originalPrice),
    currency: product ? (product.currency ?? '') : (defaults.currency ?? ''),
    isForSale: product ? (product.isForSale ?? false) : true,
    tags: product?.tags ?? [],
    collectionIds: product?.collections.map((collection) => collection.id) ?? [],
    externalCollectionIds: [],
  };
}

/**
 * The form schema for a create (`product` absent) or an edit of `product`: the contract's field checks, free text
 * cleared with `''`, and a URL, price, currency, handle or external id the product had refused when emptied
 * (an upsert keeps what it is not sent; see src/lib/form-fields.ts).
 */
export function productFormSchema(product?: Product | null) {
  return z.object({
    ...catalogFormFields(wire, product, t('products.needsTitle')),
    type: optionalText(wire.type.def.innerType, { was: product?.type, clearable: true }),
    status: wire.status.def.innerType,
    vendor: optionalText(wire.vendor.def.innerType, { was: product?.vendor, clearable: true }),
    url: optionalText(wire.url.def.innerType, { was: product?.url }),
    imageUrl: optionalText(wire.imageUrl.def.innerType, { was: product?.imageUrl }),
    price: optionalAmount(wire.price.def.innerType, { was: product?.price }),
    originalPrice: optionalAmount(wire.originalPrice.def.innerType, { was: product?.originalPrice }),
    currency: optionalText(wire.currency.def.innerType, { was: product?.currency }),
    isForSale: z.boolean(),
    tags: listField(wire.tags.def.innerType),
    collectionIds: listField(wire.collectionIds.def.innerType),
    externalCollectionIds: listField(wire.externalCollectionIds.def.innerType),
  });
}
export type ProductFormOutput = z.output<ReturnType<typeof productFormSchema>>;

/**
 * The `POST /products` body for checked form values: every field (lists replace the product's whole, so they are
 * always sent), the product's `id` on an edit, `externalCollectionIds` only when some are given (with
 * `collectionIds` they set the collections together), and the handle as `catalogUpsertBase` decides.
 */
export function toProductUpsert(values: ProductFormOutput, product?: Product | null): ProductUpsert {
  const { externalCollectionIds, ...rest } = catalogUpsertBase(values, product);
  return { ...rest, externalCollectionIds: externalCollectionIds.length ? externalCollectionIds : undefined };
}
