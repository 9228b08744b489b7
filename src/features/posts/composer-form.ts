/**
 * The composer's form model (issue 7), framework-free so it is unit-tested:
 * - `composerSchema`: the form's zod schema, derived from the contract (`postRequestSchema` and its object
 *   schemas in src/api/posts.ts): each field reuses the contract's own field schema, blank strings standing for
 *   "not given", and the finished body is checked by `postRequestSchema` itself, so the form can never accept what
 *   the service refuses (or drift from it). `.pick` is not used because the contract object carries refinements,
 *   which zod 4 refuses to pick from; reading `.shape` is the equivalent;
 * - `COMPOSER_DEFAULTS`: a default for every field (arrays too), so a fresh form is never dirty;
 * - `toPostRequest`: form values to the `POST /post-requests` body (the schedule's wall time, read in the chosen
 *   time zone, to UTC ISO; issue 23 point 9);
 * - `serverErrorFields`: a 400 message (`publishDate must be in the future…; ctaLink.url must be…`) split onto
 *   form fields, the rest to `root`;
 * - `parseDraft`: a saved draft read back leniently (a damaged or older draft gives defaults, never a crash).
 */
import dayjs from 'dayjs';
import * as z from 'zod/mini';
import { t } from '@/i18n/i18n';
import { zonedToUtc } from './zoned-time';
import { POST_ACTIONS, type PostRequest, authorSchema, buttonSchema, ctaLinkSchema, postRequestSchema } from '@/api/posts';

const wire = postRequestSchema.shape;

/** Most characters in a post's text, from the contract's `max_length` check. */
export const TEXT_MAX: number = wire.text.def.innerType._zod.bag.maximum ?? 10_000;
/** Most media images in one post, read from the contract's `max_length` check (20). */
export const MEDIA_MAX: number =
  wire.mediaImageUrls.def.innerType._zod.def.checks
    ?.map((check) => check._zod.def as { check: string; maximum?: number })
    .find((def) => def.check === 'max_length')?.maximum ?? 20;

/** `''` (not given) or a value the contract's `schema` accepts, with the contract's own message otherwise. */
const blankOr = (schema: z.ZodMiniType<string, string>) =>
  z.string().check(
    z.superRefine((value, ctx) => {
      if (value === '') return;
      const parsed = schema.safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    }),
  );
const httpUrl = wire.imageUrl.def.innerType;

/** A recipient contact as the form keeps it: the id sent, and the label shown. */
export type RecipientContact = { id: string; label: string };

/** The fields of the form (input and output are the same shape: strings, booleans and arrays). */
const composerObject = z.object({
  action: wire.action,
  header: wire.header.def.innerType,
  text: wire.text.def.innerType,
  imageUrl: blankOr(httpUrl),
  mediaImageUrls: z.array(z.object({ url: httpUrl })).check(z.maxLength(MEDIA_MAX, { error: () => t('posts.formTooManyImages', { max: MEDIA_MAX }) })),
  /** Local date-time from the picker, `YYYY-MM-DD HH:mm:ss` in the user's time zone; `''` for none. */
  publishDate: z.string(),
  ctaLink: z.object({
    url: blankOr(ctaLinkSchema.shape.url),
    title: ctaLinkSchema.shape.title.def.innerType,
    description: ctaLinkSchema.shape.description.def.innerType,
    imageUrl: blankOr(ctaLinkSchema.shape.imageUrl.def.innerType),
  }),
  button: z.object({ text: z.string().check(z.maxLength(100)), url: blankOr(buttonSchema.shape.url) }),
  author: z.object({ name: z.string().check(z.maxLength(255)), imageUrl: blankOr(authorSchema.shape.imageUrl.def.innerType) }),
  recipients: z.object({ tags: z.array(z.string()), contacts: z.array(z.object({ id: z.string(), label: z.string() })) }),
  notificationSettings: z.object({ email: z.boolean(), sms: z.boolean() }),
});

export type ComposerValues = z.infer<typeof composerObject>;

/** A default for every field: a fresh form equals these, so it is not dirty. */
export const COMPOSER_DEFAULTS: ComposerValues = {
  action: 'publish',
  header: '',
  text: '',
  imageUrl: '',
  mediaImageUrls: [],
  publishDate: '',
  ctaLink: { url: '', title: '', description: '', imageUrl: '' },
  button: { text: '', url: '' },
  author: { name: '', imageUrl: '' },
  recipients: { tags: [], contacts: [] },
  notificationSettings: { email: false, sms: false },
};

/**
 * The picker's wall time `YYYY-MM-DD HH:mm[:ss]` as the UTC ISO string sent (`2026-07-01T10:00:00.000Z`), or null:
 * read in `timeZone` (an IANA name, issue 23 point 9; zoned-time.ts) when given, else in the browser's zone.
 */
