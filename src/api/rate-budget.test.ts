import { describe, expect, it } from 'vitest';
import { createRateBudget, isBudgetSkipped } from './rate-budget';

const headers = (limit: number, remaining: number, reset: number) =>
  new Headers({ 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) });

describe('the minimal rate budget', () => {
  it('sends every priority while a service sends no rate-limit headers', async () => {
    const budget = createRateBudget();
    budget.observe(200, new Headers());
    await expect(budget.admit('speculative')).resolves.toBeUndefined();
    expect(budget.state()).toBeNull();
  });

  it('refuses a speculative request at or under the 20% reserve, but still sends the person\'s', async () => {
    let clock = 1_000;
    const budget = createRateBudget({ now: () => clock });
    budget.observe(200, headers(60, 13, 30));
    await expect(budget.admit('speculative')).resolves.toBeUndefined(); // 13 > 12, counted down to 12
    const refused = await budget.admit('speculative').catch((error: unknown) => error);
    expect(isBudgetSkipped(refused)).toBe(true);
    await expect(budget.admit('person')).resolves.toBeUndefined();
    expect(budget.state()?.remaining).toBe(11);
    clock += 30_000; // the window refills
    await expect(budget.admit('speculative')).resolves.toBeUndefined();
  });

  it('holds a job until the window refills instead of spending the reserve', async () => {
    const budget = createRateBudget({ reserve: 0.5 });
    budget.observe(200, headers(10, 5, 0.2 as unknown as number)); // not an integer: reset defaults to 60 s
    const controller = new AbortController();
    const job = budget.admit('job', controller.signal);
    let settled = false;
    void job.then(() => (settled = true), () => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    controller.abort();
    await expect(job).rejects.toBeDefined();
  });

  it('reads a 429 without headers as an empty window for Retry-After seconds', async () => {
    const budget = createRateBudget({ now: () => 0 });
    budget.observe(429, new Headers({ 'Retry-After': '7' }));
    expect(budget.state()).toEqual({ limit: 60, remaining: 0, resetAt: 7000 });
    await expect(budget.admit('speculative')).rejects.toThrow(/Skipped/);
  });
});
