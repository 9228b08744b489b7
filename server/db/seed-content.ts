/**
 * Demo catalog and posts for one workspace (issue 3): 8 collections, 60 products priced in the workspace's
 * currency with images, vendors, statuses, tags and collections; 40 published posts over the last months with
 * claps and images; 3 scheduled posts and 2 suggested ones. Images are the small SVGs shipped in
 * `public/demo/`, served by the service itself, so the demo works offline. Deterministic under faker's seed.
 */
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker';
import type { Kysely } from 'kysely';
import { CatalogStore } from './catalog';
import type { Dialect } from './connection';
import type { Database } from './schema';

const PRODUCT_IMAGES = ['jacket', 'boots', 'mug', 'book', 'tent', 'beans', 'backpack', 'lamp'];
const POST_IMAGES = ['sunrise', 'forest', 'ocean', 'city', 'harvest', 'night'];
const COLLECTIONS = ['New Arrivals', 'Best Sellers', 'Gifts', 'Sale', 'Essentials', 'Limited Edition', 'Seasonal', 'Staff Picks'];
const PRODUCT_TYPES = ['apparel', 'footwear', 'kitchen', 'books', 'camping', 'coffee', 'bags', 'home'];
const PRODUCT_TAGS = ['bestseller', 'eco', 'new', 'gift', 'limited', 'sale', 'handmade', 'local'];
/** Price ranges in major units per currency, so prices look right in NOK as in EUR. */
const PRICE_RANGE: Record<string, [number, number]> = { NOK: [99, 4999], EUR: [5, 450], USD: [5, 450] };
const DAY = 24 * 3600 * 1000;

/** Seeds the catalog and posts of one workspace; `base` is the public origin of the shipped images. */
export async function seedWorkspaceContent(db: Kysely<Database>, dialect: Dialect, workspace: { id: string; currency: string }, base: string): Promise<void> {
  const image = (path: string) => `${base.replace(/\/$/, '')}/demo/${path}.svg`;
  const catalog = new CatalogStore(db, dialect);
  const collectionIds: string[] = [];
  for (const [index, title] of COLLECTIONS.entries()) {
    const { id } = await catalog.upsertCollection(workspace.id, {
      title,
      externalId: `col-${index + 1}`,
      bodyHtml: `<p>${faker.commerce.productDescription()}</p>`,
      source: 'demo',
    });
    collectionIds.push(id);
  }
  const [low, high] = PRICE_RANGE[workspace.currency] ?? [5, 450];
  for (let index = 0; index < 60; index++) {
    const price = Math.round(faker.number.float({ min: low, max: high }) * 100) / 100;
    const onSale = faker.number.float() < 0.25;
    const kind = index % PRODUCT_IMAGES.length;
    await catalog.upsertProduct(workspace.id, {
      externalId: `sku-${String(index + 1).padStart(4, '0')}`,
      title: faker.commerce.productName(),
      bodyHtml: `<p>${faker.commerce.productDescription()}</p><ul><li>${faker.commerce.productMaterial()}</li></ul>`,
      type: PRODUCT_TYPES[kind],
      status: faker.helpers.weightedArrayElement([{ value: 'active' as const, weight: 8 }, { value: 'draft' as const, weight: 1 }, { value: 'archived' as const, weight: 1 }]),
      vendor: faker.company.name(),
      source: 'demo',
      url: `https://shop.example.com/products/${index + 1}`,
      imageUrl: image(`products/${PRODUCT_IMAGES[kind]}`),
      price,
      originalPrice: onSale ? Math.round(price * 1.25 * 100) / 100 : undefined,
      currency: workspace.currency,
      isForSale: faker.number.float() < 0.9,
      tags: faker.helpers.arrayElements(PRODUCT_TAGS, { min: 0, max: 3 }),
      collectionIds: faker.helpers.arrayElements(collectionIds, { min: 1, max: 2 }),
      customProperties: { material: faker.commerce.productMaterial(), weightGrams: faker.number.int({ min: 100, max: 3000 }) },
    });
  }

  const now = Date.now();
  const post = (state: string, publishedDate: string | null, created: string) => {
    const withImage = faker.number.float() < 0.8;
    const hasCta = faker.number.float() < 0.4;
    return {
      id: randomUUID(),
      workspace_id: workspace.id,
      state,
      header: faker.company.catchPhrase(),
      text: faker.helpers.multiple(() => faker.hacker.phrase(), { count: { min: 1, max: 4 } }).join(' '),
      image_url: withImage ? image(`posts/${faker.helpers.arrayElement(POST_IMAGES)}`) : null,
      media_image_urls: JSON.stringify(faker.number.float() < 0.2 ? [image(`posts/${faker.helpers.arrayElement(POST_IMAGES)}`)] : []),
      cta_link: hasCta ? JSON.stringify({ url: 'https://shop.example.com/', title: 'Visit the shop', description: faker.commerce.productDescription() }) : null,
      button: hasCta ? JSON.stringify({ text: 'Shop now', url: 'https://shop.example.com/' }) : null,
      author: JSON.stringify({ name: faker.person.fullName() }),
      recipients: null,
      is_private: 0,
      notification_settings: null,
      published_date: publishedDate,
      claps: state === 'published' ? faker.number.int({ min: 0, max: 250 }) : 0,
      created,
      updated: created,
    };
  };
  const rows = [];
  for (let index = 0; index < 40; index++) {
    const at = new Date(now - faker.number.int({ min: 1, max: 150 }) * DAY - faker.number.int({ min: 0, max: DAY })).toISOString();
    rows.push(post('published', at, at));
  }
  for (const days of [1, 3, 7]) rows.push(post('scheduled', new Date(now + days * DAY).toISOString(), new Date(now).toISOString()));
  for (let index = 0; index < 2; index++) rows.push(post('suggested', null, new Date(now).toISOString()));
  await db.insertInto('posts').values(rows).execute();
}