export function localToUtcIso(local: string, timeZone?: string): string | null {
  if (!local.trim()) return null;
  if (timeZone) return zonedToUtc(local, timeZone)?.toISOString() ?? null;
  const parsed = dayjs(local);
  return parsed.isValid() ? parsed.toISOString() : null;
}

/** True when the post names recipients (it is then private and never listed publicly). */
export function hasFormRecipients(values: Pick<ComposerValues, 'recipients'>): boolean {
  return values.recipients.tags.length > 0 || values.recipients.contacts.length > 0;
}

const given = (value: string) => (value.trim() ? value.trim() : undefined);

/**
 * The `POST /post-requests` body for the form's values: blank fields left out, objects only when something in
 * them is given, `publishDate` converted to UTC (and never sent with `publish`), recipients as
 * `{ tags, contactIds }` (absent when empty: the post is public), notification settings always explicit.
 */
export function toPostRequest(values: ComposerValues, timeZone?: string): PostRequest {
  const request: PostRequest = { action: values.action };
  const header = given(values.header);
  if (header) request.header = header;
  if (values.text.trim()) request.text = values.text;
  const imageUrl = given(values.imageUrl);
  if (imageUrl) request.imageUrl = imageUrl;
  const media = values.mediaImageUrls.map((item) => item.url.trim());
  if (media.length) request.mediaImageUrls = media;
  const publishDate = values.action === 'publish' ? null : localToUtcIso(values.publishDate, timeZone);
  if (publishDate) request.publishDate = publishDate;

  const cta = values.ctaLink;
  if (given(cta.url) || given(cta.title) || given(cta.description) || given(cta.imageUrl)) {
    request.ctaLink = { url: cta.url.trim() };
    if (given(cta.title)) request.ctaLink.title = cta.title.trim();
    if (given(cta.description)) request.ctaLink.description = cta.description.trim();
    if (given(cta.imageUrl)) request.ctaLink.imageUrl = cta.imageUrl.trim();
  }
  if (given(values.button.text) || given(values.button.url)) request.button = { text: values.button.text.trim(), url: values.button.url.trim() };
  if (given(values.author.name) || given(values.author.imageUrl)) {
    request.author = { name: values.author.name.trim() };
    if (given(values.author.imageUrl)) request.author.imageUrl = values.author.imageUrl.trim();
  }
  if (hasFormRecipients(values)) {
    request.recipients = {};
    if (values.recipients.tags.length) request.recipients.tags = values.recipients.tags;
    if (values.recipients.contacts.length) request.recipients.contactIds = values.recipients.contacts.map((contact) => contact.id);
  }
  request.notificationSettings = { email: values.notificationSettings.email, sms: values.notificationSettings.sms };
  return request;
}

/** A form field a message can be attached to (react-hook-form path), or `root`. */
export type ComposerField =
  | 'action' | 'header' | 'text' | 'imageUrl' | `mediaImageUrls.${number}.url` | 'mediaImageUrls' | 'publishDate'
  | 'ctaLink.url' | 'ctaLink.title' | 'ctaLink.description' | 'ctaLink.imageUrl' | 'button.text' | 'button.url'
  | 'author.name' | 'author.imageUrl' | 'recipients' | 'notificationSettings' | 'root';

/** Where a path of the request body shows in the form (`mediaImageUrls.2` -> `mediaImageUrls.2.url`). */
export function formFieldOf(path: readonly PropertyKey[]): ComposerField {
  const [head, next] = path.map(String);
  switch (head) {
    case 'action': case 'header': case 'text': case 'imageUrl': case 'publishDate':
      return head;
    case 'mediaImageUrls':
      return next !== undefined && /^\d+$/.test(next) ? `mediaImageUrls.${Number(next)}.url` : 'mediaImageUrls';
    case 'ctaLink':
      return next === 'title' || next === 'description' || next === 'imageUrl' ? `ctaLink.${next}` : 'ctaLink.url';
    case 'button':
      return next === 'url' ? 'button.url' : 'button.text';
    case 'author':
      return next === 'imageUrl' ? 'author.imageUrl' : 'author.name';
    case 'recipients':
      return 'recipients';
    case 'notificationSettings':
      return 'notificationSettings';
    default:
      return 'root';
  }
}

/**
 * Friendlier wording of the contract's messages, for the form (the service's own messages stay as sent): the form's
 * own sentences in the language shown (the `posts` catalog area, issue 23); the contract's predicates (`is required`)
 * are written as sentences in that language by the resolver's `withSentences` (src/lib/form-errors.ts).
 */
function formMessage(issue: z.core.$ZodIssue): string {
  if (issue.path.length === 0) return t('posts.formNeedsContent');
  if (issue.path[0] === 'button' && issue.path[1] === 'text') return t('posts.formButtonNeedsText');
  if (issue.path[0] === 'author' && issue.path[1] === 'name') return t('posts.formAuthorNeedsName');
  if (issue.path[0] === 'ctaLink' && issue.path[1] === 'url' && issue.code === 'invalid_type') return t('posts.formLinkNeedsUrl');
  return issue.message.replace(/^Invalid input: expected string, received undefined$/, 'is required');
}

