/**
 * Demo catalog and posts for one workspace (issue 3): 8 collections, 60 products priced in the workspace's
 * currency with images, vendors, statuses, tags and collections; 40 published posts over the last months with
 * claps and images; 3 scheduled posts and 2 suggested ones. Images are the small SVGs shipped in
 * `public/demo/`, served by the service itself, so the demo works offline. Deterministic under faker's seed.
 *
 * Issue 34 point 10 ("the outdoor shop sells 'Frozen Concrete Chair'"): each shop sells what its trade sells, from
 * hand-written word lists (`TRADES`): the outdoor shop jackets, boots, tents and packs of its own lines ("Fjell Down
 * Jacket"), the coffee roaster single origins and blends by weight and brewing gear, the book club books and its
 * merchandise; with the trade's own collections, vendors, descriptions, materials and prices. Every combination of a
 * trade is listed, and 60 of them are taken in an order faker shuffles under its seed.
 */
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker';
import type { Kysely } from 'kysely';
import { CatalogStore } from './catalog';
import type { Dialect } from './connection';
import type { Database } from './schema';

const POST_IMAGES = ['sunrise', 'forest', 'ocean', 'city', 'harvest', 'night'];
const PRODUCT_TAGS = ['bestseller', 'eco', 'new', 'gift', 'limited', 'sale', 'handmade', 'local'];
const DAY = 24 * 3600 * 1000;

/** The trades of the demo's shops. */
export type Trade = 'outdoor' | 'coffee' | 'books';

/**
 * A product a trade sells: its title, its `type`, its image (one of the SVGs in `public/demo/products/`), its
 * material, and its price range in the shop's currency (major units).
 */
export type TradeProduct = { title: string; type: string; image: string; material: string; price: [number, number] };

/** What a trade's shop is made of: every product it may sell, its collections, vendors and sentences for descriptions. */
export type TradeSpec = { products: readonly TradeProduct[]; collections: readonly string[]; vendors: readonly string[]; sentences: readonly string[] };

/** Products of `lines` × `items`: "Fjell" and "Down Jacket" make "Fjell Down Jacket". */
function lineUp(lines: readonly string[], items: readonly (Omit<TradeProduct, 'title'> & { name: string })[]): TradeProduct[] {
  return lines.flatMap((line) => items.map(({ name, ...item }) => ({ ...item, title: `${line} ${name}` })));
}

/** The outdoor shop's product lines (Norwegian landscapes) and what each line makes, priced in NOK. */
const OUTDOOR_LINES = ['Fjell', 'Vidde', 'Fjord', 'Nordlys', 'Tind', 'Lofoten', 'Rondane', 'Polar'];
const OUTDOOR_ITEMS = [
  { name: 'Down Jacket', type: 'apparel', image: 'jacket', material: 'recycled down', price: [2499, 4999] },
  { name: 'Shell Jacket', type: 'apparel', image: 'jacket', material: 'three-layer membrane', price: [2999, 4999] },
  { name: 'Fleece Jacket', type: 'apparel', image: 'jacket', material: 'recycled polyester fleece', price: [899, 1499] },
  { name: 'Wool Sweater', type: 'apparel', image: 'jacket', material: 'Norwegian wool', price: [1199, 1999] },
  { name: 'Rain Trousers', type: 'apparel', image: 'jacket', material: 'two-layer membrane', price: [999, 1799] },
  { name: 'Insulated Vest', type: 'apparel', image: 'jacket', material: 'synthetic insulation', price: [999, 1699] },
  { name: 'Merino Base Layer', type: 'apparel', image: 'jacket', material: 'merino wool', price: [599, 999] },
  { name: 'Wool Mittens', type: 'apparel', image: 'jacket', material: 'boiled wool', price: [299, 549] },
  { name: 'Hiking Boots', type: 'footwear', image: 'boots', material: 'nubuck leather', price: [1999, 3499] },
  { name: 'Trail Runners', type: 'footwear', image: 'boots', material: 'mesh and rubber', price: [1299, 1999] },
  { name: 'Winter Boots', type: 'footwear', image: 'boots', material: 'leather and wool lining', price: [1799, 2999] },
  { name: 'Two-Person Tent', type: 'camping', image: 'tent', material: 'silnylon', price: [3499, 6999] },
  { name: 'Sleeping Bag', type: 'camping', image: 'tent', material: 'down', price: [1999, 4499] },
  { name: 'Sleeping Pad', type: 'camping', image: 'tent', material: 'ripstop nylon', price: [699, 1499] },
  { name: 'Camp Stove', type: 'camping', image: 'tent', material: 'aluminium', price: [499, 1299] },
  { name: 'Daypack 25 L', type: 'bags', image: 'backpack', material: 'recycled nylon', price: [899, 1499] },
  { name: 'Trekking Pack 60 L', type: 'bags', image: 'backpack', material: 'ripstop nylon', price: [2199, 3499] },
  { name: 'Dry Bag 20 L', type: 'bags', image: 'backpack', material: 'TPU-coated nylon', price: [249, 449] },
  { name: 'Enamel Mug', type: 'kitchen', image: 'mug', material: 'enamelled steel', price: [149, 249] },
  { name: 'Headlamp', type: 'lighting', image: 'lamp', material: 'aluminium', price: [399, 999] },
] satisfies (Omit<TradeProduct, 'title'> & { name: string })[];

