import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import * as z from 'zod/mini';
import { ApiError, ApiNetworkError, ApiResponseError } from '@/api/api-error';
import { contactCreateSchema, contactTagsPatchSchema } from '@/api/contacts';
import { formatIssues } from '@/api/validation-message';
import { describeError, errorSentence, fieldSentence, messageSentences } from './error-sentence';

const apiError = (status: number, message: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ status, message, endpoint: 'PATCH /contacts/{contactId}/tags', url: 'http://127.0.0.1/api/contacts/x/tags', traceId: 'trace-1', ...extra });

/** The service's own message for `body` against `schema` (what a 400 carries), as validation-message.ts writes it. */
const wire = (schema: z.core.$ZodType, body: unknown) => {
  const parsed = z.safeParse(schema, body);
  if (parsed.success) throw new Error('expected a failure');
  return formatIssues(parsed.error.issues);
};

describe('messageSentences', () => {
  it.each([
    ['tagsToAdd.0 must be at most 64 characters long', 'A tag can be at most 64 characters.'],
    ['tags.3 must not be empty', "A tag can't be empty."],
    ['tags must contain at most 100 items', 'At most 100 tags are allowed.'],
    ['email must be a valid email address', "The email address isn't valid; it should look like name@example.com."],
    ['phone must be an E.164 number such as +4712345678', "The phone number isn't in international form: start with + and the country code, like +47 123 45 678."],
    ['image must be an absolute http(s) URL', 'The image URL must be a full web address starting with http:// or https://.'],
    ['$limit must not be greater than 30', 'The page size can be at most 30.'],
    ['price must not be less than 0', "The price can't be less than 0."],
    ['price must be a number such as 1,234.5', 'The price must be a number such as 1,234.5.'],
    ['notificationSettings must be one of email, sms, email,sms, none', 'The notification setting must be one of email, sms, email,sms, or none.'],
    ['ctaLink.url must be an absolute http(s) URL', 'The link URL must be a full web address starting with http:// or https://.'],
    ['mediaImageUrls.2 must be an absolute http(s) URL', 'A media image URL must be a full web address starting with http:// or https://.'],
    ['publishDate is required to schedule a post', 'The publish date is required to schedule a post.'],
    ['body needs a non-empty tagsToAdd or tagsToRemove', 'Choose at least one tag to add or remove.'],
    ['body names vip in both tagsToAdd and tagsToRemove', '“vip” can\'t be both added and removed.'],
    ['property foo should not exist', 'The service does not accept the field “foo” here.'],
    ['a contact has at most 100 tags', 'A contact can have at most 100 tags.'],
    ['A contact with email ann@example.com already exists', 'A contact with email ann@example.com already exists.'],
    ['Contact not found', 'This contact no longer exists in this workspace.'],
    ['Missing scope contacts:read-write', "This API key can't do that: it needs the contacts:read-write permission."],
    ["$filter: unexpected token 'eqq' at position 5", "The filter isn't valid: unexpected token 'eqq' at position 5."],
    ['collectionIds: unknown collection 42', 'The collection 42 does not exist in this workspace.'],
    // Hosted services' class-validator wordings.
    ['tagsToAdd.0 must be shorter than or equal to 64 characters', 'A tag can be at most 64 characters.'],
    ['name should not be empty', "The name can't be empty."],
    ['each value in tagsToAdd must be shorter than or equal to 64 characters', 'A tag can be at most 64 characters.'],
    // Unknown wording on a known field keeps its predicate, led by the field's name; unknown text stays as it is.
    ['ctaLink.url must be reachable from the service', 'The link URL must be reachable from the service.'],
    ['something odd happened', 'Something odd happened.'],
  ])('%s', (message, sentence) => {
    expect(messageSentences(message)).toEqual([sentence]);
  });

  it('splits a joined message into one sentence per problem, each once', () => {
    expect(messageSentences('tagsToAdd.0 must be at most 64 characters long; tagsToAdd.1 must be at most 64 characters long; email must be a valid email address')).toEqual([
      'A tag can be at most 64 characters.',
      "The email address isn't valid; it should look like name@example.com.",
    ]);
  });

  it('turns the service\'s real validation messages into sentences (the messages come from the shared contract)', () => {
    expect(messageSentences(wire(contactTagsPatchSchema, { tagsToAdd: ['x'.repeat(65)] }))).toEqual(['A tag can be at most 64 characters.']);
    expect(messageSentences(wire(contactTagsPatchSchema, {}))).toEqual(['Choose at least one tag to add or remove.']);
    expect(messageSentences(wire(contactCreateSchema, { name: 'x'.repeat(1001) }))).toEqual(['The name can be at most 1,000 characters.']);
    expect(messageSentences(wire(contactCreateSchema, { follows: 1, bogus: true }))).toEqual(['The service does not accept the field “bogus” here.']);
  });
});

