/**
 * Tags that differ only in case (issue 13: "no silent `VIP` beside `vip`"). The service keeps tags as typed and
 * compares them exactly (docs/decisions.md section 7), so `VIP` and `vip` would be two tags; the console never makes a
 * second spelling of a tag the workspace already has: it offers the existing one first, and a typed variant that
 * still reaches a list becomes the existing spelling.
 */

/** The existing tag that `typed` matches ignoring case but not exactly (`VIP` -> `vip`), or null. */
export function caseVariantOf(typed: string, existing: readonly string[]): string | null {
  const text = typed.trim();
  if (!text || existing.includes(text)) return null;
  const lower = text.toLowerCase();
  return existing.find((tag) => tag.toLowerCase() === lower) ?? null;
}

/**
 * `tags` with each case variant of an existing tag written as that tag, trimmed, and repeats (ignoring case)
 * dropped, first one kept: `['VIP', 'new', 'vip']` with `vip` existing gives `['vip', 'new']`.
 */
export function canonicalTags(tags: readonly string[], existing: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = caseVariantOf(raw, existing) ?? raw.trim();
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** `existing` with the case variant of `typed` first (the suggestion to offer), or unchanged when there is none. */
export function suggestionsFor(typed: string, existing: readonly string[]): readonly string[] {
  const match = caseVariantOf(typed, existing);
  return match ? [match, ...existing.filter((tag) => tag !== match)] : existing;
}
