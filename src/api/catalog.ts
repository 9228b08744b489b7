/**
 * Products and collections (endpoints 7 to 10): upsert bodies, listed items and list queries, with the checks of
 * docs/decisions.md section 7. Upserts answer `{ id }`: 201 when created, 200 when updated (section 2).
 */
import * as z from 'zod/mini';
import { DEFAULT_PAGE_CAPS, httpUrl, isoTime, listEnvelope, listQuery, tagListSchema } from './common';
import { NUMBER_RANGES } from './filter/fields';

/** Product statuses; `active` is the default on create (docs/decisions.md section 7). */
export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A lower-case slug: `summer-jacket-2`. */
export const handleSchema = z
  .string()
  .check(z.maxLength(255), z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be a lower-case slug of letters, digits and single dashes' }));

/** An ISO 4217 currency code: three upper-case letters. */
export const currencySchema = z.string().check(z.regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code of three upper-case letters' }));

/** A finite amount in major units, 0 to 1e12: the `decimal` range `$filter` takes too (filter/fields.ts). */
export const moneySchema = z.number().check(z.gte(NUMBER_RANGES.decimal.min), z.lte(NUMBER_RANGES.decimal.max));

/** `customProperties`: at most 50 keys, at most 16 KiB as JSON. */
export const customPropertiesSchema = z.record(z.string().check(z.minLength(1), z.maxLength(255)), z.unknown()).check(
  z.refine((value) => Object.keys(value).length <= 50, { error: 'must have at most 50 keys' }),
  z.refine(
    (value) => {
      try {
        return JSON.stringify(value).length <= 16 * 1024;
      } catch {
        return false;
      }
    },
    { error: 'must be at most 16 KiB as JSON' },
  ),
);

const id = z.string().check(z.minLength(1), z.maxLength(200));
const text = (max = 1000) => z.string().check(z.maxLength(max));
const idList = z.pipe(
  z.array(id).check(z.maxLength(100)),
  z.transform((ids: string[]) => [...new Set(ids)]),
);

/** `POST /products` body: every field optional; `title` is needed when the upsert creates. */
export const productUpsertSchema = z.strictObject({
  id: z.optional(id),
  externalId: z.optional(id),
  title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))),
  handle: z.optional(handleSchema),
  bodyHtml: z.optional(text(100_000)),
  type: z.optional(text(255)),
  status: z.optional(z.enum(PRODUCT_STATUSES)),
  vendor: z.optional(text(255)),
  source: z.optional(text(255)),
  url: z.optional(httpUrl()),
  imageUrl: z.optional(httpUrl()),
  price: z.optional(moneySchema),
  originalPrice: z.optional(moneySchema),
  currency: z.optional(currencySchema),
  isForSale: z.optional(z.boolean()),
  tags: z.optional(tagListSchema),
  collectionIds: z.optional(idList),
  externalCollectionIds: z.optional(idList),
  customProperties: z.optional(customPropertiesSchema),
});
export type ProductUpsert = z.input<typeof productUpsertSchema>;
export type ProductUpsertParsed = z.output<typeof productUpsertSchema>;

/** `POST /products` and `POST /collections` response. */
export const upsertResponseSchema = z.looseObject({ id: z.string() });
export type UpsertResponse = z.infer<typeof upsertResponseSchema>;

/** An item of `GET /products`. `source` is listed too, so an edit form can start from the row. */
export const productSchema = z.looseObject({
  id: z.string(),
  externalId: z.nullable(z.string()),
  title: z.nullable(z.string()),
  handle: z.nullable(z.string()),
  bodyHtml: z.nullable(z.string()),
  type: z.nullable(z.string()),
  status: z.nullable(z.string()),
  vendor: z.nullable(z.string()),
  source: z.optional(z.nullable(z.string())),
  url: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  price: z.nullable(z.number()),
  originalPrice: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  isForSale: z.nullable(z.boolean()),
  tags: z.array(z.string()),
  collections: z.array(z.looseObject({ id: z.string(), collectionTitle: z.nullable(z.string()) })),
  customProperties: z.nullable(z.record(z.string(), z.unknown())),
  created: z.optional(isoTime),
  updated: z.optional(isoTime),
});
export type Product = z.infer<typeof productSchema>;
export const productListSchema = listEnvelope(productSchema);
export const productListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: false });

/** `POST /collections` body: `title` always required (docs/decisions.md section 7). */
export const collectionUpsertSchema = z.strictObject({
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  id: z.optional(id),
  externalId: z.optional(id),
  handle: z.optional(handleSchema),
  bodyHtml: z.optional(text(100_000)),
  source: z.optional(text(255)),
  customProperties: z.optional(customPropertiesSchema),
});
export type CollectionUpsert = z.input<typeof collectionUpsertSchema>;
export type CollectionUpsertParsed = z.output<typeof collectionUpsertSchema>;

/** An item of `GET /collections`. `source` and `customProperties` are listed too, for edit forms. */
export const collectionSchema = z.looseObject({
  id: z.string(),
  feedId: z.string(),
  externalId: z.nullable(z.string()),
  title: z.nullable(z.string()),
  handle: z.nullable(z.string()),
  bodyHtml: z.nullable(z.string()),
  source: z.optional(z.nullable(z.string())),
  customProperties: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  created: isoTime,
  updated: isoTime,
});
export type Collection = z.infer<typeof collectionSchema>;
export const collectionListSchema = listEnvelope(collectionSchema);
export const collectionListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: false });
