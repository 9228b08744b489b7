/**
 * Errors in words a person can act on (issue 13, "Tags and errors a person can read"): every error the console
 * shows is a sentence about what the person did ("A tag can be at most 64 characters."), never the wire text
 * ("400: tagsToAdd.0 must be at most 64 characters long"); the wire text, the endpoint and the trace id stay
 * available as `details` (shown under "Details" by src/components/error-message.tsx).
 *
 * Input: any thrown value; an `ApiError` (src/api/api-error.ts) is read by its `status`, `message`, `endpoint`,
 * `traceId` and `retryAfter` only, so hosted-service bodies (a `message` string or string array, no trace id)
 * work the same. The service's messages come from src/api/validation-message.ts (`<path> <predicate>`, several
 * joined by `; `) and the fixed texts of docs/decisions.md section 3 and the server's `badRequest`/`notFound`/
 * `conflict` calls; the common class-validator wordings of hosted services (`must be shorter than or equal to
 * 64 characters`, `should not be empty`) are read too. A message nothing here knows keeps its text, led by the
 * field's name when it starts with a known field path.
 *
 * Framework-free and pure (apart from the language shown: every sentence comes from the `sentences` catalog, issue 23),
 * so it is unit-tested (error-sentence.test.ts, in English) and usable in forms' zod error maps. That catalog is
 * loaded only when an error is shown (the first screens do not carry it): await `loadErrorSentences()` before
 * writing a sentence, or render it under `useArea('sentences')` (src/components/error-message.tsx does).
 */
import { ApiResponseError, isApiError } from '@/api/api-error';
import { formatList } from '@/i18n/format';
import { currentLocale, loadAreaSettled, t } from '@/i18n/i18n';

/**
 * Loads the `sentences` catalog in the language shown (once; later calls share the load). Never rejects: when the
 * catalog cannot be fetched (offline), the sentences show their keys.
 */
export function loadErrorSentences(): Promise<void> {
  return loadAreaSettled('sentences');
}

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
  name: { whole: 'sentences.nounName' },
  email: { whole: 'sentences.nounEmail' },
  phone: { whole: 'sentences.nounPhone' },
  image: { whole: 'sentences.nounImage' },
  imageUrl: { whole: 'sentences.nounImageUrl' },
  url: { whole: 'sentences.nounUrl' },
  bio: { whole: 'sentences.nounBio' },
  address: { whole: 'sentences.nounAddress' },
  city: { whole: 'sentences.nounCity' },
  postalCode: { whole: 'sentences.nounPostalCode' },
  region: { whole: 'sentences.nounRegion' },
  source: { whole: 'sentences.nounSource' },
  systemSource: { whole: 'sentences.nounSystemSource' },
  customMessage: { whole: 'sentences.nounCustomMessage' },
  notificationSettings: { whole: 'sentences.nounNotificationSettings' },
  statusTags: { whole: 'sentences.nounStatusTags' },
  follows: { whole: 'sentences.nounFollows' },
  tags: { whole: 'sentences.nounTags', item: 'sentences.nounTagsItem', plural: 'sentences.nounTagsPlural' },
  tagsToAdd: { whole: 'sentences.nounTagsToAdd', item: 'sentences.nounTagsToAddItem', plural: 'sentences.nounTagsToAddPlural' },
  tagsToRemove: { whole: 'sentences.nounTagsToRemove', item: 'sentences.nounTagsToRemoveItem', plural: 'sentences.nounTagsToRemovePlural' },
  title: { whole: 'sentences.nounTitle' },
  'mediaImageUrls.url': { whole: 'sentences.nounMediaImageUrlsUrl' },
  handle: { whole: 'sentences.nounHandle' },
  bodyHtml: { whole: 'sentences.nounBodyHtml' },
  type: { whole: 'sentences.nounType' },
  status: { whole: 'sentences.nounStatus' },
  vendor: { whole: 'sentences.nounVendor' },
  price: { whole: 'sentences.nounPrice' },
  originalPrice: { whole: 'sentences.nounOriginalPrice' },
  currency: { whole: 'sentences.nounCurrency' },
  externalId: { whole: 'sentences.nounExternalId' },
  id: { whole: 'sentences.nounId' },
  collectionIds: { whole: 'sentences.nounCollectionIds', item: 'sentences.nounCollectionIdsItem', plural: 'sentences.nounCollectionIdsPlural' },
  externalCollectionIds: { whole: 'sentences.nounExternalCollectionIds', item: 'sentences.nounExternalCollectionIdsItem', plural: 'sentences.nounExternalCollectionIdsPlural' },
  customProperties: { whole: 'sentences.nounCustomProperties' },
  action: { whole: 'sentences.nounAction' },
  text: { whole: 'sentences.nounText' },
  header: { whole: 'sentences.nounHeader' },
  publishDate: { whole: 'sentences.nounPublishDate' },
  mediaImageUrls: { whole: 'sentences.nounMediaImageUrls', item: 'sentences.nounMediaImageUrlsItem', plural: 'sentences.nounMediaImageUrlsPlural' },
  'ctaLink.url': { whole: 'sentences.nounCtaLinkUrl' },
  'ctaLink.title': { whole: 'sentences.nounCtaLinkTitle' },
  'ctaLink.description': { whole: 'sentences.nounCtaLinkDescription' },
  'ctaLink.imageUrl': { whole: 'sentences.nounCtaLinkImageUrl' },
  'button.text': { whole: 'sentences.nounButtonText' },
  'button.url': { whole: 'sentences.nounButtonUrl' },
  'author.name': { whole: 'sentences.nounAuthorName' },
  'author.imageUrl': { whole: 'sentences.nounAuthorImageUrl' },
  'recipients.tags': { whole: 'sentences.nounRecipientsTags', item: 'sentences.nounRecipientsTagsItem', plural: 'sentences.nounRecipientsTagsPlural' },
  'recipients.contactIds': { whole: 'sentences.nounRecipientsContactIds', item: 'sentences.nounRecipientsContactIdsItem', plural: 'sentences.nounRecipientsContactIdsPlural' },
  recipients: { whole: 'sentences.nounRecipients' },
  '$limit': { whole: 'sentences.nounParamLimit' },
  '$offset': { whole: 'sentences.nounParamOffset' },
  '$filter': { whole: 'sentences.nounParamFilter' },
  '$orderBy': { whole: 'sentences.nounParamOrderBy' },
  limit: { whole: 'sentences.nounLimit' },
  body: { whole: 'sentences.nounBody' },
  query: { whole: 'sentences.nounQuery' },
};

