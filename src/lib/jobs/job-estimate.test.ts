import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FREE_PERIOD_MS, WINDOW_PERIOD_MS, type RateEstimate, observe, startEstimate, timeLeft, waitReason } from './job-estimate';

const budget60 = { limit: 60, reserve: 0.2 };

/** Feeds `rates` (steps a second, one a sample of `period`) from `total` steps; returns each sample's time, steps left and estimate. */
function run(rates: number[], total: number, period: number, start = 1_000_000) {
  let estimate: RateEstimate = startEstimate(start, 0);
  let at = start;
  let settled = 0;
  const seen: { at: number; left: number; estimate: RateEstimate }[] = [];
  for (const rate of rates) {
    at += period;
    settled = Math.min(total, settled + rate * (period / 1000));
    estimate = observe(estimate, at, settled, period);
    seen.push({ at, left: total - settled, estimate });
  }
  return seen;
}

describe('job time estimates (issue 34 point 6)', () => {
  it('a rate that jitters moves the expected finish by less than the range said before it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 50, noNaN: true }),
        fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 3, maxLength: 40 }),
        fc.constantFrom(FREE_PERIOD_MS, WINDOW_PERIOD_MS),
        (rate, jitters, period) => {
          const total = Math.ceil(rate * (period / 1000) * (jitters.length + 5));
          const budget = period === WINDOW_PERIOD_MS ? { limit: Math.ceil(rate * 60 * 2), reserve: 0.2 } : null;
          const seen = run(jitters.map((j) => rate * (1 + j)), total, period);
          for (let k = 1; k + 1 < seen.length; k += 1) {
            const before = seen[k]!;
            const after = seen[k + 1]!;
            const said = timeLeft(before.estimate, before.left, budget)!;
            const now = timeLeft(after.estimate, after.left, budget)!;
            const finish = after.at + ((now.low + now.high) / 2) * 1000;
            expect(finish).toBeGreaterThanOrEqual(before.at + said.low * 1000 - 1);
            expect(finish).toBeLessThanOrEqual(before.at + said.high * 1000 + 1);
          }
        },
      ),
    );
  });

  it.each([
    // A key of 60 a minute: 48 steps in a burst, then a wait for the refill; sampled by the minute it is steady.
    { name: 'bursts of 48 a minute', period: WINDOW_PERIOD_MS, rates: [0.8, 0.8, 0.8, 0.8, 0.8], rate: 0.8 },
    { name: 'a steady 100 a second', period: FREE_PERIOD_MS, rates: [100, 100, 100], rate: 100 },
  ])('$name gives a rate of $rate', ({ period, rates, rate }) => {
    const seen = run(rates, 10_000, period);
    expect(seen.at(-1)!.estimate.rate).toBeCloseTo(rate, 5);
  });

  it('bursts and waits of a key of 60 a minute: every range holds the true finish and the next estimate', () => {
    // 48 steps in the first 5 s of each minute, nothing for 55 s, 3,000 steps: done in minute 63 (62 x 48 = 2,976).
    const trueFinish = 62 * 60 + 3;
    let estimate = startEstimate(0, 0);
    const said: { low: number; high: number; mid: number }[] = [];
    for (let second = 1; second <= 600; second += 1) {
      const settled = Math.floor(second / 60) * 48 + Math.min(48, (second % 60) * 10);
      estimate = observe(estimate, second * 1000, settled, WINDOW_PERIOD_MS);
      const left = timeLeft(estimate, 3000 - settled, budget60)!;
      said.push({ low: second + left.low, high: second + left.high, mid: second + (left.low + left.high) / 2 });
    }
    for (const [k, range] of said.entries()) {
      expect(trueFinish).toBeGreaterThanOrEqual(range.low);
      expect(trueFinish).toBeLessThanOrEqual(range.high);
      const next = said[k + 1];
      if (next) expect(next.mid).toBeGreaterThanOrEqual(range.low);
      if (next) expect(next.mid).toBeLessThanOrEqual(range.high);
    }
  });

  it('before any sample the estimate is the job’s share of the budget, widely', () => {
    const left = timeLeft(startEstimate(0, 0), 2970, budget60)!;
    // 48 a minute at most: 2,970 steps are at least 62 minutes.
    expect(left.rate).toBeCloseTo(0.8);
    expect(left.low).toBeLessThan(2970 / 0.8);
    expect(left.high).toBeGreaterThan(2970 / 0.8);
    expect(timeLeft(startEstimate(0, 0), 10, null)).toBeNull();
  });

  it('a wait for a 429 or a lost connection is not read as a slow rate, and is added to what is left', () => {
    let estimate = observe(startEstimate(0, 0), 5000, 50, FREE_PERIOD_MS);
    estimate = observe(estimate, 65_000, 50, FREE_PERIOD_MS, true);
    expect(estimate.rate).toBe(10);
    estimate = observe(estimate, 70_000, 100, FREE_PERIOD_MS);
    expect(estimate.rate).toBeCloseTo(10);
    const plain = timeLeft(estimate, 100, null)!;
    const waiting = timeLeft(estimate, 100, null, 30_000)!;
    expect(waiting.low - plain.low).toBeCloseTo(30);
  });

  it.each([
    { name: 'offline browser', online: false, waitingUntil: null, budget: null, reason: 'offline' },
    { name: 'a 429 waited out', online: true, waitingUntil: 5000, budget: { throttledUntil: 5000 }, reason: 'throttled' },
    { name: 'a lost answer waited out', online: true, waitingUntil: 5000, budget: {}, reason: 'offline' },
    { name: 'the budget down to the reserve', online: true, waitingUntil: null, budget: { remaining: 12, resetAt: 40_000 }, reason: 'budget' },
    { name: 'a job request held back here', online: true, waitingUntil: null, budget: { waiting: { job: 1 } }, reason: 'budget' },
    { name: 'room left', online: true, waitingUntil: null, budget: { remaining: 30, resetAt: 40_000 }, reason: null },
  ])('says why a job waits: $name', ({ online, waitingUntil, budget, reason }) => {
    const view = budget ? { limit: 60, remaining: 60, resetAt: null, throttledUntil: 0, reserve: 0.2, waiting: { job: 0 }, ...budget } : null;
    expect(waitReason({ state: 'running', waitingUntil }, view, online, 1000)).toBe(reason);
    expect(waitReason({ state: 'paused', waitingUntil }, view, online, 1000)).toBeNull();
  });
});
