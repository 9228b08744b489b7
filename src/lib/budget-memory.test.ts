import { afterEach, describe, expect, it } from 'vitest';
import { type RateBudget, createRateBudget } from '@/api/rate-budget';
import { keepBudget, keptReading } from './budget-memory';

const NAME = 'workspace-admin.budget.0123abcd';

/** A tab's sessionStorage in memory (the tests run in Node, which has none). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** An answer of the service with its rate-limit headers: `remaining` of `limit` left, the window ending in `reset` s. */
function answer(limit: number, remaining: number, reset: number): Response {
  return new Response('{}', { headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) } });
}

const open: RateBudget[] = [];
function budget(options: Parameters<typeof createRateBudget>[0] = {}) {
  const made = createRateBudget(options);
  open.push(made);
  return made;
}
afterEach(() => {
  for (const made of open.splice(0)) made.close();
});

describe('a budget kept across a reload', () => {
  it("is saved as the last reading, with the window's reset as epoch ms", async () => {
    const storage = memoryStorage();
    const before = budget();
    keepBudget(NAME, before, storage);
    expect(storage.getItem(NAME)).toBeNull(); // nothing known yet, nothing kept
    const start = Date.now();
    await before.run('job', async () => answer(10, 1, 8));
    const kept = JSON.parse(storage.getItem(NAME)!) as Record<string, number>;
    expect(kept).toMatchObject({ limit: 10, remaining: 1 });
    expect(kept.resetAt).toBeGreaterThanOrEqual(start + 8_000);
    expect(kept.resetAt).toBeLessThanOrEqual(Date.now() + 8_000);
    // Sent but not yet answered counts too: a reload in the middle of a request must not send it twice over.
    void before.run('person', () => new Promise<Response>(() => undefined));
    expect(keptReading(NAME, Date.now(), storage)).toMatchObject({ limit: 10, remaining: 0 });
  });

  it('is restored by the budget of the reloaded page, whose first request then waits for the window instead of meeting a 429', async () => {
    const storage = memoryStorage();
    const before = budget();
    keepBudget(NAME, before, storage);
    await before.run('job', async () => answer(10, 0, 8)); // a job spent the window
    before.close(); // the reload

    const initial = keptReading(NAME, Date.now(), storage);
    expect(initial).toMatchObject({ limit: 10, remaining: 0 });
    const after = budget({ initial: initial! });
    expect(after.allows('person')).toBe(false);
    expect(after.state()).toMatchObject({ limit: 10, remaining: 0, resetAt: initial!.resetAt });
    // Unrestored, the same page would have sent at once.
    expect(budget().allows('person')).toBe(true);
  });

  it('expires by itself once its window has ended, or when the clock went back', () => {
    const storage = memoryStorage();
    const now = Date.UTC(2026, 11, 1, 12, 0, 0);
    storage.setItem(NAME, JSON.stringify({ limit: 10, remaining: 0, resetAt: now + 5_000, savedAt: now - 3_000 }));
    expect(keptReading(NAME, now, storage)).toEqual({ limit: 10, remaining: 0, resetAt: now + 5_000 });
    expect(keptReading(NAME, now + 5_000, storage)).toBeUndefined(); // the window refilled
    expect(keptReading(NAME, now - 4_000, storage)).toBeUndefined(); // kept "later" than now
  });

  it('is removed once the budget knows no window, and ignored when unreadable', async () => {
    let now = Date.now();
    const storage = memoryStorage();
    const made = budget({ now: () => now });
    keepBudget(NAME, made, storage, () => now);
    await made.run('person', async () => answer(10, 9, 1));
    expect(storage.getItem(NAME)).not.toBeNull();
    now += 1_500;
    made.setReserve(0.2); // any change: the budget reads its window as refilled
    expect(storage.getItem(NAME)).toBeNull();

    for (const text of ['not json', 'null', '[]', JSON.stringify({ limit: 10, remaining: 11, resetAt: now + 1_000, savedAt: now }), JSON.stringify({ limit: 0, remaining: 0, resetAt: now + 1_000, savedAt: now })]) {
      storage.setItem(NAME, text);
      expect(keptReading(NAME, now, storage), text).toBeUndefined();
    }
  });

  it('keeps nothing and restores nothing without a storage (Node, or storage refused)', async () => {
    const made = budget();
    const stop = keepBudget(NAME, made, undefined);
    await made.run('person', async () => answer(10, 5, 5));
    stop();
    expect(keptReading(NAME, Date.now(), undefined)).toBeUndefined();
  });
});
