/**
 * Errors in words a person can act on (issue 13, "Tags and errors a person can read"): every error the console
 * shows is a sentence about what the person did ("A tag can be at most 64 characters."), never the wire text
 * ("400: tagsToAdd.0 must be at most 64 characters long"); the wire text, the endpoint and the trace id stay
 * available as `details` (shown under "Details" by src/components/error-message.tsx).
 *
 * Input: any thrown value; an `ApiError` (src/api/api-error.ts) is read by its `status`, `message`, `endpoint`,
 * `traceId` and `retryAfter` only, so hosted-service bodies (a `message` string or string array, no trace id)
 * work the same. The service's messages come from src/api/validation-message.ts (`<path> <predicate>`, several
 * joined by `; `) and the fixed texts of decisions.md section 3 and the server's `badRequest`/`notFound`/
 * `conflict` calls; the common class-validator wordings of hosted services (`must be shorter than or equal to
 * 64 characters`, `should not be empty`) are read too. A message nothing here knows keeps its text, led by the
 * field's name when it starts with a known field path.
 *
 * Framework-free and pure, so it is unit-tested (error-sentence.test.ts) and usable in forms' zod error maps.
 */
import { ApiResponseError, isApiError } from '@/api/api-error';

/** What the console shows for an error: sentences, and what the service said (null for an error of the console itself). */
export type ErrorReport = {
  /** One sentence per distinct problem, each ending with a full stop. */
  sentences: string[];
  /** The sentences joined by a space. */
  text: string;
  details: ErrorDetails | null;
};

/** The wire side of an error, for "Details": `HTTP 400 · PATCH /contacts/{contactId}/tags`, the message as sent, the trace id. */
export type ErrorDetails = { status: number; endpoint: string; message: string; traceId: string | null };

/** Nouns of the fields the service names: the whole field, then one item of it (a path ending in an index), then the plural. */
type Noun = { whole: string; item?: string; plural?: string };

const NOUNS: Readonly<Record<string, Noun>> = {
  name: { whole: 'The name' },
  email: { whole: 'The email address' },
  phone: { whole: 'The phone number' },
  image: { whole: 'The image URL' },
  imageUrl: { whole: 'The image URL' },
  url: { whole: 'The web address' },
  bio: { whole: 'The bio' },
  address: { whole: 'The address' },
  city: { whole: 'The city' },
  postalCode: { whole: 'The postal code' },
  region: { whole: 'The region' },
  source: { whole: 'The source' },
  systemSource: { whole: 'The system source' },
  customMessage: { whole: 'The custom message' },
  notificationSettings: { whole: 'The notification setting' },
  statusTags: { whole: 'The status tags' },
  follows: { whole: 'The follows value' },
  tags: { whole: 'The tag list', item: 'A tag', plural: 'tags' },
  tagsToAdd: { whole: 'The tags to add', item: 'A tag', plural: 'tags' },
  tagsToRemove: { whole: 'The tags to remove', item: 'A tag', plural: 'tags' },
  title: { whole: 'The title' },
  'mediaImageUrls.url': { whole: 'A media image URL' },
  handle: { whole: 'The handle' },
  bodyHtml: { whole: 'The description' },
  type: { whole: 'The type' },
  status: { whole: 'The status' },
  vendor: { whole: 'The vendor' },
  price: { whole: 'The price' },
  originalPrice: { whole: 'The original price' },
  currency: { whole: 'The currency' },
  externalId: { whole: 'The external id' },
  id: { whole: 'The id' },
  collectionIds: { whole: 'The collections', item: 'A collection', plural: 'collections' },
  externalCollectionIds: { whole: 'The external collection ids', item: 'An external collection id', plural: 'collections' },
  customProperties: { whole: 'The custom properties' },
  action: { whole: 'The action' },
  text: { whole: 'The text' },
  header: { whole: 'The header' },
  publishDate: { whole: 'The publish date' },
  mediaImageUrls: { whole: 'The media images', item: 'A media image URL', plural: 'media images' },
  'ctaLink.url': { whole: 'The link URL' },
  'ctaLink.title': { whole: 'The link title' },
  'ctaLink.description': { whole: 'The link description' },
  'ctaLink.imageUrl': { whole: 'The link image URL' },
  'button.text': { whole: 'The button text' },
  'button.url': { whole: 'The button URL' },
  'author.name': { whole: "The author's name" },
  'author.imageUrl': { whole: "The author's image URL" },
  'recipients.tags': { whole: 'The recipient tags', item: 'A recipient tag', plural: 'recipient tags' },
  'recipients.contactIds': { whole: 'The recipient contacts', item: 'A recipient contact', plural: 'recipient contacts' },
  recipients: { whole: 'The recipients' },
  $limit: { whole: 'The page size' },
  $offset: { whole: 'The page position' },
  $filter: { whole: 'The filter' },
  $orderBy: { whole: 'The sort order' },
  limit: { whole: 'The number of posts' },
  body: { whole: 'The request' },
  query: { whole: 'The request' },
};

