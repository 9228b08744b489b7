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
 * Framework-free and pure (apart from the language shown: every sentence comes from the `common` catalog, issue 23),
 * so it is unit-tested (error-sentence.test.ts, in English) and usable in forms' zod error maps.
 */
import { ApiResponseError, isApiError } from '@/api/api-error';
import { formatList } from '@/i18n/format';
import { currentLocale, t } from '@/i18n/i18n';

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
  name: { whole: 'common.nounName' },
  email: { whole: 'common.nounEmail' },
  phone: { whole: 'common.nounPhone' },
  image: { whole: 'common.nounImage' },
  imageUrl: { whole: 'common.nounImageUrl' },
  url: { whole: 'common.nounUrl' },
  bio: { whole: 'common.nounBio' },
  address: { whole: 'common.nounAddress' },
  city: { whole: 'common.nounCity' },
  postalCode: { whole: 'common.nounPostalCode' },
  region: { whole: 'common.nounRegion' },
  source: { whole: 'common.nounSource' },
  systemSource: { whole: 'common.nounSystemSource' },
  customMessage: { whole: 'common.nounCustomMessage' },
  notificationSettings: { whole: 'common.nounNotificationSettings' },
  statusTags: { whole: 'common.nounStatusTags' },
  follows: { whole: 'common.nounFollows' },
  tags: { whole: 'common.nounTags', item: 'common.nounTagsItem', plural: 'common.nounTagsPlural' },
  tagsToAdd: { whole: 'common.nounTagsToAdd', item: 'common.nounTagsToAddItem', plural: 'common.nounTagsToAddPlural' },
  tagsToRemove: { whole: 'common.nounTagsToRemove', item: 'common.nounTagsToRemoveItem', plural: 'common.nounTagsToRemovePlural' },
  title: { whole: 'common.nounTitle' },
  'mediaImageUrls.url': { whole: 'common.nounMediaImageUrlsUrl' },
  handle: { whole: 'common.nounHandle' },
  bodyHtml: { whole: 'common.nounBodyHtml' },
  type: { whole: 'common.nounType' },
  status: { whole: 'common.nounStatus' },
  vendor: { whole: 'common.nounVendor' },
  price: { whole: 'common.nounPrice' },
  originalPrice: { whole: 'common.nounOriginalPrice' },
  currency: { whole: 'common.nounCurrency' },
  externalId: { whole: 'common.nounExternalId' },
  id: { whole: 'common.nounId' },
  collectionIds: { whole: 'common.nounCollectionIds', item: 'common.nounCollectionIdsItem', plural: 'common.nounCollectionIdsPlural' },
  externalCollectionIds: { whole: 'common.nounExternalCollectionIds', item: 'common.nounExternalCollectionIdsItem', plural: 'common.nounExternalCollectionIdsPlural' },
  customProperties: { whole: 'common.nounCustomProperties' },
  action: { whole: 'common.nounAction' },
  text: { whole: 'common.nounText' },
  header: { whole: 'common.nounHeader' },
  publishDate: { whole: 'common.nounPublishDate' },
  mediaImageUrls: { whole: 'common.nounMediaImageUrls', item: 'common.nounMediaImageUrlsItem', plural: 'common.nounMediaImageUrlsPlural' },
  'ctaLink.url': { whole: 'common.nounCtaLinkUrl' },
  'ctaLink.title': { whole: 'common.nounCtaLinkTitle' },
  'ctaLink.description': { whole: 'common.nounCtaLinkDescription' },
  'ctaLink.imageUrl': { whole: 'common.nounCtaLinkImageUrl' },
  'button.text': { whole: 'common.nounButtonText' },
  'button.url': { whole: 'common.nounButtonUrl' },
  'author.name': { whole: 'common.nounAuthorName' },
  'author.imageUrl': { whole: 'common.nounAuthorImageUrl' },
  'recipients.tags': { whole: 'common.nounRecipientsTags', item: 'common.nounRecipientsTagsItem', plural: 'common.nounRecipientsTagsPlural' },
  'recipients.contactIds': { whole: 'common.nounRecipientsContactIds', item: 'common.nounRecipientsContactIdsItem', plural: 'common.nounRecipientsContactIdsPlural' },
  recipients: { whole: 'common.nounRecipients' },
  '$limit': { whole: 'common.nounParamLimit' },
  '$offset': { whole: 'common.nounParamOffset' },
  '$filter': { whole: 'common.nounParamFilter' },
  '$orderBy': { whole: 'common.nounParamOrderBy' },
  limit: { whole: 'common.nounLimit' },
  body: { whole: 'common.nounBody' },
  query: { whole: 'common.nounQuery' },
};