/**
 * The form schema: the fields above, then the cross-field rules of the contract, checked by running
 * `postRequestSchema` on the body the form would send; plus a schedule time in the future (the service's rule,
 * checked here before sending). `now` is read at validation time. `timeZone`: the zone the publish time is read
 * in (default the browser's). Messages are read at validation time, in the language shown.
 */
export const composerSchemaFor = (timeZone?: string) => composerObject.check(z.superRefine((values, ctx) => {
  if (values.action === 'schedule') {
    const iso = localToUtcIso(values.publishDate, timeZone);
    if (!iso) ctx.addIssue({ code: 'custom', path: ['publishDate'], message: t('posts.formPickPublishTime') });
    else if (new Date(iso).getTime() <= Date.now()) ctx.addIssue({ code: 'custom', path: ['publishDate'], message: t('posts.formPublishTimePassed') });
  }
  const parsed = postRequestSchema.safeParse(toPostRequest(values, timeZone));
  if (parsed.success) return;
  // Fields the checks above already flagged keep their own message; the contract adds the rest.
  const flagged = new Set(ctx.issues.map((issue) => (issue.path ?? []).join('.')));
  for (const issue of parsed.error.issues) {
    const field = formFieldOf(issue.path);
    const path = field === 'root' ? 'text' : field;
    if (flagged.has(path)) continue;
    flagged.add(path);
    ctx.addIssue({ code: 'custom', path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message: formMessage(issue) });
  }
}));

/** The form schema reading the publish time in the browser's zone. */
export const composerSchema = composerSchemaFor();

/**
 * Wording for zod's built-in checks in the form (pass to the resolver): `must be at most 500 characters long`
 * rather than zod's `Too big: expected string to have <=500 characters`. Other issues keep their message.
 */
export function composerErrorMap(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'too_big') return issue.origin === 'array' ? `at most ${String(issue.maximum)} items` : `must be at most ${String(issue.maximum).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} characters long`;
  return undefined;
}

/**
 * A service 400 message split onto form fields: each `; `-separated part that starts with a field path of the
 * request (`publishDate must be…`, `ctaLink.url must be…`, `recipients: unknown contact …`) goes to that field,
 * anything else (`property foo should not exist`, `body …`) to `root`. Parts for the same field are joined.
 */
export function serverErrorFields(message: string): { field: ComposerField; message: string }[] {
  const byField = new Map<ComposerField, string[]>();
  for (const part of message.split('; ').map((text) => text.trim()).filter(Boolean)) {
    const match = /^([A-Za-z]+(?:\.[A-Za-z0-9]+)*):?\s/.exec(part);
    const field = match ? formFieldOf(match[1]!.split('.')) : 'root';
    byField.set(field, [...(byField.get(field) ?? []), part]);
  }
  return [...byField].map(([field, parts]) => ({ field, message: parts.join('; ') }));
}

const str = z.catch(z.string(), '');
const draftSchema = z.object({
  action: z.catch(z.enum(POST_ACTIONS), 'publish'),
  header: str,
  text: str,
  imageUrl: str,
  mediaImageUrls: z.catch(z.array(z.object({ url: str })).check(z.maxLength(MEDIA_MAX)), []),
  publishDate: str,
  ctaLink: z.catch(z.object({ url: str, title: str, description: str, imageUrl: str }), COMPOSER_DEFAULTS.ctaLink),
  button: z.catch(z.object({ text: str, url: str }), COMPOSER_DEFAULTS.button),
  author: z.catch(z.object({ name: str, imageUrl: str }), COMPOSER_DEFAULTS.author),
  recipients: z.catch(
    z.object({ tags: z.catch(z.array(z.string()), []), contacts: z.catch(z.array(z.object({ id: z.string(), label: z.string() })), []) }),
    COMPOSER_DEFAULTS.recipients,
  ),
  notificationSettings: z.catch(z.object({ email: z.catch(z.boolean(), false), sms: z.catch(z.boolean(), false) }), COMPOSER_DEFAULTS.notificationSettings),
});

/** Saved draft values read back: each damaged part falls back to its default; not an object gives null. */
export function parseDraft(value: unknown): ComposerValues | null {
  if (typeof value !== 'object' || value === null) return null;
  const parsed = draftSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** True when the values equal the defaults (nothing worth keeping as a draft). */
export function isBlank(values: ComposerValues): boolean {
  return JSON.stringify(values) === JSON.stringify(COMPOSER_DEFAULTS);
}

/**
 * A short description of a post for the history: its header, else the start of its text, else empty (an image-only
 * post), which the history words when it shows it, in the language shown then (issue 23).
 */
export function postSummary(values: Pick<ComposerValues, 'header' | 'text'>): string {
  const base = values.header.trim() || values.text.trim().replace(/\s+/g, ' ');
  return base.length > 60 ? `${base.slice(0, 59)}…` : base;
}