/** `customProperties` -> `The custom properties`. */
function humanize(field: string): string {
  return `The ${field.replace(/^\$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()}`;
}

/** The noun for a field path (`tagsToAdd.0` -> `A tag`, `ctaLink.url` -> `The link URL`, `foo.bar` -> `The bar`). */
export function fieldNoun(path: string): { noun: string; plural: string } {
  const parts = path.split('.');
  const indexed = parts.length > 1 && /^\d+$/.test(parts.at(-1)!);
  const named = parts.filter((part) => !/^\d+$/.test(part));
  const key = [named.join('.'), named.slice(-2).join('.'), named.at(-1) ?? path].find((candidate) => NOUNS[candidate]);
  const entry = key ? NOUNS[key]! : { whole: humanize(named.at(-1) ?? path) };
  return { noun: indexed && entry.item ? entry.item : indexed ? `An item of ${entry.whole.replace(/^The /, 'the ')}` : entry.whole, plural: entry.plural ?? 'items' };
}

const quote = (text: string) => `“${text}”`;
/** `a, b, c` -> `a, b or c`. */
const orList = (text: string) => {
  const items = text.split(', ').filter(Boolean);
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : text;
};
/** Capitalises and ends `text` with a full stop (unless it ends with `.`, `!` or `?`). */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[;:,]$/, '');
  if (!trimmed) return '';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

type Rule = [RegExp, (match: RegExpExecArray, noun: string, plural: string) => string];

/** Predicates after a field path: validation-message.ts wordings first, then hosted services' class-validator ones. */
const PREDICATES: Rule[] = [
  [/^must be at most ([\d,]+) characters(?: long)?$|^must be shorter than or equal to (\d+) characters$/, (m, noun) => `${noun} can be at most ${m[1] ?? m[2]} characters`],
  [/^must be at least (\d+) characters(?: long)?$|^must be longer than or equal to (\d+) characters$/, (m, noun) => `${noun} must be at least ${m[1] ?? m[2]} characters`],
  [/^must not be empty$|^should not be empty$/, (_m, noun) => `${noun} can't be empty`],
  [/^is required(.*)$/, (m, noun) => `${noun} is required${m[1]}`],
  [/^(?:must contain )?at most (\d+) items$|^must contain no more than (\d+) elements$/, (m, _noun, plural) => `At most ${m[1] ?? m[2]} ${plural} are allowed`],
  [/^must contain at least (\d+) items$|^must contain at least (\d+) elements$/, (m, _noun, plural) => `At least ${m[1] ?? m[2]} ${plural} are needed`],
  [/^must not be greater than (\S+)$/, (m, noun) => `${noun} can be at most ${m[1]}`],
  [/^must not be less than (\S+)$/, (m, noun) => `${noun} can't be less than ${m[1]}`],
  [/^must be one of(?: the following values:)? (.+)$/, (m, noun) => `${noun} must be one of ${orList(m[1]!)}`],
  [/^must be (?:a valid email address|an email)$/, (_m, noun) => `${noun} isn't valid; it should look like name@example.com`],
  [/^must be an E\.164 number\b.*$|^must be a valid phone number$/, (_m, noun) => `${noun} isn't in international form: start with + and the country code, like +47 123 45 678`],
  [/^must be an absolute http\(s\) URL$|^must be a URL address$|^must be a valid url$/i, (_m, noun) => `${noun} must be a full web address starting with http:// or https://`],
  [/^must be a lower-case slug\b.*$/, (_m, noun) => `${noun} can only hold lower-case letters, digits and single dashes`],
  [/^must be an ISO 4217 code\b.*$/, (_m, noun) => `${noun} must be a three-letter currency code such as EUR`],
  [/^must be an ISO 8601 date-time\b.*$|^must be a valid ISO 8601 date string$/, (_m, noun) => `${noun} isn't a valid date and time`],
  [/^must be in the future\b(.*)$/, (m, noun) => `${noun} must be in the future${m[1]}`],
  [/^is not allowed with publish\b.*$/, (_m, noun) => `${noun} can't be set when publishing now; choose Schedule instead`],
  [/^must be a non-negative integer$/, (_m, noun) => `${noun} must be a whole number, 0 or more`],
  [/^must have at most (\d+) keys$/, (m, noun) => `${noun} can have at most ${m[1]} entries`],
  [/^must be at most (\d+) KiB as JSON$/, (m, noun) => `${noun} can take at most ${m[1]} KiB`],
  [/^is nested too deeply$/, (_m, noun) => `${noun} is nested too deeply`],
  [/^must be a number such as (.+)$/, (m, noun) => `${noun} must be a number such as ${m[1]}`],
  [/^must be (?:an? )?(string|number|boolean|array|object|integer|record)(?: value)?\b.*$/, (m, noun) => `${noun} has the wrong kind of value (a ${m[1]} is expected)`],
  [/^has an invalid shape$/, (_m, noun) => `${noun} has a shape the service does not accept`],
  [/^needs a non-empty tagsToAdd or tagsToRemove$/, () => 'Choose at least one tag to add or remove'],
  [/^names (.+) in both tagsToAdd and tagsToRemove$/, (m) => `${quote(m[1]!)} can't be both added and removed`],
  [/^needs content\b.*$/, () => 'A post needs content: a text, a header or an image'],
  [/^needs email or sms$/, () => 'Choose email or SMS'],
];

