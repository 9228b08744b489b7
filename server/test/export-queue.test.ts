/**
 * The export queue (issue 21 point 2; export/export-slots.ts) on its own, with a clock of the test's: at most
 * `limit` exports at once, first come first served through tickets, positions and a `Retry-After` estimated
 * from the exports ahead, lapsed tickets dropped.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { DEFAULT_EXPORT_CONCURRENCY, ExportSlots, INITIAL_EXPORT_SECONDS, MAX_RETRY_AFTER_SECONDS, TICKET_GRACE_SECONDS } from '../export/export-slots';

/** The 503 `take` throws, as headers and message. */
function refusal(slots: ExportSlots, workspace: string, ticket?: string) {
  try {
    slots.take(workspace, ticket);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    expect(error.statusCode).toBe(503);
    const headers = error.headers as Record<string, string>;
    return { ticket: headers['Export-Ticket']!, position: Number(headers['Export-Queue-Position']), retryAfter: Number(headers['Retry-After']), message: error.message };
  }
  throw new Error('the export was admitted');
}

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('the export queue', () => {
  it('runs three exports at once by default', () => {
    expect(DEFAULT_EXPORT_CONCURRENCY).toBe(3);
    const slots = new ExportSlots(DEFAULT_EXPORT_CONCURRENCY);
    for (let i = 0; i < 3; i++) slots.take('w');
    expect(refusal(slots, 'w').position).toBe(1);
  });

  it('serves first come, first served: a freed slot is held for the head ticket, not taken by a newcomer', () => {
    const time = clock();
    const slots = new ExportSlots(2, time.now);
    const a = slots.take('w1');
    slots.take('w2');
    const c = refusal(slots, 'w3');
    const d = refusal(slots, 'w4');
    expect([c.position, d.position]).toEqual([1, 2]);
    expect(c.message).toBe(
      `Export queued: position 1 of 1 waiting; this server runs at most 2 exports at once. Try again in ${c.retryAfter} seconds with the header Export-Ticket: ${c.ticket} to keep your place`,
    );
    a(true);
    // The slot is C's: a newcomer queues behind D, and D (second) still waits.
    expect(refusal(slots, 'w5').position).toBe(3);
    expect(refusal(slots, 'w4', d.ticket)).toMatchObject({ position: 2, ticket: d.ticket });
    slots.take('w3', c.ticket); // C's turn
    expect(slots.place(d.ticket)?.position).toBe(1);
    expect(slots.counts).toEqual({ running: 2, waiting: 2 });
  });

  it('admits a ticket holder ahead of its turn only when a slot is free for everyone before it', () => {
    const slots = new ExportSlots(3);
    const running = [slots.take('w'), slots.take('w'), slots.take('w')];
    const waiting = [refusal(slots, 'w'), refusal(slots, 'w'), refusal(slots, 'w')];
    running[0]!(true);
    running[1]!(true);
    expect(refusal(slots, 'w', waiting[2]!.ticket).position).toBe(3); // 2 free slots, 2 tickets ahead
    slots.take('w', waiting[1]!.ticket); // 2 free slots, 1 ticket ahead: there is one for each
    expect(slots.place(waiting[0]!.ticket)?.position).toBe(1);
  });

  it('ignores a ticket of another workspace or an unknown one: the export joins the end', () => {
    const slots = new ExportSlots(1);
    slots.take('w1');
    const first = refusal(slots, 'w1');
    expect(refusal(slots, 'w2', first.ticket)).toMatchObject({ position: 2 });
    expect(refusal(slots, 'w2', 'not-a-ticket')).toMatchObject({ position: 3 });
    expect(slots.place(first.ticket)?.position).toBe(1);
  });

  it('estimates Retry-After from the exports ahead and the measured duration of finished ones', () => {
    const time = clock();
    const slots = new ExportSlots(2, time.now);
    expect(slots.averageSeconds).toBe(INITIAL_EXPORT_SECONDS);
    const first = slots.take('w');
    time.advance(4);
    first(true); // 4 s: the average moves toward it
    expect(slots.averageSeconds).toBeCloseTo(0.7 * INITIAL_EXPORT_SECONDS + 0.3 * 4);
    const average = slots.averageSeconds; // 8.2 s
    slots.take('w');
    slots.take('w');
    time.advance(2);
    // Both slots free at start + average (6.2 s from now); the first waiting export gets the first of them...
    expect(refusal(slots, 'w').retryAfter).toBe(Math.ceil(average - 2));
    // ...the second the other, the third the first slot again after the first waiting one ran an average.
    expect(refusal(slots, 'w').retryAfter).toBe(Math.ceil(average - 2));
    expect(refusal(slots, 'w').retryAfter).toBe(Math.ceil(2 * average - 2));
    // An abandoned export does not count in the average.
    const before = slots.averageSeconds;
    const other = new ExportSlots(1, time.now);
    other.take('w')(false);
    expect(other.averageSeconds).toBe(INITIAL_EXPORT_SECONDS);
    expect(slots.averageSeconds).toBe(before);
  });

  it('caps Retry-After at MAX_RETRY_AFTER_SECONDS and gives at least 1 second', () => {
    const time = clock();
    const slots = new ExportSlots(1, time.now);
    slots.take('w');
    const places = Array.from({ length: 10 }, () => refusal(slots, 'w'));
    expect(places[0]!.retryAfter).toBe(INITIAL_EXPORT_SECONDS);
    expect(places[9]!.retryAfter).toBe(MAX_RETRY_AFTER_SECONDS);
    time.advance(15); // the running export is past its expected end (10 s): at least 1 s
    expect(refusal(slots, 'w', places[0]!.ticket).retryAfter).toBe(1);
  });

  it('drops a ticket whose holder does not come back within Retry-After plus the grace, and keeps one that does', () => {
    const time = clock();
    const slots = new ExportSlots(1, time.now);
    slots.take('w');
    const gone = refusal(slots, 'w');
    const kept = refusal(slots, 'w');
    for (let i = 0; i < 5; i++) {
      time.advance(kept.retryAfter);
      refusal(slots, 'w', kept.ticket); // renews it
    }
    time.advance(gone.retryAfter + TICKET_GRACE_SECONDS); // `gone` lapsed long ago (after 40 s), `kept` was renewed
    expect(slots.place(gone.ticket)).toBeNull();
    expect(refusal(slots, 'w', kept.ticket).position).toBe(1);
  });
});