/** `customProperties` -> `The custom properties` (`Feltet «custom properties»` in Norwegian). */
function humanize(field: string): string {
  return t('common.nounUnknown', { field: field.replace(/^\$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase() });
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
  const noun = indexed && entry?.item ? t(entry.item) : indexed ? t('common.nounItemOf', { whole: lowerFirst(whole) }) : whole;
  return { noun, plural: entry?.plural ? t(entry.plural) : t('common.nounItems') };
}

const quote = (text: string) => t('common.quoted', { text });
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

/** Predicates after a field path: validation-message.ts wordings first, then hosted services' class-validator ones. */
const PREDICATES: Rule[] = [
  [/^must be at most ([\d,]+) characters(?: long)?$|^must be shorter than or equal to (\d+) characters$/, (m, noun) => t('common.errMaxChars', { noun, max: m[1] ?? m[2] })],
  [/^must be at least (\d+) characters(?: long)?$|^must be longer than or equal to (\d+) characters$/, (m, noun) => t('common.errMinChars', { noun, min: m[1] ?? m[2] })],
  [/^must not be empty$|^should not be empty$/, (_m, noun) => t('common.errEmpty', { noun })],
  [/^is required(.*)$/, (m, noun) => t('common.errRequired', { noun, rest: m[1] })],
  [/^(?:must contain )?at most (\d+) items$|^must contain no more than (\d+) elements$/, (m, _noun, plural) => t('common.errMaxItems', { plural, max: m[1] ?? m[2] })],
  [/^must contain at least (\d+) items$|^must contain at least (\d+) elements$/, (m, _noun, plural) => t('common.errMinItems', { plural, min: m[1] ?? m[2] })],
  [/^must not be greater than (\S+)$/, (m, noun) => t('common.errMax', { noun, max: m[1] })],
  [/^must not be less than (\S+)$/, (m, noun) => t('common.errMin', { noun, min: m[1] })],
  [/^must be one of(?: the following values:)? (.+)$/, (m, noun) => t('common.errOneOf', { noun, values: orList(m[1]!) })],
  [/^must be (?:a valid email address|an email)$/, (_m, noun) => t('common.errEmail', { noun })],
  [/^must be an E\.164 number\b.*$|^must be a valid phone number$/, (_m, noun) => t('common.errPhone', { noun })],
  [/^must be an absolute http\(s\) URL$|^must be a URL address$|^must be a valid url$/i, (_m, noun) => t('common.errUrl', { noun })],
  [/^must be a lower-case slug\b.*$/, (_m, noun) => t('common.errSlug', { noun })],
  [/^must be an ISO 4217 code\b.*$/, (_m, noun) => t('common.errCurrency', { noun })],
  [/^must be an ISO 8601 date-time\b.*$|^must be a valid ISO 8601 date string$/, (_m, noun) => t('common.errDate', { noun })],
  [/^must be in the future\b(.*)$/, (m, noun) => t('common.errFuture', { noun, rest: m[1] })],
  [/^is not allowed with publish\b.*$/, (_m, noun) => t('common.errNotWithPublish', { noun })],
  [/^must be a non-negative integer$/, (_m, noun) => t('common.errWholeNumber', { noun })],
  [/^must have at most (\d+) keys$/, (m, noun) => t('common.errMaxKeys', { noun, max: m[1] })],
  [/^must be at most (\d+) KiB as JSON$/, (m, noun) => t('common.errMaxKiB', { noun, max: m[1] })],
  [/^is nested too deeply$/, (_m, noun) => t('common.errNested', { noun })],
  [/^must be a number such as (.+)$/, (m, noun) => t('common.errNumberSuchAs', { noun, example: m[1] })],
  [/^must be (?:an? )?(string|number|boolean|array|object|integer|record)(?: value)?\b.*$/, (m, noun) => t('common.errWrongKind', { noun, kind: m[1] })],
  [/^has an invalid shape$/, (_m, noun) => t('common.errShape', { noun })],
  [/^needs a non-empty tagsToAdd or tagsToRemove$/, () => t('common.errTagsNeeded')],
  [/^names (.+) in both tagsToAdd and tagsToRemove$/, (m) => t('common.errTagBoth', { tag: quote(m[1]!) })],
  [/^needs content\b.*$/, () => t('common.errPostContent')],
  [/^needs email or sms$/, () => t('common.errEmailOrSms')],
];

/** Whole messages that start with no field path (server/db, plugins/auth.ts, plugins/errors.ts). */
const MESSAGES: Rule[] = [
  [/^property ([\w.$]+) should not exist$/, (m) => t('common.errUnknownField', { field: quote(m[1]!) })],
  [/^each value in ([\w.$]+) (.+)$/, (m) => sentenceBody(`${m[1]}.0 ${m[2]}`)],
  [/^a contact has at most (\d+) tags$/i, (m) => t('common.errContactTags', { max: m[1] })],
  [/^email cannot be turned on\b.*$/, () => t('common.errEmailOnContact')],
  [/^sms cannot be turned on\b.*$/, () => t('common.errSmsOnContact')],
  [/^notificationSettings: email needs\b.*$/, () => t('common.errEmailNeeded')],
  [/^notificationSettings: sms needs\b.*$/, () => t('common.errSmsNeeded')],
  [/^(external)?[cC]ollectionIds: unknown collection (.+)$/, (m) => t('common.errUnknownCollection', { id: m[2] })],
  [/^recipients: unknown contact (.+)$/, (m) => t('common.errUnknownRecipient', { id: m[1] })],
  [/^title is required to create a product$/, () => t('common.errProductTitle')],
  [/^publishDate must be in the future\b.*$/, () => t('common.errScheduleFuture')],
  [/^(A \w+ with \w+ .+ already exists)$/, (m) => (currentLocale() === 'en' ? m[1]! : t('common.errExists', { message: m[1] }))],
  [/^Missing scope (\S+)$/, (m) => t('common.errMissingScope', { scope: m[1] })],
  [/^Invalid API key$/, () => t('common.errKeyRefused')],
  [/^Invalid or missing Basic credentials$/, () => t('common.errBasicRefused')],
  [/^Forbidden resource$/, () => t('common.errForbidden')],
  [/^API version (\S+) is not supported\.?$/, (m) => t('common.errApiVersion', { version: m[1] })],
  [/^\$filter: (.+)$/s, (m) => t('common.errFilter', { detail: m[1] })],
  [/^\$orderBy:? (.+)$/s, (m) => t('common.errOrderBy', { detail: m[1] })],
  [/^Malformed JSON\b.*$/, () => t('common.errMalformed')],
  [/^ThrottlerException\b.*$|^Too Many Requests$/i, () => t('common.errTooMany')],
  [/^Cannot (GET|POST|PATCH|PUT|DELETE) (.+)$/, () => t('common.errNotOffered')],
  [/^(\w[\w ]*) not found$/i, (m) => t('common.errNotFound', { thing: m[1]!.toLowerCase() })],
];

/** One problem's message (a part of a `; `-joined message) as a sentence body, without the full stop. */
function sentenceBody(part: string): string {
  for (const [pattern, write] of MESSAGES) {
    const match = pattern.exec(part);
    if (match) return write(match, '', t('common.nounItems'));
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
    if (match) return write(match, t('common.nounValue'), t('common.nounItems'));
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
  if (status === 0) return t('common.errUnreachable');
  if (status === 401) return t('common.errKeyRefusedSentence');
  if (status === 403) return t('common.errForbiddenSentence');
  if (status === 413) return t('common.errTooLarge');
  if (status === 429) {
    const wait = error.retryAfter;
    return `${t('common.errTooManySentence')} ${wait ? t('common.errWaitSeconds', { seconds: wait }) : t('common.errWaitMoment')}`;
  }
  if (status === 502 || status === 503 || status === 504) return t('common.errUnavailable', { status });
  if (status >= 500) return t('common.errServer');
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
    const sentences = [asSentence(message) || t('common.errConsole')];
    return { sentences, text: sentences.join(' '), details: null };
  }
  const details: ErrorDetails = { status: error.status, endpoint: error.endpoint, message: error.message, traceId: error.traceId };
  let sentences: string[];
  if (error instanceof ApiResponseError) sentences = [t('common.errUnexpectedShape')];
  else if (error.status === 0 || error.status === 413 || error.status === 429 || error.status >= 500) sentences = [statusSentence(error)!];
  else {
    sentences = messageSentences(error.message);
    const known = sentences.some((sentence, i) => sentence !== asSentence(error.message.split(/;\s+/)[i] ?? ''));
    if (!known && (error.status === 401 || error.status === 403)) sentences = [statusSentence(error)!];
    if (!sentences.length) sentences = [asSentence(t('common.errRefused', { status: error.status }))];
  }
  return { sentences, text: sentences.join(' '), details };
}

/** `describeError(error).text`: the sentences alone, for places that show one line (a failed item of a bulk job). */
export function errorSentence(error: unknown): string {
  return describeError(error).text;
}
