import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/api-error';
import { MAX_BUSY_WAIT_SECONDS, busyRetrySeconds, busyText, waitUnlessAborted, withBusyRetries } from './export-retry';

const answer = (status: number, retryAfter: number | null, exportQueue: { ticket: string; position: number } | null = null) =>
  new ApiError({ status, message: 'Too many exports in progress', retryAfter, exportQueue, endpoint: 'GET /contacts', url: 'http://x/api/contacts' });

describe('busyRetrySeconds', () => {
  it('waits the Retry-After of a 503, at least 1 s and at most the cap', () => {
    expect(busyRetrySeconds(answer(503, 10))).toBe(10);
    expect(busyRetrySeconds(answer(503, 0))).toBe(1);
    expect(busyRetrySeconds(answer(503, 2.2))).toBe(3);
    expect(busyRetrySeconds(answer(503, 3600))).toBe(MAX_BUSY_WAIT_SECONDS);
  });

  it('does not retry a 503 without Retry-After, another status, or an error that is no answer', () => {
    expect(busyRetrySeconds(answer(503, null))).toBeNull();
    expect(busyRetrySeconds(answer(500, 10))).toBeNull();
    expect(busyRetrySeconds(answer(429, 10))).toBeNull();
    expect(busyRetrySeconds(new Error('boom'))).toBeNull();
  });
});

describe('busyText', () => {
  it('counts down in whole seconds, never below 1', () => {
    expect(busyText(8)).toBe('The service is busy with another export; retrying in 8 s');
    expect(busyText(7.2)).toBe('The service is busy with another export; retrying in 8 s');
    expect(busyText(0)).toBe('The service is busy with another export; retrying in 1 s');
  });

  it('says the place in the queue when the service gave one (issue 21 point 2)', () => {
    expect(busyText(4.5, 1)).toBe('Your export is next in line; trying again in 5 s');
    expect(busyText(12, 3)).toBe('Your export is number 3 in line; trying again in 12 s');
  });
});

describe('waitUnlessAborted', () => {
  it('resolves after the time, and rejects at once with the abort reason when cancelled', async () => {
    await expect(waitUnlessAborted(5, new AbortController().signal)).resolves.toBeUndefined();
    const controller = new AbortController();
    const waiting = waitUnlessAborted(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(waitUnlessAborted(1, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('withBusyRetries', () => {
  it('waits out each busy answer, reporting the wait, then returns the success', async () => {
    const waits: unknown[] = [];
    let tries = 0;
    const result = await withBusyRetries(
      async () => {
        tries++;
        if (tries < 3) throw answer(503, 0);
        return 'file';
      },
      new AbortController().signal,
      (wait) => waits.push(wait),
    );
    expect(result).toBe('file');
    expect(tries).toBe(3);
    expect(waits).toEqual([{ seconds: 1, position: null }, null, { seconds: 1, position: null }, null]);
  });

  it('sends the queue ticket of the last busy answer back on each retry and reports the position (issue 21 point 2)', async () => {
    const waits: unknown[] = [];
    const tickets: (string | undefined)[] = [];
    const places = [{ ticket: 't-1', position: 3 }, { ticket: 't-1', position: 1 }];
    const result = await withBusyRetries(
      async (ticket) => {
        tickets.push(ticket);
        const place = places.shift();
        if (place) throw answer(503, 0, place);
        return 'file';
      },
      new AbortController().signal,
      (wait) => waits.push(wait),
    );
    expect(result).toBe('file');
    expect(tickets).toEqual([undefined, 't-1', 't-1']);
    expect(waits).toEqual([{ seconds: 1, position: 3 }, null, { seconds: 1, position: 1 }, null]);
  });

  it('rethrows any other failure at once, and stops waiting when cancelled', async () => {
    await expect(withBusyRetries(() => Promise.reject(answer(500, 10)), new AbortController().signal, () => {})).rejects.toMatchObject({ status: 500 });
    const controller = new AbortController();
    const waiting = withBusyRetries(() => Promise.reject(answer(503, 30)), controller.signal, () => controller.abort());
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
