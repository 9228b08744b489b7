/**
 * The contacts feature's step kinds (contact-steps.ts) run by the durable job runner (src/lib/jobs/step-runner.ts)
 * against the real service. Moved here from the engine's folder (src/lib/jobs) with its assertions unchanged when the
 * engine's kinds became handlers the features register (issue 38 point 4): src/lib may not import a feature, and
 * these runs exercise the contacts' kinds; the engine's own test of a kind registered in a test is
 * src/lib/jobs/step-kinds.test.ts.
 *
 * The durable job runner against the real service (server/test/harness.ts) through the typed client, with its
 * state in IndexedDB (fake-indexeddb, a fresh database per test): a job runs to exactly the expected records and
 * outcomes with an Idempotency-Key on every write; a stopped job resumes where it stopped; a step whose answer was
 * lost (a dropped connection, a tab that died after sending) is looked up before it is sent again, so nothing is
 * created twice; a 409 is "exists"; a refused key stops the job; the key's budget keeps the person's reserve.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../../server/test/harness';
import { type ApiClient, createApiClient } from '@/api/client';
import { compare, or } from '@/api/filter/ast';
import { createRateBudget } from '@/api/rate-budget';
import { loadReport, reportTableCsv } from '@/lib/jobs/job-report';
import { type JobStore, createStore } from '@/lib/jobs/job-store';
import type { JobSpec, StepRecord } from '@/lib/jobs/job-types';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from './contact-jobs';
import { KeyRefusedError, runJob, stepKey } from '@/lib/jobs/step-runner';
import { contactStepHandlers, lookupFilter } from './contact-steps';

// The contacts feature's step kinds and job kinds in the engine's tables, as src/app/kinds.ts registers them in the
// console.
registerStepHandlers(...contactStepHandlers);
registerJobKinds(...contactJobKinds);

let server: TestServer;
let limited: TestServer;
/** Writes seen by the service: method, path, Idempotency-Key. */
const writes: { method: string; url: string; key: string | null }[] = [];
/** When it returns true for a write, the request reaches the service but its answer is dropped (a lost answer). */
let dropAnswer: ((url: string, init: RequestInit | undefined) => boolean) | null = null;

function clientFor(target: TestServer, key = target.a.key, options: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: target.baseUrl,
    apiKey: key,
    fetch: async (input, init) => {
      if (init?.method && init.method !== 'GET') {
        writes.push({ method: init.method, url: String(input), key: new Headers(init.headers).get('idempotency-key') });
        if (dropAnswer?.(String(input), init)) {
          await fetch(input, init);
          throw new TypeError('fetch failed');
        }
      }
      return fetch(input, init);
    },
    ...options,
  });
}

let api: ApiClient;
let store: JobStore;
let serial = 0;

const contact = (name: string) => {
  serial += 1;
  return { name, email: `${name.toLowerCase()}.${serial}@example.com` };
};
const count = async (filter = compare('name', 'like', 'Runner')) => (await api.listContacts({ limit: 1, filter })).meta.maxResults;
const steps = async (jobId: string) => {
  const all: StepRecord[] = [];
  await store.eachStep(jobId, (step) => all.push(step));
  return all;
};

beforeAll(async () => {
  [server, limited] = await Promise.all([startServer(), startServer({ rateLimitPerMinute: 10 })]);
  api = clientFor(server);
}, 60_000);
afterAll(async () => {
  await Promise.all([server.close(), limited.close()]);
});
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await createStore();
  writes.length = 0;
  dropAnswer = null;
});

