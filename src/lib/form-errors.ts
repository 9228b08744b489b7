/**
 * Maps a server's 400/409 message onto form fields (docs/style.md, forms): the service joins several problems with
 * `; ` and starts each with the field's path (`email must be a valid email address`, `tags.0 must not be empty`)
 * or names it (`A contact with email ann@example.com already exists`, docs/decisions.md section 3). What names no
 * known field goes to `root`. Every message is written as a sentence (issue 13, src/lib/error-sentence.ts); the
 * wire text and trace id stay on the error itself, which the form shows under "Details" for a `root` error of
 * type `server`.
 */
import type { FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@/api/api-error';
import { describeError, fieldSentence, loadErrorSentences, messageSentences } from './error-sentence';

/** The form field a single server message is about, among `fields`, or null. */
export function fieldOfMessage(message: string, fields: readonly string[]): string | null {
  const duplicate = /^A \w+ with (\w+) /.exec(message);
  if (duplicate && fields.includes(duplicate[1]!)) return duplicate[1]!;
  const property = /^property ([\w.]+) should not exist/.exec(message);
  const path = property ? property[1]! : (message.split(/[\s:]/)[0] ?? '');
  const head = path.split('.')[0] ?? '';
  return fields.includes(head) ? head : null;
}

/**
 * Puts each part of `error`'s message, as a sentence, on its field (the first one focused, which scrolls it into
 * view, when `focus` is true), and the rest on `root` with type `server`. A failure that is no 400 or 409 (a
 * network error, a 5xx, a 429) goes to `root` whole. Resolves to the fields that got a message, once the `sentences`
 * catalog is loaded (issue 23).
 */
export async function applyServerErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly string[],
  options: { focus?: boolean } = {},
): Promise<string[]> {
  await loadErrorSentences();
  const root = (message: string) => setError('root' as Path<Values>, { type: 'server', message });
  if (!isApiError(error) || (error.status !== 400 && error.status !== 409)) {
    root(describeError(error).text);
    return [];
  }
  const rest: string[] = [];
  const byField = new Map<string, string[]>();
  for (const part of error.message.split(/;\s+/)) {
    const field = fieldOfMessage(part, fields);
    const sentences = messageSentences(part, error.sent);
    if (field) byField.set(field, [...(byField.get(field) ?? []), ...sentences]);
    else rest.push(...sentences);
  }
  let first = options.focus ?? false;
  for (const [field, sentences] of byField) {
    setError(field as Path<Values>, { type: 'server', message: [...new Set(sentences)].join(' ') }, { shouldFocus: first });
    first = false;
  }
  if (rest.length) root([...new Set(rest)].join(' '));
  return [...byField.keys()];
}

/**
 * `errors` with every field's message written as a sentence about that field (`price` + `must not be less than 0`);
 * `values`, the form's, let a sentence name a value (a too-long tag).
 */
function sentences(errors: Record<string, unknown>, path: readonly string[], values: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (typeof value !== 'object' || value === null || key === 'ref' || key === 'types') {
      out[key] = value;
      continue;
    }
    const next = [...path, key];
    const error = sentences(value as Record<string, unknown>, next, values);
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string' && message && !/^[A-Z“"].*[.!?]$/.test(message)) error.message = fieldSentence(next.filter((part) => part !== 'root').join('.'), message, values);
    out[key] = error;
  }
  return out;
}

/**
 * A resolver whose field messages are sentences (issue 13): wraps a form's resolver (`zodResolver(schema)`, whose
 * messages are the contract's predicates, `must not be less than 0`) and writes each as `fieldSentence` does
 * (`The price can't be less than 0.`). A message that already is a sentence is kept.
 */
export function withSentences<Values extends FieldValues, Context, Output>(resolver: Resolver<Values, Context, Output>): Resolver<Values, Context, Output> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    if (Object.keys(result.errors).length) await loadErrorSentences();
    return Object.keys(result.errors).length ? { values: {}, errors: sentences(result.errors, [], values) as FieldErrors<Values> } : result;
  };
}
