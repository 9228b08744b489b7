/**
 * Contacts (endpoints 2 to 6): request and response shapes with the checks of docs/decisions.md section 7.
 * Requests are strict (an unknown field is a 400); responses are loose (hosted services add fields).
 */
import * as z from 'zod/mini';
import { DEFAULT_PAGE_CAPS, httpUrl, isoTime, listEnvelope, listQuery, tagListSchema } from './common';

/** Contact states (docs/decisions.md section 7). */
export const CONTACT_STATES = ['pending', 'active'] as const;
export type ContactState = (typeof CONTACT_STATES)[number];

/** Values of `notificationSettings` on create (docs/decisions.md section 7). */
export const NOTIFICATION_CHOICES = ['email', 'sms', 'email,sms', 'none'] as const;

/** Removes spaces, dashes and brackets from a phone number, as docs/decisions.md section 7 says before the E.164 check. */
export function normalizePhone(phone: string): string {
  return phone.replace(/[\s\-()[\]]/g, '');
}

const E164 = /^\+[1-9]\d{1,14}$/;

/** A phone number that is E.164 once normalised; parses to the normalised form (`+4712345678`). */
export const phoneSchema = z
  .pipe(z.string(), z.transform(normalizePhone))
  .check(z.refine((phone) => E164.test(phone), { error: 'must be an E.164 number such as +4712345678' }));

const text = (max = 1000) => z.string().check(z.maxLength(max));
/**
 * A JSON value whose serialisation is at most `maxBytes` (statusTags, follows: shapes not shown, so capped).
 * A value nested too deeply to serialise (JSON.stringify overflows the stack, e.g. 100,000 nested arrays in a
 * 2 MB body) is refused with a 400 rather than thrown as a 500.
 */
const boundedJson = <T extends z.ZodMiniType>(schema: T, maxBytes = 16 * 1024) =>
  schema.check(
    z.superRefine((value, ctx) => {
      let json: string;
      try {
        json = JSON.stringify(value ?? null);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        ctx.addIssue({ code: 'custom', message: 'is nested too deeply' });
        return;
      }
      if (json.length > maxBytes) ctx.addIssue({ code: 'custom', message: `must be at most ${maxBytes / 1024} KiB as JSON` });
    }),
  );

/** `POST /contacts` body. */
export const contactCreateSchema = z.strictObject({
  name: z.optional(text()),
  phone: z.optional(phoneSchema),
  email: z.optional(z.email({ error: 'must be a valid email address' }).check(z.maxLength(320))),
  source: z.optional(text()),
  systemSource: z.optional(text()),
  addDirectly: z.optional(z.boolean()),
  useEmailByDefault: z.optional(z.boolean()),
  tags: z.optional(tagListSchema),
  statusTags: z.optional(boundedJson(z.record(z.string(), z.unknown()))),
  follows: z.optional(boundedJson(z.unknown())),
  bio: z.optional(text(5000)),
  image: z.optional(httpUrl()),
  address: z.optional(text()),
  city: z.optional(text()),
  postalCode: z.optional(text()),
  region: z.optional(text()),
  customMessage: z.optional(text(5000)),
  notificationSettings: z.optional(z.enum(NOTIFICATION_CHOICES)),
});
export type ContactCreate = z.input<typeof contactCreateSchema>;
export type ContactCreateParsed = z.output<typeof contactCreateSchema>;

/** `POST /contacts` 201 response. */
export const contactCreateResponseSchema = z.looseObject({
  id: z.string(),
  state: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  image: z.nullable(z.string()),
});
export type ContactCreateResponse = z.infer<typeof contactCreateResponseSchema>;

export const notificationSettingsSchema = z.looseObject({ email: z.boolean(), sms: z.boolean() });

/** An item of `GET /contacts` (docs/decisions.md section 7). */
export const contactSchema = z.looseObject({
  id: z.string(),
  feedId: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  image: z.nullable(z.string()),
  bio: z.nullable(z.string()),
  address: z.nullable(z.string()),
  city: z.nullable(z.string()),
  postalCode: z.nullable(z.string()),
  region: z.nullable(z.string()),
  source: z.nullable(z.string()),
  systemSource: z.nullable(z.string()),
  customMessage: z.nullable(z.string()),
  state: z.string(),
  tags: z.array(z.string()),
  statusTags: z.nullable(z.record(z.string(), z.unknown())),
  follows: z.unknown(),
  notificationSettings: notificationSettingsSchema,
  created: isoTime,
  updated: isoTime,
});
export type Contact = z.infer<typeof contactSchema>;

export const contactListSchema = listEnvelope(contactSchema);
export const contactListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: true });

/** An item of `GET /contacts/contacts-tags`: `{ name, count }`. */
export const contactTagSchema = z.looseObject({ name: z.string(), count: z.number().check(z.int()) });
export type ContactTag = z.infer<typeof contactTagSchema>;
export const contactTagListSchema = z.array(contactTagSchema);

/** `PATCH /contacts/{id}/tags` body: at least one non-empty list, no tag in both (docs/decisions.md section 7). */
export const contactTagsPatchSchema = z.strictObject({ tagsToAdd: z.optional(tagListSchema), tagsToRemove: z.optional(tagListSchema) }).check(
  z.superRefine((body, ctx) => {
    if (!body.tagsToAdd?.length && !body.tagsToRemove?.length) {
      ctx.addIssue({ code: 'custom', path: [], message: 'needs a non-empty tagsToAdd or tagsToRemove' });
    }
    const both = (body.tagsToAdd ?? []).filter((tag) => body.tagsToRemove?.includes(tag));
    if (both.length) ctx.addIssue({ code: 'custom', path: [], message: `names ${both.join(', ')} in both tagsToAdd and tagsToRemove` });
  }),
);
export type ContactTagsPatch = z.input<typeof contactTagsPatchSchema>;

/** `PATCH /contacts/{id}/notification-settings` body: `{ email?, sms? }`, at least one. */
export const notificationSettingsPatchSchema = z
  .strictObject({ email: z.optional(z.boolean()), sms: z.optional(z.boolean()) })
  .check(z.refine((body) => body.email !== undefined || body.sms !== undefined, { error: 'needs email or sms' }));
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

/** `PATCH /contacts/{id}/notification-settings` 200 response: the contact. */
export const notificationSettingsResponseSchema = z.looseObject({
  id: z.string(),
  feedId: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  image: z.nullable(z.string()),
  state: z.string(),
});

/** Media types of the spreadsheet export of `GET /contacts` (docs/decisions.md section 7). */
export const CSV_MEDIA_TYPE = 'text/csv';
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Export columns, in order (docs/decisions.md section 7). */
export const CONTACT_EXPORT_COLUMNS = [
  'id', 'name', 'email', 'phone', 'state', 'tags', 'source', 'address', 'city', 'postalCode', 'region', 'created', 'updated',
] as const;
