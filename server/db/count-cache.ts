/**
 * Values (exact counts for `meta.maxResults`, tag counts) (`meta.maxResults`) cached per workspace, data version and canonical filter, so a page
 * costs one indexed read instead of a count over a million rows (issue 2). The version is bumped in the same
 * transaction as every write to the counted rows, so a stale count is never served, across processes too.
 */
export class VersionedCache<Value = number> {
  private readonly entries = new Map<string, Value>();
  constructor(private readonly maxEntries = 2000) {}

  /** The cached count for `key`, or the result of `count()` stored under it. */
  async get(key: string, count: () => Promise<Value>): Promise<Value> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = await count();
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}
