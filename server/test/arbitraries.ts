/**
 * fast-check arbitraries of request bodies, shared by the accepted-bodies property and the fuzz target (issue 12):
 * valid-ish bodies of the four create/upsert endpoints whose values stress depth (to and past the 32 levels of
 * server/plugins/json-body.ts and SQLite's 1,000), unicode (every code point, lone surrogates, combining marks,
 * line separators, NUL), long strings (to each field's cap and one past), numbers at the edges and dates around
 * the 1970-9999 range; and hostile JSON for any field.
 */
import fc from 'fast-check';

/** Any text up to about `maxLength`: every code point, lone surrogates included, the awkward ones more often. */
export const anyText = (maxLength: number) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: Math.min(maxLength, 40) }),
    fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 40) }),
    fc.constantFrom('=1+1', '\t=cmd', '\r@SUM(A1)', '-x', '+47 912 34 567', 'e\u0301', '\u2028\u2029', '\uFEFF', "O'Hara", '"q", a', 'a\r\nb', '\ud800'),
    fc.tuple(fc.constantFrom('a', 'ø', '日', '😀', '\u0000', ' '), fc.integer({ min: 0, max: maxLength + 2 })).map(([c, n]) => c.repeat(Math.ceil(n / c.length))),
  );

/** A JSON value nested `depth` levels (arrays and objects alternating) around `leaf`. */
export const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 3 === 2 ? { k: value } : [value];
  return value;
};

/** Free-form JSON: ordinary values, and values nested or widened to and past every limit. */
export const freeJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.jsonValue({ maxDepth: 1 })).map(([depth, leaf]) => nested(depth, leaf)),
  fc.tuple(fc.integer({ min: 995, max: 1100 }), fc.constantFrom(0, 'x', null)).map(([depth, leaf]) => nested(depth, leaf)),
  fc.array(fc.constantFrom(0, 'a', true), { minLength: 990, maxLength: 1010 }),
);

/** Amounts around the 0..1e12 range of prices, and a few far outside it. */
export const edgeNumber = fc.oneof(
  fc.double({ min: 0, max: 1e12, noNaN: true }),
  // eslint-disable-next-line no-loss-of-precision -- a decimal with more digits than a double holds, on purpose
  fc.constantFrom(0, -0, 1e12, 5e-324, 0.1, 1e12 + 1, -1e-300, 123456789.123456789, 1e308),
);

/** An ISO date-time with an offset from 1960 to past 9999 in UTC, the edges of the range more often. */
export const dateTime = fc.oneof(
  fc.date({ min: new Date('1960-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('9999-12-31T23:59:59-23:59', '9999-12-31T23:59:59.999Z', '9999-12-31T20:00:00-05:00', '1970-01-01T00:00:00+01:00', '2100-02-29T00:00:00Z', '2096-02-29T12:00:00+14:00'),
  fc.tuple(fc.integer({ min: 2027, max: 9999 }), fc.integer({ min: -23, max: 23 })).map(([year, hours]) => `${year}-12-31T23:59:59${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:59`),
);

export const url = fc.oneof(fc.webUrl(), fc.constantFrom('https://example.com/a?b=c#d', 'http://[::1]:8080/x', 'javascript:alert(1)', 'https://ø.example/日本'));
const tag = fc.oneof(anyText(70), fc.constantFrom('vip', ' gold ', 'a,b'));
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
const defined = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

/** `POST /contacts` bodies, valid or not. */
export const contactBody = fc
  .record({
    name: optional(anyText(1001)),
    email: optional(fc.oneof(fc.emailAddress(), anyText(20))),
    phone: optional(fc.oneof(fc.constantFrom('+47 912 34 567', '+1 (718) 555-0199'), fc.integer({ min: 10_000_000, max: 999_999_999 }).map((n) => `+47${n}`))),
    city: optional(anyText(1000)),
    region: optional(anyText(30)),
    bio: optional(anyText(5001)),
    tags: optional(fc.array(tag, { maxLength: 6 })),
    statusTags: optional(fc.dictionary(fc.string({ maxLength: 8 }), freeJson, { maxKeys: 3 })),
    follows: optional(freeJson),
    addDirectly: optional(fc.boolean()),
  })
  .map(defined);

/** `POST /products` bodies, valid or not. */
export const productBody = fc
  .record({
    title: anyText(256),
    price: optional(edgeNumber),
    originalPrice: optional(edgeNumber),
    bodyHtml: optional(anyText(2000)),
    url: optional(url),
    tags: optional(fc.array(tag, { maxLength: 4 })),
    customProperties: optional(fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), freeJson, { maxKeys: 3 })),
  })
  .map(defined);

/** `POST /collections` bodies, valid or not. */
export const collectionBody = fc
  .record({ title: anyText(256), bodyHtml: optional(anyText(500)), customProperties: optional(fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), freeJson, { maxKeys: 2 })) })
  .map(defined);

/** `POST /post-requests` bodies, valid or not. */
export const postBody = fc
  .record({
    action: fc.constantFrom('publish', 'schedule', 'suggest'),
    text: optional(anyText(10_001)),
    header: optional(anyText(500)),
    imageUrl: optional(url),
    publishDate: optional(dateTime),
    ctaLink: optional(fc.record({ url, title: optional(anyText(20)) }).map(defined)),
  })
  .map(defined);

/** `PATCH /contacts/{id}/tags` bodies, valid or not. */
export const tagsPatchBody = fc.record({ tagsToAdd: optional(fc.array(tag, { maxLength: 5 })), tagsToRemove: optional(fc.array(tag, { maxLength: 3 })) }).map(defined);

/** `PATCH /contacts/{id}/notification-settings` bodies, valid or not. */
export const notificationPatchBody = fc.record({ email: optional(fc.oneof(fc.boolean(), fc.jsonValue())), sms: optional(fc.boolean()) }).map(defined);

/**
 * Hostile JSON text for any body: wrong types, deep nesting (to 2,000 levels), wide arrays and objects (to 2,000
 * members), numbers past a double (`1e400`), duplicate and prototype keys, and text that is not JSON at all.
 */
export const hostileJsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.tuple(fc.integer({ min: 20, max: 2000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => `{"name":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`),
  fc.integer({ min: 900, max: 2000 }).map((n) => `{"tags":[${Array.from({ length: n }, (_, i) => `"t${i}"`).join(',')}]}`),
  fc.integer({ min: 900, max: 2000 }).map((n) => `{"statusTags":{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}}`),
  fc.constantFrom(
    '{"price":1e400}', '{"price":-1e400,"title":"x"}', '{"title":"x","price":123456789012345678901234567890}', '{"claps":1}',
    '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{"name":"a","name":"b"}', '{"title":"\\ud800"}',
    '{"action":"publish","text":"x","publishDate":"+010000-01-01T00:00:00Z"}', '{"email":"a@b.c\\u0000"}',
    '', ' ', 'null', 'true', '0', '"text"', '[]', '{', '{"a":', '{"a":1}}', '\uFEFF{}', '{"a":"\\x"}', '{\'a\':1}', 'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