describe('runJob', () => {
  it('creates and tags exactly as planned, each write with its own stable Idempotency-Key, and stores every outcome', async () => {
    const existing = await api.createContact({ ...contact('RunnerOld'), tags: ['keep'] });
    const spec: JobSpec = {
      kind: 'contacts-import',
      title: 'Import runner.csv',
      steps: [
        ...Array.from({ length: 30 }, (_, i) => ({ kind: 'create-contact' as const, body: { ...contact(`RunnerNew${i}`), tags: ['imported'] }, rows: [i + 2] })),
        { kind: 'patch-tags', contactId: existing.id, tagsToAdd: ['imported'], tagsToRemove: [], rows: [40] },
      ],
    };
    const job = await store.addJob(server.a.id, spec);
    writes.length = 0;
    const seen: number[] = [];
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 8, onProgress: (record) => seen.push(record.settled) })).toBe('done');

    const stored = await store.getJob(job.id);
    expect(stored).toMatchObject({ state: 'done', settled: 31, position: 31, counts: { created: 30, tagged: 1, exists: 0, failed: 0 } });
    expect(Math.max(...seen)).toBe(31);
    expect(await count(compare('tags', 'eq', 'imported'))).toBe(31);
    expect(writes).toHaveLength(31);
    expect(new Set(writes.map((write) => write.key)).size).toBe(31);
    expect(writes.map((write) => write.key).sort()).toEqual(Array.from({ length: 31 }, (_, i) => stepKey(job.id, i)).sort());
    const outcomes = await steps(job.id);
    expect(outcomes.every((step) => step.status === 'settled')).toBe(true);
    expect(outcomes[0]!.outcome).toMatchObject({ kind: 'created', id: expect.any(String) });
    expect(outcomes[30]!.outcome).toEqual({ kind: 'tagged' });
  });

  it('stops when asked without leaving a step unknown, and a later run resumes at the position: nothing twice, nothing missing', async () => {
    const names = Array.from({ length: 60 }, (_, i) => contact(`RunnerResume${i}`));
    const job = await store.addJob(server.a.id, { kind: 'contacts-import', title: 'Resume', steps: names.map((body) => ({ kind: 'create-contact' as const, body })) });
    const stop = new AbortController();
    const first = await runJob({
      store,
      client: api,
      jobId: job.id,
      concurrency: 4,
      stop: stop.signal,
      onProgress: (record) => record.settled >= 20 && stop.abort(),
    });
    expect(first).toBe('stopped');
    const halfway = (await store.getJob(job.id))!;
    expect(halfway.state).toBe('running');
    expect(halfway.settled).toBeGreaterThanOrEqual(20);
    expect(halfway.settled).toBeLessThan(60);
    expect(await store.sentSteps(job.id)).toEqual([]); // the steps in flight finished and were stored
    expect(halfway.position).toBe(halfway.settled);

    writes.length = 0;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 4 })).toBe('done');
    expect(writes).toHaveLength(60 - halfway.settled);
    expect(await count(compare('name', 'like', 'RunnerResume'))).toBe(60);
    expect((await store.getJob(job.id))!.counts.created).toBe(60);
  });

  it('looks a create up before sending it again when its answer was lost in flight, so the contact is created once', async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => contact(`RunnerLost${i}`));
    const job = await store.addJob(server.a.id, { kind: 'contacts-import', title: 'Lost', steps: bodies.map((body) => ({ kind: 'create-contact' as const, body })) });
    let dropped = 0;
    dropAnswer = (url, init) => url.endsWith('/contacts') && String(init?.body).includes('RunnerLost3') && dropped++ === 0;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 2, sleep: async () => undefined })).toBe('done');
    expect(dropped).toBe(1);
    expect(await count(compare('name', 'like', 'RunnerLost'))).toBe(10);
    const lostStep = (await steps(job.id))[3]!;
    expect(lostStep.outcome).toMatchObject({ kind: 'created', recovered: true });
    expect(writes.filter((write) => write.key === stepKey(job.id, 3))).toHaveLength(1); // found by the look-up, not sent again
    expect((await store.getJob(job.id))!.counts).toMatchObject({ created: 10, failed: 0 });
  });

  it('checks on resume a step stored as sent whose answer never came (the tab died): found, it is not sent again; not found, it is sent', async () => {
    const sentAndCreated = contact('RunnerCrashA');
    const sentNotArrived = contact('RunnerCrashB');
    const job = await store.addJob(server.a.id, {
      kind: 'contacts-import',
      title: 'Crash',
      steps: [sentAndCreated, sentNotArrived, contact('RunnerCrashC')].map((body) => ({ kind: 'create-contact' as const, body })),
    });
    // What a tab that died leaves: steps 0 and 1 stored as sent; only step 0's request reached the service.
    const stored = await steps(job.id);
    await store.writer.put({ ...stored[0]!, status: 'sent' });
    await store.writer.put({ ...stored[1]!, status: 'sent' });
    await api.createContact(sentAndCreated);
    await store.transition(job.id, ['queued'], 'running');

    expect(await runJob({ store, client: api, jobId: job.id })).toBe('done');
    expect(await count(compare('name', 'like', 'RunnerCrash'))).toBe(3);
    const after = await steps(job.id);
    expect(after[0]!.outcome).toMatchObject({ kind: 'created', recovered: true });
    expect(after[1]!.outcome).toMatchObject({ kind: 'created' });
    expect(after[1]!.outcome).not.toHaveProperty('recovered');
    expect(writes.map((write) => write.key)).toEqual(expect.arrayContaining([stepKey(job.id, 1), stepKey(job.id, 2)]));
    expect(writes.some((write) => write.key === stepKey(job.id, 0) && write.method === 'POST')).toBe(false);
  });

  it('counts a create answered 409 (the contact exists) as "exists" with its id, and a refused body as failed with a sentence', async () => {
    const taken = contact('RunnerTaken');
    const existing = await api.createContact(taken);
    const job = await store.addJob(server.a.id, {
      kind: 'contacts-import',
      title: 'Conflicts',
      steps: [
        { kind: 'create-contact', body: { ...taken, email: taken.email.toUpperCase() } },
        { kind: 'create-contact', body: { name: 'RunnerBad', email: 'not-an-email' } },
      ],
    });
    expect(await runJob({ store, client: api, jobId: job.id })).toBe('done');
    const [first, second] = await steps(job.id);
    expect(first!.outcome).toMatchObject({ kind: 'exists', reason: expect.stringMatching(/already/i) });
    expect([existing.id, null]).toContain((first!.outcome as { id: string | null }).id);
    expect(second!.outcome).toMatchObject({ kind: 'failed', status: 400, reason: expect.stringMatching(/\.$/) });
    expect((await store.getJob(job.id))!.counts).toMatchObject({ exists: 1, failed: 1, created: 0 });
  });

  it('stops with KeyRefusedError when the service refuses the key, leaving the step to be sent again later', async () => {
    const job = await store.addJob(server.a.id, { kind: 'contacts-import', title: 'Bad key', steps: [{ kind: 'create-contact', body: contact('RunnerKey') }] });
    await expect(runJob({ store, client: clientFor(server, 'wsk_not-a-key'), jobId: job.id })).rejects.toBeInstanceOf(KeyRefusedError);
    expect((await store.getJob(job.id))!.settled).toBe(0);
    expect(await store.sentSteps(job.id)).toHaveLength(1);
    expect(await runJob({ store, client: api, jobId: job.id })).toBe('done');
    expect(await count(compare('name', 'like', 'RunnerKey'))).toBe(1);
  });

  it('leaves nothing of another state alone: a paused or cancelled job does not run', async () => {
    const job = await store.addJob(server.a.id, { kind: 'contacts-import', title: 'Paused', steps: [{ kind: 'create-contact', body: contact('RunnerPaused') }] });
    await store.transition(job.id, ['queued'], 'paused');
    expect(await runJob({ store, client: api, jobId: job.id })).toBe('stopped');
    expect(writes).toHaveLength(0);
  });

  it('reads the steps a window at a time: 247 tag patches in windows of 50 (the last one short) all sent once', async () => {
    // Windows of 50 rather than the 500 a job reads: the same reading of five whole windows and a short one, a fifth of
    // the requests (1,234 patches in windows of 500 took most of this file's time).
    const target = await api.createContact(contact('RunnerMany'));
    const many = Array.from({ length: 247 }, (_, i) => ({ kind: 'patch-tags' as const, contactId: target.id, tagsToAdd: [`t${i % 3}`], tagsToRemove: [] }));
    const job = await store.addJob(server.a.id, { kind: 'bulk-tags', title: 'Many', steps: many });
    writes.length = 0;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 16, window: 50 })).toBe('done');
    expect(writes).toHaveLength(247);
    expect(new Set(writes.map((write) => write.key)).size).toBe(247);
    expect((await store.getJob(job.id))!.counts.tagged).toBe(247);
  }, 60_000);

  it('marks steps sent a batch at a time, each before its request leaves, and puts the marked but unsent back to pending on stop', async () => {
    const target = await api.createContact(contact('RunnerMarks'));
    const many = Array.from({ length: 96 }, (_, i) => ({ kind: 'patch-tags' as const, contactId: target.id, tagsToAdd: [`m${i % 4}`], tagsToRemove: [] }));
    const job = await store.addJob(server.a.id, { kind: 'bulk-tags', title: 'Marks', steps: many });
    const markBatches: number[] = [];
    const putMany = store.writer.putMany;
    store.writer.putMany = (records) => {
      if (records.every((record) => record.status === 'sent')) markBatches.push(records.length);
      return putMany(records);
    };
    // The status each step had in IndexedDB when its request left.
    const statusAtSend: string[] = [];
    const client = clientFor(server, server.a.key, {
      fetch: async (input, init) => {
        const key = new Headers(init?.headers).get('idempotency-key');
        if (key) statusAtSend.push((await store.db.get('steps', [job.id, Number(key.split('.')[1])]))!.status);
        return fetch(input, init);
      },
    });
    const stop = new AbortController();
    expect(await runJob({ store, client, jobId: job.id, concurrency: 8, stop: stop.signal, onProgress: (record) => record.settled >= 40 && stop.abort() })).toBe('stopped');
    expect(statusAtSend.length).toBeGreaterThanOrEqual(40);
    expect(new Set(statusAtSend)).toEqual(new Set(['sent']));
    // 8 steps a transaction (the first batches fill the pool): far fewer transactions than steps.
    expect(markBatches.length).toBeLessThan(statusAtSend.length / 2);
    expect(Math.max(...markBatches)).toBe(8);
    expect(await store.sentSteps(job.id)).toEqual([]);
    const halfway = (await store.getJob(job.id))!;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 8 })).toBe('done');
    const after = (await store.getJob(job.id))!;
    expect(after.counts.tagged).toBe(96);
    expect(after.settled - halfway.settled).toBe(96 - halfway.settled);
  });

  it('paces its writes by the key budget: at 10 a minute it stops at the person reserve and the person is still served', async () => {
    const budget = createRateBudget({ reserve: 0.2 });
    const client = clientFor(limited, limited.a.key, { budget });
    const job = await store.addJob(limited.a.id, {
      kind: 'contacts-import',
      title: 'Paced',
      steps: Array.from({ length: 12 }, (_, i) => ({ kind: 'create-contact' as const, body: contact(`RunnerPaced${i}`) })),
    });
    const stop = new AbortController();
    const abort = new AbortController();
    const running = runJob({ store, client, jobId: job.id, concurrency: 1, stop: stop.signal, abort: abort.signal });
    // The job may spend 10 - 2 (the reserve) of the minute; it then waits for the window to refill.
    await expect.poll(async () => (await store.getJob(job.id))!.settled, { timeout: 10_000 }).toBe(8);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await store.getJob(job.id))!.settled).toBe(8);
    expect(budget.state().remaining).toBe(2);
    // The person's request goes ahead of the waiting job and meets no 429.
    const started = Date.now();
    const page = await client.listContacts({ limit: 1 });
    expect(page.meta.maxResults).toBe(8);
    expect(Date.now() - started).toBeLessThan(2000);
    stop.abort();
    abort.abort();
    expect(await running).toBe('stopped');
    // The step waiting for the budget was marked sent: on resume it is checked, never created twice.
    expect(await store.sentSteps(job.id)).toHaveLength(1);
    budget.close();
  }, 30_000);

  it('withdraws on stop (a cancel) the write still waiting for the budget: it is never sent and goes back to pending', async () => {
    const budget = createRateBudget({ reserve: 0.2 });
    const client = clientFor(limited, limited.b.key, { budget });
    const job = await store.addJob(limited.b.id, {
      kind: 'contacts-import',
      title: 'Withdrawn',
      steps: Array.from({ length: 12 }, (_, i) => ({ kind: 'create-contact' as const, body: contact(`RunnerWithdrawn${i}`) })),
    });
    const stop = new AbortController();
    const running = runJob({ store, client, jobId: job.id, concurrency: 2, stop: stop.signal });
    await expect.poll(async () => (await store.getJob(job.id))!.settled, { timeout: 10_000 }).toBe(8);
    await expect.poll(() => budget.state().waiting.job, { timeout: 5_000 }).toBeGreaterThan(0);
    const sentBefore = writes.length;
    stop.abort();
    expect(await running).toBe('stopped');
    // No step is left unknown: what waited was not sent, and the service holds exactly the 8 settled.
    expect(await store.sentSteps(job.id)).toHaveLength(0);
    expect((await steps(job.id)).filter((step) => step.status === 'pending')).toHaveLength(4);
    expect(budget.state().waiting.job).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes.length).toBe(sentBefore);
    const people = createApiClient({ baseUrl: limited.baseUrl, apiKey: limited.b.key });
    expect((await people.listContacts({ limit: 1, filter: compare('name', 'like', 'RunnerWithdrawn') })).meta.maxResults).toBe(8);
    budget.close();
  }, 30_000);
});