/** The roaster's coffees (single origins and its Lisbon blends), each by three weights, and its brewing gear, in EUR. */
const COFFEES = [
  'Ethiopia Yirgacheffe', 'Brazil Cerrado', 'Colombia Huila', 'Kenya Nyeri', 'Guatemala Antigua', 'Rwanda Nyamasheke',
  'Peru Cajamarca', 'Costa Rica Tarrazú', 'São Tomé', 'Timor-Leste Ermera', 'Angola Amboim', 'Honduras Marcala',
  'Alfama Blend', 'Bairro Alto Espresso', 'Belém Blend', 'Chiado House Blend', 'Tejo Decaf', 'Graça Espresso',
];
const COFFEE_WEIGHTS: readonly { weight: string; price: [number, number] }[] = [
  { weight: '250 g', price: [9, 16] },
  { weight: '500 g', price: [17, 28] },
  { weight: '1 kg', price: [30, 52] },
];
const COFFEE_GEAR: readonly TradeProduct[] = [
  { title: 'Hand Grinder', type: 'equipment', image: 'beans', material: 'burr grinder', price: [45, 120] },
  { title: 'Pour-Over Dripper', type: 'equipment', image: 'mug', material: 'porcelain', price: [18, 35] },
  { title: 'Moka Pot, 6 Cups', type: 'equipment', image: 'mug', material: 'aluminium', price: [25, 45] },
  { title: 'French Press, 1 L', type: 'equipment', image: 'mug', material: 'borosilicate glass', price: [25, 49] },
  { title: 'Gooseneck Kettle', type: 'equipment', image: 'mug', material: 'stainless', price: [39, 79] },
  { title: 'Azulejo Mug', type: 'cups', image: 'mug', material: 'stoneware', price: [12, 18] },
  { title: 'Espresso Cups, Set of Two', type: 'cups', image: 'mug', material: 'stoneware', price: [16, 24] },
  { title: 'Travel Mug', type: 'cups', image: 'mug', material: 'double-walled', price: [19, 29] },
  { title: 'Paper Filters, 100', type: 'equipment', image: 'beans', material: 'unbleached paper', price: [5, 8] },
  { title: 'Roastery Canvas Tote', type: 'bags', image: 'backpack', material: 'canvas', price: [12, 20] },
  { title: 'Brewing at Home: A Lisbon Guide', type: 'books', image: 'book', material: 'paperback', price: [18, 26] },
  { title: 'Coffee Subscription, Monthly', type: 'subscription', image: 'beans', material: 'whole beans', price: [22, 35] },
];

/** The book club's books (titles of two halves) and its merchandise, in USD. */
const BOOK_STARTS = ['The Quiet', 'The Winter', 'The Last', 'The Long', 'The Glass', 'The Hidden', 'The Paper', 'The Night', 'The Open', 'The Borrowed'];
const BOOK_ENDS = ['Harbor', 'Orchard', 'Letters', 'Bridge', 'Library', 'Garden', 'River', 'Summer', 'Stories', 'Kitchen'];
const BOOK_TYPES = ['fiction', 'non-fiction', 'poetry', 'memoir'];
const BOOK_MERCH: readonly TradeProduct[] = [
  { title: 'Book Club Tote', type: 'bags', image: 'backpack', material: 'canvas', price: [18, 25] },
  { title: 'Reading Lamp', type: 'home', image: 'lamp', material: 'brass', price: [39, 65] },
  { title: 'Library Mug', type: 'kitchen', image: 'mug', material: 'stoneware', price: [14, 19] },
  { title: 'Bookmark Set', type: 'stationery', image: 'book', material: 'letterpress card', price: [8, 12] },
  { title: 'Reading Journal', type: 'stationery', image: 'book', material: 'recycled paper', price: [15, 22] },
  { title: 'Annual Membership', type: 'membership', image: 'book', material: 'twelve monthly picks', price: [120, 180] },
];

