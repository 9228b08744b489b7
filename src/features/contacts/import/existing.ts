/**
 * Existing contacts as the plan's look-ups find them (issue 20 point 3), by lower-cased email and by phone. Framework-free,
 * without the cleaning's dependencies.
 */
import type { Contact } from '@/api/contacts';

/** The lower-case form emails are compared in (docs/decisions.md section 7: the same email in any letter case is one contact). */
export const emailKey = (email: string) => email.toLowerCase();

/** Existing contacts found by the look-ups, by lower-cased email and by phone. */
export type Existing = { byEmail: Map<string, Pick<Contact, 'id' | 'tags'>>; byPhone: Map<string, Pick<Contact, 'id' | 'tags'>> };

/** An `Existing` with nothing found yet. */
export const emptyExisting = (): Existing => ({ byEmail: new Map(), byPhone: new Map() });

/**
 * Indexes contacts answered by the look-ups (emails compared in lower case, whatever the service did), keeping only
 * their id and tags: what the plan needs. With `existing`, adds to it and returns it: the look-ups index each answer as
 * it comes, so the whole contacts found (about 1 KB each as objects) are not kept until the last look-up.
 */
export function indexExisting(contacts: Iterable<Pick<Contact, 'id' | 'tags' | 'email' | 'phone'>>, existing: Existing = emptyExisting()): Existing {
  for (const { id, tags, email, phone } of contacts) {
    const kept = { id, tags };
    if (email && !existing.byEmail.has(emailKey(email))) existing.byEmail.set(emailKey(email), kept);
    if (phone && !existing.byPhone.has(phone)) existing.byPhone.set(phone, kept);
  }
  return existing;
}

/**
 * The tag an import gives the contacts that existed before it (`import-2026-11-28-updated`), so that the import's own
 * tag holds only the contacts it created and erasing "every contact of the import" cannot erase a customer who was
 * merged (issue 34 point 1). Cut to the contract's 64 characters of a tag.
 */
export function updatedTag(importTag: string): string {
  const suffix = '-updated';
  return importTag.slice(0, 64 - suffix.length) + suffix;
}