describe('runJob: a bulk erasure (issue 22 point 7)', () => {
  const exists = async (id: string) => (await api.listContacts({ limit: 1, filter: compare('id', 'eq', id) })).items.length > 0;
  const eraseSteps = (ids: string[]) => ids.map((contactId) => ({ kind: 'erase-contact' as const, contactId }));

  it('erases each contact with DELETE and no Idempotency-Key, counts one the service no longer has (404) as already erased, and reports ids only', async () => {
    const people = await Promise.all([contact('RunnerErase'), contact('RunnerErase'), contact('RunnerErase')].map((body) => api.createContact({ ...body, city: 'Tromsø', tags: ['leaving'] })));
    const keeper = await api.createContact(contact('RunnerKeep'));
    await api.eraseContact(people[2]!.id); // erased before the job: the job's DELETE answers 404
    const job = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase 3 contacts', steps: eraseSteps(people.map((person) => person.id)) });
    writes.length = 0;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 2 })).toBe('done');

    expect(writes.map((write) => write.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    expect(writes.every((write) => write.key === null)).toBe(true);
    for (const person of people) expect(await exists(person.id)).toBe(false);
    expect(await exists(keeper.id)).toBe(true);
    expect((await store.getJob(job.id))!).toMatchObject({ state: 'done', settled: 3, counts: { erased: 2, alreadyErased: 1, failed: 0 } });
    const [first, , third] = await steps(job.id);
    expect(first!.outcome).toEqual({ kind: 'erased' });
    expect(third!.outcome).toEqual({ kind: 'erased', already: true });

    const report = await loadReport(store, job);
    expect(report.erased.columns).toEqual(['id']);
    expect(report.erased.rows.map((row) => row.id)).toEqual([people[0]!.id, people[1]!.id]);
    expect(report.alreadyErased.rows.map((row) => row.id)).toEqual([people[2]!.id]);
    const csv = [report.erased, report.alreadyErased].map(reportTableCsv).join('');
    expect(csv).toContain(people[0]!.id);
    expect(csv).not.toMatch(/RunnerErase|example\.com|Tromsø|leaving/);
  });

  it('counts a repeat whose first answer was lost as erased, not failed: the DELETE is sent again, answered 404, and the look-up finds nothing', async () => {
    const people = await Promise.all([contact('RunnerEraseLost'), contact('RunnerEraseLost')].map((body) => api.createContact(body)));
    const job = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase lost', steps: eraseSteps(people.map((person) => person.id)) });
    let dropped = 0;
    dropAnswer = (url, init) => init?.method === 'DELETE' && url.endsWith(people[0]!.id) && dropped++ === 0;
    writes.length = 0;
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 1, sleep: async () => undefined })).toBe('done');
    expect(dropped).toBe(2); // the DELETE reached the service twice: its first answer dropped, the second a 404
    expect(writes.filter((write) => write.url.endsWith(people[0]!.id))).toHaveLength(2);
    expect((await steps(job.id))[0]!.outcome).toEqual({ kind: 'erased', already: true });
    expect((await store.getJob(job.id))!.counts).toMatchObject({ erased: 1, alreadyErased: 1, failed: 0 });
    expect(await exists(people[0]!.id)).toBe(false);
  });

  it('resumes a step stored as sent whose answer never came: the contact is erased, or counted already erased, never failed', async () => {
    const people = await Promise.all([contact('RunnerEraseCrash'), contact('RunnerEraseCrash')].map((body) => api.createContact(body)));
    const job = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase crash', steps: eraseSteps(people.map((person) => person.id)) });
    const stored = await steps(job.id);
    await store.writer.put({ ...stored[0]!, status: 'sent' });
    await store.writer.put({ ...stored[1]!, status: 'sent' });
    await api.eraseContact(people[0]!.id); // only the first request reached the service before the tab died
    await store.transition(job.id, ['queued'], 'running');
    expect(await runJob({ store, client: api, jobId: job.id })).toBe('done');
    const after = await steps(job.id);
    expect(after.map((step) => step.outcome)).toEqual([{ kind: 'erased', already: true }, { kind: 'erased' }]);
    expect(await exists(people[1]!.id)).toBe(false);
  });

  it('fails a step whose 404 came from a service that still lists the contact (no erasure route), and goes on with the next', async () => {
    const people = await Promise.all([contact('RunnerEraseNoRoute'), contact('RunnerEraseNoRoute')].map((body) => api.createContact(body)));
    // A service without the extension answers its own 404 to the route; the look-up still finds the contact.
    const noRoute = createApiClient({
      baseUrl: server.baseUrl,
      apiKey: server.a.key,
      fetch: async (input, init) =>
        init?.method === 'DELETE' && String(input).endsWith(people[0]!.id)
          ? new Response(JSON.stringify({ message: `Route DELETE:/contacts/${people[0]!.id} not found`, error: 'Not Found', statusCode: 404 }), { status: 404, headers: { 'Content-Type': 'application/json' } })
          : fetch(input, init),
    });
    const job = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase no route', steps: eraseSteps(people.map((person) => person.id)) });
    expect(await runJob({ store, client: noRoute, jobId: job.id, concurrency: 1 })).toBe('done');
    const [first, second] = await steps(job.id);
    expect(first!.outcome).toMatchObject({ kind: 'failed', status: 404, reason: expect.stringMatching(/still lists the contact/) });
    expect(second!.outcome).toEqual({ kind: 'erased' });
    expect(await exists(people[0]!.id)).toBe(true);
    expect((await store.getJob(job.id))!.counts).toMatchObject({ erased: 1, alreadyErased: 0, failed: 1 });
    const report = await loadReport(store, job);
    expect(report.failed.rows).toEqual([{ id: people[0]!.id, status: '404', reason: expect.stringMatching(/not erased/) }]);
  });

  it('fails a step the service refuses (a malformed id: 400) without stopping, and stops with KeyRefusedError on a refused key', async () => {
    const person = await api.createContact(contact('RunnerEraseBad'));
    const job = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase bad', steps: eraseSteps(['x'.repeat(300), person.id]) });
    expect(await runJob({ store, client: api, jobId: job.id, concurrency: 1 })).toBe('done');
    const outcomes = (await steps(job.id)).map((step) => step.outcome);
    expect(outcomes[1]).toEqual({ kind: 'erased' });
    expect(outcomes[0]).toMatchObject({ kind: 'failed', status: 400, reason: expect.stringMatching(/at most 200 characters\.$/) });

    const other = await api.createContact(contact('RunnerEraseKey'));
    const refused = await store.addJob(server.a.id, { kind: 'bulk-erase', title: 'Erase refused', steps: eraseSteps([other.id]) });
    await expect(runJob({ store, client: clientFor(server, 'wsk_not-a-key'), jobId: refused.id })).rejects.toBeInstanceOf(KeyRefusedError);
    expect((await store.getJob(refused.id))!.settled).toBe(0);
    expect(await exists(other.id)).toBe(true);
    expect(await runJob({ store, client: api, jobId: refused.id })).toBe('done');
    expect(await exists(other.id)).toBe(false);
  });
});

describe('lookupFilter', () => {
  it('finds a create by its email or its phone (E.164 after removing spaces), and has nothing to look for without either', () => {
    expect(lookupFilter({ email: 'a@example.com', phone: '+47 912 34 567' })).toEqual(or(compare('email', 'eq', 'a@example.com'), compare('phone', 'eq', '+4791234567')));
    expect(lookupFilter({ phone: '+4791234567' })).toEqual(compare('phone', 'eq', '+4791234567'));
    expect(lookupFilter({ name: 'No contact' })).toBeNull();
  });
});