/** Each trade's shop (issue 34 point 10). */
export const TRADES: Record<Trade, TradeSpec> = {
  outdoor: {
    products: lineUp(OUTDOOR_LINES, OUTDOOR_ITEMS),
    collections: ['New Arrivals', 'Best Sellers', 'Hiking', 'Camping', 'Winter', 'Rainwear', 'Gifts', 'Sale'],
    vendors: ['Fjellverk', 'Nordkapp Gear', 'Vidde Wool', 'Trollheim Supply', 'Polarlys Equipment', 'Lyngen Outfitters'],
    sentences: [
      'Made for long days in the mountains and light enough to forget you carry it.',
      'Tested on the Hardangervidda in sleet, wind and midnight sun.',
      'Repairable, with spare parts kept for ten years.',
      'Warm when wet, and packs down small.',
      'Built for Norwegian weather: four seasons in a day.',
    ],
  },
  coffee: {
    products: [...COFFEES.flatMap((coffee) => COFFEE_WEIGHTS.map(({ weight, price }) => ({ title: `${coffee}, ${weight}`, type: 'coffee', image: 'beans', material: 'whole beans', price }))), ...COFFEE_GEAR],
    collections: ['New Arrivals', 'Best Sellers', 'Single Origin', 'Blends', 'Espresso', 'Brewing Gear', 'Gifts', 'Sale'],
    vendors: ['Lisbon Coffee Roasters', 'Torrefação do Tejo', 'Casa do Café', 'Cerâmica da Alfama', 'Barista Supply Lisboa'],
    sentences: [
      'Roasted in small batches in our Lisbon roastery every Tuesday and Friday.',
      'Notes of dark chocolate, orange peel and toasted almond.',
      'Bought directly from the farm, at a price above fair trade.',
      'A bica as it is drunk in Lisbon: short, sweet and strong.',
      'Best within six weeks of roasting; the roast date is on the bag.',
    ],
  },
  books: {
    products: [
      ...BOOK_STARTS.flatMap((start, i) => BOOK_ENDS.map((end, j) => ({ title: `${start} ${end}`, type: BOOK_TYPES[(i + j) % BOOK_TYPES.length]!, image: 'book', material: (i + j) % 3 ? 'paperback' : 'hardcover', price: [14, 32] as [number, number] }))),
      ...BOOK_MERCH,
    ],
    collections: ['New Arrivals', 'Staff Picks', 'Book of the Month', 'Fiction', 'Non-Fiction', 'Poetry', 'Gifts', 'Sale'],
    vendors: ['Prospect Park Press', 'Gowanus Books', 'Red Hook Editions', 'Flatbush House', 'Atlantic Avenue Publishing'],
    sentences: [
      'Chosen by the club for its monthly meeting at the Park Slope library.',
      'A debut that the whole club argued about until closing time.',
      'Signed copies while they last.',
      'Printed on recycled paper by a family press in upstate New York.',
      'The book everyone on the G train seems to be reading.',
    ],
  },
};

/**
 * Seeds the catalog and posts of one workspace: 60 products of its `trade` (see the module comment) in 8 of the
 * trade's collections, priced in `currency`; `base` is the public origin of the shipped images.
 */
export async function seedWorkspaceContent(db: Kysely<Database>, dialect: Dialect, workspace: { id: string; currency: string; trade: Trade }, base: string): Promise<void> {
  const image = (path: string) => `${base.replace(/\/$/, '')}/demo/${path}.svg`;
  const trade = TRADES[workspace.trade];
  const catalog = new CatalogStore(db, dialect);
  const collectionIds: string[] = [];
  for (const [index, title] of trade.collections.entries()) {
    const { id } = await catalog.upsertCollection(workspace.id, {
      title,
      externalId: `col-${index + 1}`,
      bodyHtml: `<p>${faker.helpers.arrayElement(trade.sentences)}</p>`,
      source: 'demo',
    });
    collectionIds.push(id);
  }
  const products = faker.helpers.shuffle([...trade.products]).slice(0, 60);
  for (const [index, product] of products.entries()) {
    const price = Math.round(faker.number.float({ min: product.price[0], max: product.price[1] }) * 100) / 100;
    const onSale = faker.number.float() < 0.25;
    await catalog.upsertProduct(workspace.id, {
      externalId: `sku-${String(index + 1).padStart(4, '0')}`,
      title: product.title,
      bodyHtml: `<p>${faker.helpers.arrayElement(trade.sentences)}</p><ul><li>${product.material}</li></ul>`,
      type: product.type,
      status: faker.helpers.weightedArrayElement([{ value: 'active' as const, weight: 8 }, { value: 'draft' as const, weight: 1 }, { value: 'archived' as const, weight: 1 }]),
      vendor: faker.helpers.arrayElement(trade.vendors),
      source: 'demo',
      url: `https://shop.example.com/products/${index + 1}`,
      imageUrl: image(`products/${product.image}`),
      price,
      originalPrice: onSale ? Math.round(price * 1.25 * 100) / 100 : undefined,
      currency: workspace.currency,
      isForSale: faker.number.float() < 0.9,
      tags: faker.helpers.arrayElements(PRODUCT_TAGS, { min: 0, max: 3 }),
      collectionIds: faker.helpers.arrayElements(collectionIds, { min: 1, max: 2 }),
      customProperties: { material: product.material, weightGrams: faker.number.int({ min: 100, max: 3000 }) },
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