/** `customProperties` -> `The custom properties` (`Feltet «custom properties»` in Norwegian). */
function humanize(field: string): string {
  return t('sentences.nounUnknown', { field: field.replace(/^\$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase() });
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The noun for a field path (`tagsToAdd.0` -> `A tag`, `ctaLink.url` -> `The link URL`, `foo.bar` -> `The bar`), in the language shown. */
export function fieldNoun(path: string): { noun: string; plural: string } {
  const parts = path.split('.');
  const indexed = parts.length > 1 && /^\d+$/.test(parts.at(-1)!);
  const named = parts.filter((part) => !/^\d+$/.test(part));
  const key = [named.join('.'), named.slice(-2).join('.'), named.at(-1) ?? path].find((candidate) => NOUNS[candidate]);
  const entry = key ? NOUNS[key]! : null;
  const whole = entry ? t(entry.whole) : humanize(named.at(-1) ?? path);
  const noun = indexed && entry?.item ? t(entry.item) : indexed ? t('sentences.nounItemOf', { whole: lowerFirst(whole) }) : whole;
  return { noun, plural: entry?.plural ? t(entry.plural) : t('sentences.nounItems') };
}

const quote = (text: string) => t('sentences.quoted', { text });
/** A count in a service message (`10,000`, English digits) as a number, for Intl to write in the language shown. */
const count = (digits: string | undefined) => Number((digits ?? '').replace(/,/g, ''));
/** `a, b, c` -> `a, b or c` (`a, b eller c`), through Intl.ListFormat. */
const orList = (text: string) => {
  const items = text.split(', ').filter(Boolean);
  return items.length > 1 ? formatList(items, 'disjunction') : text;
};
/** Capitalises and ends `text` with a full stop (unless it ends with `.`, `!` or `?`). */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[;:,]$/, '');
  if (!trimmed) return '';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

type Rule = [RegExp, (match: RegExpExecArray, noun: string, plural: string) => string];

/**
 * "At most N characters": the service's wording (validation-message.ts), class-validator's, and zod's own English
 * (`Too big: expected string to have <=64 characters`), which a form's resolver gives for a field checked by a
 * contract schema directly (the new-contact form's tags).
 */
const MAX_CHARS = /^must be at most ([\d,]+) characters(?: long)?$|^must be shorter than or equal to (\d+) characters$|^Too big: expected string to have <=(\d+) characters?$/;

/** Predicates after a field path: validation-message.ts wordings first, then hosted services' class-validator ones. */
const PREDICATES: Rule[] = [
  [MAX_CHARS, (m, noun) => t('sentences.errMaxChars', { noun, max: count(m[1] ?? m[2] ?? m[3]) })],
  [/^must be at least (\d+) characters(?: long)?$|^must be longer than or equal to (\d+) characters$|^Too small: expected string to have >=(\d+) characters?$/, (m, noun) => t('sentences.errMinChars', { noun, min: count(m[1] ?? m[2] ?? m[3]) })],
  [/^must not be empty$|^should not be empty$/, (_m, noun) => t('sentences.errEmpty', { noun })],
  [/^is required(.*)$/, (m, noun) => t('sentences.errRequired', { noun, rest: m[1] })],
  [/^(?:must contain )?at most (\d+) items$|^must contain no more than (\d+) elements$/, (m, _noun, plural) => t('sentences.errMaxItems', { plural, max: m[1] ?? m[2] })],
  [/^must contain at least (\d+) items$|^must contain at least (\d+) elements$/, (m, _noun, plural) => t('sentences.errMinItems', { plural, min: count(m[1] ?? m[2]) })],
  [/^must not be greater than (\S+)$/, (m, noun) => t('sentences.errMax', { noun, max: m[1] })],
  [/^must not be less than (\S+)$/, (m, noun) => t('sentences.errMin', { noun, min: m[1] })],
  [/^must be one of(?: the following values:)? (.+)$/, (m, noun) => t('sentences.errOneOf', { noun, values: orList(m[1]!) })],
  [/^must be (?:a valid email address|an email)$/, (_m, noun) => t('sentences.errEmail', { noun })],
  [/^must be an E\.164 number\b.*$|^must be a valid phone number$/, (_m, noun) => t('sentences.errPhone', { noun })],
  [/^must be an absolute http\(s\) URL$|^must be a URL address$|^must be a valid url$/i, (_m, noun) => t('sentences.errUrl', { noun })],
  [/^must be a lower-case slug\b.*$/, (_m, noun) => t('sentences.errSlug', { noun })],
  [/^must be an ISO 4217 code\b.*$/, (_m, noun) => t('sentences.errCurrency', { noun })],
  [/^must be an ISO 8601 date-time\b.*$|^must be a valid ISO 8601 date string$/, (_m, noun) => t('sentences.errDate', { noun })],
  [/^must be in the future\b(.*)$/, (m, noun) => t('sentences.errFuture', { noun, rest: m[1] })],
  [/^is not allowed with publish\b.*$/, (_m, noun) => t('sentences.errNotWithPublish', { noun })],
  [/^must be a non-negative integer$/, (_m, noun) => t('sentences.errWholeNumber', { noun })],
  [/^must have at most (\d+) keys$/, (m, noun) => t('sentences.errMaxKeys', { noun, max: count(m[1]) })],
  [/^must be at most (\d+) KiB as JSON$/, (m, noun) => t('sentences.errMaxKiB', { noun, max: m[1] })],
  [/^is nested too deeply$/, (_m, noun) => t('sentences.errNested', { noun })],
  [/^must be a number such as (.+)$/, (m, noun) => t('sentences.errNumberSuchAs', { noun, example: m[1] })],
  [/^cannot be emptied\b.*$/, (_m, noun) => t('sentences.errCannotClear', { noun })],
  [/^must be (?:an? )?(string|number|boolean|array|object|integer|record)(?: value)?\b.*$/, (m, noun) => t('sentences.errWrongKind', { noun, kind: m[1] })],
  [/^has an invalid shape$/, (_m, noun) => t('sentences.errShape', { noun })],
  [/^needs a non-empty tagsToAdd or tagsToRemove$/, () => t('sentences.errTagsNeeded')],
  [/^names (.+) in both tagsToAdd and tagsToRemove$/, (m) => t('sentences.errTagBoth', { tag: quote(m[1]!) })],
  [/^needs content\b.*$/, () => t('sentences.errPostContent')],
  [/^needs email or sms$/, () => t('sentences.errEmailOrSms')],
];

/** Whole messages that start with no field path (server/db, plugins/auth.ts, plugins/errors.ts). */
const MESSAGES: Rule[] = [
  [/^property ([\w.$]+) should not exist$/, (m) => t('sentences.errUnknownField', { field: quote(m[1]!) })],
  [/^each value in ([\w.$]+) (.+)$/, (m) => sentenceBody(`${m[1]}.0 ${m[2]}`)],
  [/^a contact has at most (\d+) tags$/i, (m) => t('sentences.errContactTags', { max: m[1] })],
  [/^email cannot be turned on\b.*$/, () => t('sentences.errEmailOnContact')],
  [/^sms cannot be turned on\b.*$/, () => t('sentences.errSmsOnContact')],
  [/^notificationSettings: email needs\b.*$/, () => t('sentences.errEmailNeeded')],
  [/^notificationSettings: sms needs\b.*$/, () => t('sentences.errSmsNeeded')],
  [/^(external)?[cC]ollectionIds: unknown collection (.+)$/, (m) => t('sentences.errUnknownCollection', { id: m[2] })],
  [/^recipients: unknown contact (.+)$/, (m) => t('sentences.errUnknownRecipient', { id: m[1] })],
  [/^title is required to create a product$/, () => t('sentences.errProductTitle')],
  [/^publishDate must be in the future\b.*$/, () => t('sentences.errScheduleFuture')],
  [/^(A \w+ with \w+ .+ already exists)$/, (m) => (currentLocale() === 'en' ? m[1]! : t('sentences.errExists', { message: m[1] }))],
  [/^Missing scope (\S+)$/, (m) => t('sentences.errMissingScope', { scope: m[1] })],
  [/^Invalid API key$/, () => t('sentences.errKeyRefused')],
  [/^Invalid or missing Basic credentials$/, () => t('sentences.errBasicRefused')],
  [/^Forbidden resource$/, () => t('sentences.errForbidden')],
  [/^API version (\S+) is not supported\.?$/, (m) => t('sentences.errApiVersion', { version: m[1] })],
  [/^\$filter: (.+)$/s, (m) => t('sentences.errFilter', { detail: m[1] })],
  [/^\$orderBy:? (.+)$/s, (m) => t('sentences.errOrderBy', { detail: m[1] })],
  [/^Malformed JSON\b.*$/, () => t('sentences.errMalformed')],
  [/^ThrottlerException\b.*$|^Too Many Requests$/i, () => t('sentences.errTooMany')],
  [/^Cannot (GET|POST|PATCH|PUT|DELETE) (.+)$/, () => t('sentences.errNotOffered')],
  [/^(\w[\w ]*) not found$/i, (m) => t('sentences.errNotFound', { thing: m[1]!.toLowerCase() })],
];

/** The paths whose items are tags: a refusal of one of them names the tag (issue 34 point 9). */
const TAG_PATHS = new Set(['tags', 'tagsToAdd', 'tagsToRemove', 'recipients.tags']);
/** A tag longer than this is quoted by its start and an ellipsis. */
const QUOTED_TAG_MAX = 80;

/** The value at a dotted path (`tags.0`) of what was sent, or undefined. */
function valueAt(sent: unknown, path: string): unknown {
  let value = sent;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * "The tag “…” is longer than 64 characters." for a too-long tag at `path` (`tags.0`, `tagsToAdd.2`) when `sent`
 * holds it; null for any other path or predicate, or when the tag is not known.
 */
function tagTooLong(path: string, predicate: string, sent: unknown): string | null {
  const parts = path.split('.');
  if (parts.length < 2 || !/^\d+$/.test(parts.at(-1)!) || !TAG_PATHS.has(parts.slice(0, -1).join('.'))) return null;
  const max = MAX_CHARS.exec(predicate);
  const tag = valueAt(sent, path);
  if (!max || typeof tag !== 'string') return null;
  const shown = tag.length > QUOTED_TAG_MAX ? `${tag.slice(0, QUOTED_TAG_MAX - 1)}…` : tag;
  return t('sentences.errTagTooLong', { tag: quote(shown), max: count(max[1] ?? max[2] ?? max[3]) });
}

/**
 * One problem's message (a part of a `; `-joined message) as a sentence body, without the full stop. `sent` is what
 * the refused request (or form) held, for the sentences that name a value (`tagTooLong`).
 */
function sentenceBody(part: string, sent?: unknown): string {
  for (const [pattern, write] of MESSAGES) {
    const match = pattern.exec(part);
    if (match) return write(match, '', t('sentences.nounItems'));
  }
  const head = /^([\w$]+(?:\.[\w$]+)*):?\s+(.+)$/s.exec(part);
  if (head) {
    const tag = sent === undefined ? null : tagTooLong(head[1]!, head[2]!, sent);
    if (tag) return tag;
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
    if (match) return write(match, t('sentences.nounValue'), t('sentences.nounItems'));
  }
  return part;
}

/**
 * The sentences for a message as the service sends it: each `; `-joined part once, as a sentence. `sent`, the body
 * the message is about (the request's, or a form's values), lets a sentence name the value: `tags.0 must be at most
 * 64 characters long` with `{ tags: ['x…'] }` is `The tag “x…” is longer than 64 characters.`
 */
export function messageSentences(message: string, sent?: unknown): string[] {
  const parts = message.split(/;\s+/).map((part) => part.trim()).filter(Boolean);
  return [...new Set(parts.map((part) => asSentence(sentenceBody(part, sent))))];
}

/**
 * The sentence for a field's own message (a form field's error): `tags.0 must not be empty` -> `A tag can't be empty.`
 * With the form's `values`, a too-long tag is named (`messageSentences`).
 */
export function fieldSentence(path: string, predicate: string, values?: unknown): string {
  return asSentence(sentenceBody(`${path} ${predicate}`, values));
}

/** What a status means when its message says nothing the console knows. */
function statusSentence(error: { status: number; retryAfter: number | null }): string | null {
  const { status } = error;
  if (status === 0) return t('sentences.errUnreachable');
  if (status === 401) return t('sentences.errKeyRefusedSentence');
  if (status === 403) return t('sentences.errForbiddenSentence');
  if (status === 413) return t('sentences.errTooLarge');
  if (status === 429) {
    const wait = error.retryAfter;
    return `${t('sentences.errTooManySentence')} ${wait ? t('sentences.errWaitSeconds', { seconds: wait }) : t('sentences.errWaitMoment')}`;
  }
  if (status === 502 || status === 503 || status === 504) return t('sentences.errUnavailable', { status });
  if (status >= 500) return t('sentences.errServer');
  return null;
}

/**
 * The report for any thrown value:
 * - an `ApiNetworkError` (status 0), a 413, 429 or 5xx: the status's sentence (a 429 says how long to wait);
 * - an `ApiResponseError` (a 2xx of an unexpected shape): that the service answered in a form the console does not read;
 * - any other `ApiError`: each part of its message as a sentence (`messageSentences`, with the body it sent); a 401/403 whose message is
 *   unknown gets the status's sentence;
 * - any other error: its message as a sentence, with no details.
 */
export function describeError(error: unknown): ErrorReport {
  if (!isApiError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    const sentences = [asSentence(message) || t('sentences.errConsole')];
    return { sentences, text: sentences.join(' '), details: null };
  }
  const details: ErrorDetails = { status: error.status, endpoint: error.endpoint, message: error.message, traceId: error.traceId };
  let sentences: string[];
  if (error instanceof ApiResponseError) sentences = [t('sentences.errUnexpectedShape')];
  else if (error.status === 0 || error.status === 413 || error.status === 429 || error.status >= 500) sentences = [statusSentence(error)!];
  else {
    sentences = messageSentences(error.message, error.sent);
    const known = sentences.some((sentence, i) => sentence !== asSentence(error.message.split(/;\s+/)[i] ?? ''));
    if (!known && (error.status === 401 || error.status === 403)) sentences = [statusSentence(error)!];
    if (!sentences.length) sentences = [asSentence(t('sentences.errRefused', { status: error.status }))];
  }
  return { sentences, text: sentences.join(' '), details };
}

/** `describeError(error).text`: the sentences alone, for places that show one line (a failed item of a bulk job). */
export function errorSentence(error: unknown): string {
  return describeError(error).text;
}
