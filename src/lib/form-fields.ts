/**
 * Form fields over the contract's own field schemas (docs/style.md, forms: the form schema derives from the contract;
 * issue 6: the product and collection upsert forms). Inputs are what the widgets hold (strings, string lists,
 * key-value rows); outputs are what the request takes, checked by the contract schema passed in.
 *
 * Blank means "not given". On an edit, fields absent from an upsert stay as they were (docs/decisions.md section 7), so a
 * value the record had is cleared by sending `''` where the contract allows it (free text), and emptying a field
 * the contract cannot clear (a URL, a price, a handle) is refused in the form rather than silently kept.
 * Messages use the service's wording without the field's name (`must not be less than 0`, validation-message.ts).
 */
import * as z from 'zod/mini';
import { formatIssues } from '@/api/validation-message';
import '@/api/zod-messages';
import { decimalExample, parseDecimal } from './decimal';
import { type KeyValueRow, toRecord } from './key-value';

/**
 * The message when a field the record had cannot be emptied through an upsert: a predicate in the service's wording,
 * written as a sentence in the language shown by src/lib/error-sentence.ts (`sentences.errCannotClear`).
 */
export const CANNOT_CLEAR = 'cannot be emptied (the service keeps a value it is not sent); enter a new value';

/** The service's wording for the issues of one field, without the field's name: `must not be less than 0`. */
export function fieldMessage(issues: readonly z.core.$ZodIssue[]): string {
  // eslint-disable-next-line no-control-regex -- NUL marks the root path, which no field name holds
  return formatIssues(issues, '\u0000').replace(/(^|; )\u0000 /g, '$1');
}

/** True when a record's current value counts as set (not null, undefined, '' or an empty object). */
export function hasValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (typeof value === 'object' && !Array.isArray(value)) return Object.keys(value).length > 0;
  return true;
}

/** The parse payload a transform gets (`zod/mini` has no `ctx.addIssue`: an issue is pushed onto it). */
type Payload = z.core.ParsePayload;

/** Adds a custom issue with `message` (the wording of the contract or the form) to `ctx`. */
function addIssue(ctx: Payload, message: string): void {
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
}

/** `value` through `schema`: its output, or an issue with the contract's message and `z.NEVER`. */
function check<T extends z.core.$ZodType>(schema: T, value: unknown, ctx: Payload): z.output<T> {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return parsed.data;
  addIssue(ctx, fieldMessage(parsed.error.issues));
  return z.NEVER;
}

/**
 * Options of the optional fields: `was`, the record's current value on an edit (undefined on a create);
 * `clearable`, true when the contract takes `''` (free text), so emptying the field sends `''`.
 */
export type FieldOptions = { was?: unknown; clearable?: boolean };

/** Blank input: undefined, `''` to clear a clearable field the record had, or the CANNOT_CLEAR issue. */
function blank(options: FieldOptions, ctx: Payload): '' | undefined {
  if (!hasValue(options.was)) return undefined;
  if (options.clearable) return '';
  addIssue(ctx, CANNOT_CLEAR);
  return z.NEVER;
}

/** `schema`'s input through `fn`, a transform that may add issues: zod's `schema.transform(fn)`. */
const transformed = <I extends z.core.$ZodType, O>(schema: I, fn: (value: z.output<I>, ctx: Payload) => O) =>
  z.pipe(schema, z.transform(fn));

/** A text input that must be filled: trimmed, then `schema`; blank gives `message`. */
export function requiredText<T extends z.core.$ZodType>(schema: T, message: string) {
  return transformed(z.string(), (raw, ctx) => {
    const text = raw.trim();
    if (!text) {
      addIssue(ctx, message);
      return z.NEVER;
    }
    return check(schema, text, ctx);
  });
}

/** An optional text input: trimmed (kept as typed with `keepSpaces`, for HTML) then `schema`; blank as `FieldOptions` say. */
export function optionalText<T extends z.core.$ZodType>(schema: T, options: FieldOptions & { keepSpaces?: boolean } = {}) {
  return transformed(z.string(), (raw, ctx): z.output<T> | '' | undefined => {
    if (!raw.trim()) return blank(options, ctx);
    return check(schema, options.keepSpaces ? raw : raw.trim(), ctx);
  });
}

/**
 * An optional amount typed as text in the reader's locale (`12.50`, `12,50` in nb-NO or de-DE: `parseDecimal`,
 * issue 14 point 6): a number that must pass `schema`; blank as `FieldOptions` say (never clearable).
 */
export function optionalAmount<T extends z.core.$ZodType>(schema: T, options: Pick<FieldOptions, 'was'> = {}) {
  return transformed(z.string(), (raw, ctx): z.output<T> | undefined => {
    const text = raw.trim();
    if (!text) return blank({ was: options.was }, ctx) as undefined;
    const amount = parseDecimal(text);
    if (amount === null) {
      addIssue(ctx, `must be a number such as ${decimalExample()}`);
      return z.NEVER;
    }
    return check(schema, amount, ctx);
  });
}

/** A list input (tags, ids) checked as a whole by `schema`, so its message shows on the field, not an item. */
export function listField<T extends z.core.$ZodType>(schema: T) {
  return transformed(z.array(z.string()), (values, ctx): z.output<T> => check(schema, values, ctx));
}

/**
 * Key-value rows (`KeyValueEditor`) as the object `schema` checks (`customProperties`). No rows: undefined, or `{}`
 * to clear what the record had (the service replaces the object whole, docs/decisions.md section 7).
 */
export function keyValueField<T extends z.core.$ZodType>(schema: T, options: Pick<FieldOptions, 'was'> = {}) {
  return transformed(z.array(z.custom<KeyValueRow>()), (rows, ctx): z.output<T> | undefined => {
    if (!rows.length) return hasValue(options.was) ? check(schema, {}, ctx) : undefined;
    const result = toRecord(rows);
    if ('error' in result) {
      addIssue(ctx, result.error);
      return z.NEVER;
    }
    return check(schema, result.record, ctx);
  });
}
