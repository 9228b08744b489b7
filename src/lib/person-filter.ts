/**
 * How the console looks a person up among contacts, shared by the contacts page's search box (issue 13) and the
 * header's search across workspaces (issue 24 point 6): name or email contains the text, or the phone contains it
 * typed as a phone number; and, for "everything about this person" (point 7), the exact email or phone.
 * Built with the shared AST builders (docs/style.md), on fields docs/decisions.md section 6 allows on `GET /contacts`.
 */
import { type FilterNode, compare, literalLike, or } from '@/api/filter/ast';

/**
 * The search text as a phone number, for a contains match on the stored E.164 form (`+4712345678`, docs/decisions.md
 * section 7): what was typed without spaces, dashes, dots, slashes and brackets, a leading `+` kept, when that
 * leaves only digits (`+47 123 45` gives `+4712345`, `12 34` gives `1234`); otherwise null (issue 13).
 */
export function phoneSearchTerm(text: string): string | null {
  const compact = text.replace(/[\s\-./()]/g, '');
  return /^\+?\d+$/.test(compact) ? compact : null;
}

/** The search box: name or email contains the text (matched literally), or the phone contains it as a phone number. */
export function personSearchFilter(text: string): FilterNode {
  const phone = phoneSearchTerm(text);
  const like = literalLike(text);
  return or(compare('name', 'like', like), compare('email', 'like', like), phone ? compare('phone', 'like', phone) : undefined);
}

/**
 * The contacts that are this person: the same email (as written, and lower-cased when that differs) or the same
 * phone; undefined when neither is given.
 */
export function samePersonFilter(person: { email?: string | null; phone?: string | null }): FilterNode | undefined {
  const email = person.email?.trim();
  const phone = person.phone?.trim();
  const lower = email?.toLowerCase();
  return or(
    email ? compare('email', 'eq', email) : undefined,
    lower && lower !== email ? compare('email', 'eq', lower) : undefined,
    phone ? compare('phone', 'eq', phone) : undefined,
  );
}