/** Whole messages that start with no field path (server/db, plugins/auth.ts, plugins/errors.ts). */
const MESSAGES: Rule[] = [
  [/^property ([\w.$]+) should not exist$/, (m) => `The service does not accept the field ${quote(m[1]!)} here`],
  [/^each value in ([\w.$]+) (.+)$/, (m) => sentenceBody(`${m[1]}.0 ${m[2]}`)],
  [/^a contact has at most (\d+) tags$/i, (m) => `A contact can have at most ${m[1]} tags`],
  [/^email cannot be turned on\b.*$/, () => 'Email notifications need an email address on the contact'],
  [/^sms cannot be turned on\b.*$/, () => 'SMS notifications need a phone number on the contact'],
  [/^notificationSettings: email needs\b.*$/, () => 'Email notifications need an email address'],
  [/^notificationSettings: sms needs\b.*$/, () => 'SMS notifications need a phone number'],
  [/^(external)?[cC]ollectionIds: unknown collection (.+)$/, (m) => `The collection ${m[2]} does not exist in this workspace`],
  [/^recipients: unknown contact (.+)$/, (m) => `The recipient contact ${m[1]} does not exist in this workspace`],
  [/^title is required to create a product$/, () => 'A new product needs a title'],
  [/^publishDate must be in the future\b.*$/, () => 'The publish date must be in the future to schedule a post'],
  [/^(A \w+ with \w+ .+ already exists)$/, (m) => m[1]!],
  [/^Missing scope (\S+)$/, (m) => `This API key can't do that: it needs the ${m[1]} permission`],
  [/^Invalid API key$/, () => 'The service refused the API key: it may be mistyped or revoked'],
  [/^Invalid or missing Basic credentials$/, () => 'The service refused the access key and secret; check them and save them again'],
  [/^Forbidden resource$/, () => "This API key isn't allowed to do that"],
  [/^API version (\S+) is not supported\.?$/, (m) => `The service does not support API version ${m[1]}, the one this console uses`],
  [/^\$filter: (.+)$/s, (m) => `The filter isn't valid: ${m[1]}`],
  [/^\$orderBy:? (.+)$/s, (m) => `The sort order isn't valid: ${m[1]}`],
  [/^Malformed JSON\b.*$/, () => 'The service could not read what the console sent'],
  [/^ThrottlerException\b.*$|^Too Many Requests$/i, () => 'The service is receiving too many requests'],
  [/^Cannot (GET|POST|PATCH|PUT|DELETE) (.+)$/, () => 'The service does not offer this; it may be a different version'],
  [/^(\w[\w ]*) not found$/i, (m) => `This ${m[1]!.toLowerCase()} no longer exists in this workspace`],
];

