/**
 * Maps a server's 400/409 message onto form fields (STYLE.md, forms): the service joins several problems with
 * `; ` and starts each with the field's path (`email must be a valid email address`, `tags.0 must not be empty`)
 * or names it (`A contact with email ann@example.com already exists`, decisions.md section 3). What names no
 * known field goes to `root`.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@/api/api-error';

/** The form field a single server message is about, among `fields`, or null. */
export function fieldOfMessage(message: string, fields: readonly string[]): string | null {
  const duplicate = /^A \w+ with (\w+) /.exec(message);
  if (duplicate && fields.includes(duplicate[1]!)) return duplicate[1]!;
  const property = /^property ([\w.]+) should not exist/.exec(message);
  const path = property ? property[1]! : (message.split(/[\s:]/)[0] ?? '');
  const head = path.split('.')[0] ?? '';
  return fields.includes(head) ? head : null;
}

/** Puts each part of `error`'s message on its field; returns true when the error was an API error. */
export function applyServerErrors<Values extends FieldValues>(error: unknown, setError: UseFormSetError<Values>, fields: readonly string[]): boolean {
  if (!isApiError(error)) {
    setError('root' as Path<Values>, { message: error instanceof Error ? error.message : String(error) });
    return false;
  }
  const rest: string[] = [];
  for (const part of error.message.split('; ')) {
    const field = fieldOfMessage(part, fields);
    if (field) setError(field as Path<Values>, { type: 'server', message: part });
    else rest.push(part);
  }
  if (rest.length) setError('root' as Path<Values>, { type: 'server', message: `${error.status}: ${rest.join('; ')}` });
  return true;
}
