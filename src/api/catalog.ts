/**
 * Products and collections (endpoints 7 to 10): upsert bodies, listed items and list queries, with the checks of
 * decisions.md section 7. Upserts answer `{ id }`: 201 when created, 200 when updated (section 2).
 */
import * as z from 'zod';
import { DEFAULT_PAGE_CAPS, httpUrl, isoTime, listEnvelope, listQuery, tagListSchema } from './common';
import { NUMBER_RANGES } from './filter/fields';

/** Product statuses; `active` is the default on create (decisions.md section 7). */
export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A lower-case slug: `summer-jacket-2`. */
export const handleSchema = z
  .string()
  .max(255)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be a lower-case slug of letters, digits and single dashes' });

/** An ISO 4217 currency code: three upper-case letters. */
export const currencySchema = z.string().regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code of three upper-case letters' });

/** A finite amount in major units, 0 to 1e12: the `decimal` range `$filter` takes too (filter/fields.ts). */
export const moneySchema = z.number().min(NUMBER_RANGES.decimal.min).max(NUMBER_RANGES.decimal.max);

/** `customProperties`: at most 50 keys, at most 16 KiB as JSON. */
export const customPropertiesSchema = z
  .record(z.string().min(1).max(255), z.unknown())
  .refine((value) => Object.keys(value).length <= 50, { error: 'must have at most 50 keys' })
  .refine(
    (value) => {
      try {
        return JSON.stringify(value).length <= 16 * 1024;
      } catch {
        return false;
      }
    },
    { error: 'must be at most 16 KiB as JSON' },
  );

const id = z.string().min(1).max(200);
const text = (max = 1000) => z.string().max(max);
const idList = z.array(id).max(100).transform((ids) => [...new Set(ids)]);

/** `POST /products` body: every field optional; `title` is needed when the upsert creates. */
export const productUpsertSchema = z.strictObject({
  id: id.optional(),
  externalId: id.optional(),
  title: z.string().trim().min(1).max(255).optional(),
  handle: handleSchema.optional(),
  bodyHtml: text(100_000).optional(),
  type: text(255).optional(),
  status: z.enum(PRODUCT_STATUSES).optional(),
  vendor: text(255).optional(),
  source: text(255).optional(),
  url: httpUrl().optional(),
  imageUrl: httpUrl().optional(),
  price: moneySchema.optional(),
  originalPrice: moneySchema.optional(),
  currency: currencySchema.optional(),
  isForSale: z.boolean().optional(),
  tags: tagListSchema.optional(),
  collectionIds: idList.optional(),
  externalCollectionIds: idList.optional(),
  customProperties: customPropertiesSchema.optional(),
});
export type ProductUpsert = z.input<typeof productUpsertSchema>;
export type ProductUpsertParsed = z.output<typeof productUpsertSchema>;

/** `POST /products` and `POST /collections` response. */
export const upsertResponseSchema = z.looseObject({ id: z.string() });
export type UpsertResponse = z.infer<typeof upsertResponseSchema>;

/** An item of `GET /products`. `source` is listed too, so an edit form can start from the row. */
export const productSchema = z.looseObject({
  id: z.string(),
  externalId: z.string().nullable(),
  title: z.string().nullable(),
  handle: z.string().nullable(),
  bodyHtml: z.string().nullable(),
  type: z.string().nullable(),
  status: z.string().nullable(),
  vendor: z.string().nullable(),
  source: z.string().nullable().optional(),
  url: z.string().nullable(),
  imageUrl: z.string().nullable(),
  price: z.number().nullable(),
  originalPrice: z.number().nullable(),
  currency: z.string().nullable(),
  isForSale: z.boolean().nullable(),
  tags: z.array(z.string()),
  collections: z.array(z.looseObject({ id: z.string(), collectionTitle: z.string().nullable() })),
  customProperties: z.record(z.string(), z.unknown()).nullable(),
  created: isoTime.optional(),
  updated: isoTime.optional(),
});
export type Product = z.infer<typeof productSchema>;
export const productListSchema = listEnvelope(productSchema);
export const productListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: false });

/** `POST /collections` body: `title` always required (decisions.md section 7). */
export const collectionUpsertSchema = z.strictObject({
  title: z.string().trim().min(1).max(255),
  id: id.optional(),
  externalId: id.optional(),
  handle: handleSchema.optional(),
  bodyHtml: text(100_000).optional(),
  source: text(255).optional(),
  customProperties: customPropertiesSchema.optional(),
});
export type CollectionUpsert = z.input<typeof collectionUpsertSchema>;
export type CollectionUpsertParsed = z.output<typeof collectionUpsertSchema>;

/** An item of `GET /collections`. `source` and `customProperties` are listed too, for edit forms. */
export const collectionSchema = z.looseObject({
  id: z.string(),
  feedId: z.string(),
  externalId: z.string().nullable(),
  title: z.string().nullable(),
  handle: z.string().nullable(),
  bodyHtml: z.string().nullable(),
  source: z.string().nullable().optional(),
  customProperties: z.record(z.string(), z.unknown()).nullable().optional(),
  created: isoTime,
  updated: isoTime,
});
export type Collection = z.infer<typeof collectionSchema>;
export const collectionListSchema = listEnvelope(collectionSchema);
export const collectionListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: false });