describe('a too-long tag is named (issue 34 point 9)', () => {
  const long = `winter-${'x'.repeat(60)}`;
  it('names the tag the refusal is about, from the body that was sent', () => {
    expect(messageSentences('tags.1 must be at most 64 characters long', { tags: ['vip', long] })).toEqual([`The tag “${long}” is longer than 64 characters.`]);
    expect(messageSentences(wire(contactTagsPatchSchema, { tagsToAdd: ['ok', long] }), { tagsToAdd: ['ok', long] })).toEqual([`The tag “${long}” is longer than 64 characters.`]);
    expect(describeError(apiError(400, 'tagsToAdd.0 must be at most 64 characters long', { sent: { tagsToAdd: [long] } })).text).toBe(`The tag “${long}” is longer than 64 characters.`);
    expect(fieldSentence('tags.0', 'must be at most 64 characters', { tags: [long] })).toBe(`The tag “${long}” is longer than 64 characters.`);
  });

  it('reads zod\'s own wording too, as a form\'s resolver gives it', () => {
    expect(fieldSentence('tags.1', 'Too big: expected string to have <=64 characters', { tags: ['vip', long] })).toBe(`The tag “${long}” is longer than 64 characters.`);
    expect(fieldSentence('name', 'Too big: expected string to have <=1000 characters')).toBe('The name can be at most 1,000 characters.');
  });

  it('quotes a very long tag by its start, and says it generally when the tag is not known', () => {
    expect(messageSentences('tags.0 must be at most 64 characters long', { tags: ['y'.repeat(500)] })).toEqual([`The tag “${'y'.repeat(79)}…” is longer than 64 characters.`]);
    expect(messageSentences('tags.3 must be at most 64 characters long', { tags: [] })).toEqual(['A tag can be at most 64 characters.']);
    expect(messageSentences('name must be at most 1000 characters long', { name: 'x' })).toEqual(['The name can be at most 1,000 characters.']);
  });
});

describe('fieldSentence', () => {
  it('writes a form field\'s own message as a sentence', () => {
    expect(fieldSentence('tags.0', 'must not be empty')).toBe("A tag can't be empty.");
    expect(fieldSentence('email', 'must be a valid email address')).toMatch(/^The email address isn't valid/);
  });
});

describe('describeError', () => {
  it('keeps the wire text, endpoint and trace id as details', () => {
    const report = describeError(apiError(400, 'tagsToAdd.0 must be at most 64 characters long'));
    expect(report.text).toBe('A tag can be at most 64 characters.');
    expect(report.details).toEqual({ status: 400, endpoint: 'PATCH /contacts/{contactId}/tags', message: 'tagsToAdd.0 must be at most 64 characters long', traceId: 'trace-1' });
    expect(report.text).not.toMatch(/400|tagsToAdd/);
  });

  it.each([
    [apiError(429, 'ThrottlerException: Too Many Requests', { retryAfter: 7 }), 'The service is receiving too many requests. Wait 7 seconds and try again.'],
    [apiError(500, 'Internal server error'), /^The service had an unexpected problem/],
    [apiError(503, 'HTTP 503 Service Unavailable: upstream down'), 'The service is not available right now (HTTP 503). Try again in a moment.'],
    [apiError(413, 'Payload Too Large'), 'That is too large to send: the service takes at most 2 MB at once.'],
    [apiError(401, 'Invalid API key'), 'The service refused the API key: it may be mistyped or revoked.'],
    [apiError(403, 'Forbidden resource'), "This API key isn't allowed to do that."],
    [apiError(403, 'nope'), "This API key isn't allowed to do that."],
    [new ApiNetworkError({ status: 0, message: 'Network error: GET http://x could not be reached', endpoint: 'GET /contacts', url: 'http://x' }), /^Could not reach the service/],
    [new ApiResponseError({ status: 200, message: 'GET /contacts answered an unexpected shape: items.0.id must be a string', endpoint: 'GET /contacts', url: 'http://x' }), /form this console does not understand/],
  ])('%s', (error, expected) => {
    const { text } = describeError(error);
    if (typeof expected === 'string') expect(text).toBe(expected);
    else expect(text).toMatch(expected);
  });

  it('gives an error of the console itself as a sentence with no details', () => {
    expect(describeError(new Error('needs Basic credentials'))).toEqual({ sentences: ['Needs Basic credentials.'], text: 'Needs Basic credentials.', details: null });
    expect(errorSentence('boom')).toBe('Boom.');
  });
});

describe('in Norwegian (issue 23)', () => {
  afterAll(() => activateLocale('en'));
  it('writes the same problems as Norwegian sentences, plurals included', async () => {
    await activateLocale('nb');
    expect(messageSentences('tagsToAdd.0 must be at most 64 characters long')).toEqual(['En merkelapp kan ha høyst 64 tegn.']);
    expect(messageSentences('tagsToAdd.0 must be at most 64 characters long', { tagsToAdd: ['x'.repeat(65)] })).toEqual([`Merkelappen «${'x'.repeat(65)}» er lengre enn 64 tegn.`]);
    expect(messageSentences('notificationSettings must be one of email, sms, none')).toEqual(['Varslingsinnstillingen må være email, sms eller none.']);
    expect(errorSentence(apiError(429, 'Too Many Requests', { retryAfter: 1 }))).toBe('Tjenesten får for mange forespørsler. Vent 1 sekund og prøv igjen.');
  });
});