/** One problem's message (a part of a `; `-joined message) as a sentence body, without the full stop. */
function sentenceBody(part: string): string {
  for (const [pattern, write] of MESSAGES) {
    const match = pattern.exec(part);
    if (match) return write(match, '', 'items');
  }
  const head = /^([\w$]+(?:\.[\w$]+)*):?\s+(.+)$/s.exec(part);
  if (head) {
    const known = NOUNS[head[1]!.split('.').filter((p) => !/^\d+$/.test(p)).join('.')] ?? NOUNS[head[1]!.split('.')[0]!];
    const { noun, plural } = fieldNoun(head[1]!);
    for (const [pattern, write] of PREDICATES) {
      const match = pattern.exec(head[2]!);
      if (match) return write(match, noun, plural);
    }
    if (known) return `${noun} ${head[2]}`;
  }
  for (const [pattern, write] of PREDICATES) {
    const match = pattern.exec(part);
    if (match) return write(match, 'The value', 'items');
  }
  return part;
}

/** The sentences for a message as the service sends it: each `; `-joined part once, as a sentence. */
export function messageSentences(message: string): string[] {
  const parts = message.split(/;\s+/).map((part) => part.trim()).filter(Boolean);
  return [...new Set(parts.map((part) => asSentence(sentenceBody(part))))];
}

/** The sentence for a field's own message (a form field's error): `tags.0 must not be empty` -> `A tag can't be empty.` */
export function fieldSentence(path: string, predicate: string): string {
  return asSentence(sentenceBody(`${path} ${predicate}`));
}

/** What a status means when its message says nothing the console knows. */
function statusSentence(error: { status: number; retryAfter: number | null }): string | null {
  const { status } = error;
  if (status === 0) return 'Could not reach the service. Check the network connection and that the service is running, then try again.';
  if (status === 401) return 'The service refused the API key: it may be mistyped or revoked.';
  if (status === 403) return "This API key isn't allowed to do that.";
  if (status === 413) return 'That is too large to send: the service takes at most 2 MB at once.';
  if (status === 429) {
    const wait = error.retryAfter;
    return `The service is receiving too many requests. ${wait ? `Wait ${wait} second${wait === 1 ? '' : 's'} and try again.` : 'Wait a moment and try again.'}`;
  }
  if (status === 502 || status === 503 || status === 504) return `The service is not available right now (HTTP ${status}). Try again in a moment.`;
  if (status >= 500) return 'The service had an unexpected problem. Try again; if it happens again, pass the details below to whoever runs the service.';
  return null;
}

/**
 * The report for any thrown value:
 * - an `ApiNetworkError` (status 0), a 413, 429 or 5xx: the status's sentence (a 429 says how long to wait);
 * - an `ApiResponseError` (a 2xx of an unexpected shape): that the service answered in a form the console does not read;
 * - any other `ApiError`: each part of its message as a sentence (`messageSentences`); a 401/403 whose message is
 *   unknown gets the status's sentence;
 * - any other error: its message as a sentence, with no details.
 */
export function describeError(error: unknown): ErrorReport {
  if (!isApiError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    const sentences = [asSentence(message) || 'Something went wrong in the console.'];
    return { sentences, text: sentences.join(' '), details: null };
  }
  const details: ErrorDetails = { status: error.status, endpoint: error.endpoint, message: error.message, traceId: error.traceId };
  let sentences: string[];
  if (error instanceof ApiResponseError) sentences = ['The service answered in a form this console does not understand; it may be a different version of the service.'];
  else if (error.status === 0 || error.status === 413 || error.status === 429 || error.status >= 500) sentences = [statusSentence(error)!];
  else {
    sentences = messageSentences(error.message);
    const known = sentences.some((sentence, i) => sentence !== asSentence(error.message.split(/;\s+/)[i] ?? ''));
    if (!known && (error.status === 401 || error.status === 403)) sentences = [statusSentence(error)!];
    if (!sentences.length) sentences = [asSentence(`The service refused this (HTTP ${error.status})`)];
  }
  return { sentences, text: sentences.join(' '), details };
}

/** `describeError(error).text`: the sentences alone, for places that show one line (a failed item of a bulk job). */
export function errorSentence(error: unknown): string {
  return describeError(error).text;
}
