/**
 * The jobs store's layout (job-store.ts) on fake-indexeddb, a fresh database per test: a job's steps are stored as
 * `plans` chunks and only the states the runner wrote are step records; reading pending, sent and every step merges
 * the two across chunk boundaries; a version 1 database (every step whole in `steps`) is moved to that layout on
 * opening, with nothing lost; writes that may wait share a transaction, and a write that may not takes them along.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOBS_DB } from './job-names';
import { PLAN_CHUNK, createStore, planShape } from './job-store';
import type { JobStep, StepRecord } from './job-types';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const tagStep = (i: number): JobStep => ({ kind: 'patch-tags', contactId: `contact-${i}`, tagsToAdd: [`t${i}`], tagsToRemove: [] });

describe('the jobs store', () => {
  it('cuts a job of batches into records of 10 batch steps, one a transaction, and reads them back across the boundaries in another tab', async () => {
    const batch = (i: number): JobStep => ({ kind: 'create-contacts', items: Array.from({ length: 1000 }, (_, n) => ({ body: { name: `p${i}.${n}` } })) });
    const steps = [...Array.from({ length: 25 }, (_, i) => batch(i)), { kind: 'tag-existing' }];
    expect(planShape(steps)).toEqual({ chunk: 10, perTransaction: 1 });
    expect(planShape([tagStep(1)])).toEqual({ chunk: PLAN_CHUNK, perTransaction: 20 });
    expect(planShape([{ kind: 'create-contacts', items: Array.from({ length: 20_000 }, () => ({})) }])).toEqual({ chunk: 1, perTransaction: 1 });
    const store = await createStore();
    const puts = vi.spyOn(IDBObjectStore.prototype, 'put');
    const job = await store.addJob('ws', { kind: 'contacts-import', title: 'Batches', steps });
    expect(await store.db.count('plans')).toBe(3);
    expect(job.planChunk).toBe(10);
    expect(puts.mock.calls.filter(([value]) => (value as { chunk?: number }).chunk !== undefined)).toHaveLength(3);
    await store.writer.putMany([9, 10].map((index) => ({ jobId: job.id, index, step: steps[index]!, status: 'sent' as const })));
    // Another tab's store knows the job's records only from its record.
    const other = await createStore();
    expect((await other.sentSteps(job.id)).map((record) => [record.index, (record.step.items as unknown[]).length])).toEqual([[9, 1000], [10, 1000]]);
    expect((await other.pendingSteps(job.id, 8, 4)).map((record) => record.index)).toEqual([8, 11, 12, 13]);
    const all: StepRecord[] = [];
    await other.eachStep(job.id, (record) => all.push(record));
    expect(all.map((record) => record.index)).toEqual(steps.map((_, index) => index));
    expect(all[25]!.step).toEqual({ kind: 'tag-existing' });
    expect((all[19]!.step.items as { body: { name: string } }[])[999]!.body.name).toBe('p19.999');
  });

  it('stores a job as plan chunks with no step records, and merges the states the runner writes across chunk boundaries', async () => {
    const store = await createStore();
    const total = 2 * PLAN_CHUNK + 234;
    const job = await store.addJob('ws', { kind: 'bulk-tags', title: 'Chunks', steps: Array.from({ length: total }, (_, i) => tagStep(i)) });
    expect(await store.db.count('plans')).toBe(3);
    expect(await store.db.count('steps')).toBe(0);

    const pending = await store.pendingSteps(job.id, 0, 10);
    expect(pending.map((record) => record.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pending[3]).toEqual({ jobId: job.id, index: 3, step: tagStep(3), status: 'pending' });

    // The runner marks some sent around the first boundary, settles others, withdraws one.
    const at = (index: number) => ({ jobId: job.id, index, step: tagStep(index) });
    await store.writer.putMany([PLAN_CHUNK - 1, PLAN_CHUNK, PLAN_CHUNK + 1].map((index) => ({ ...at(index), status: 'sent' as const })));
    await store.writer.put({ ...at(PLAN_CHUNK + 1), status: 'settled', outcome: { kind: 'tagged' } }, { settled: 1 });
    await store.writer.put({ ...at(PLAN_CHUNK + 2), status: 'sent' });
    await store.writer.put({ ...at(PLAN_CHUNK + 2), status: 'pending' });
    // Stored without the step itself: that stays in its plan chunk.
    expect(await store.db.get('steps', [job.id, PLAN_CHUNK])).toEqual({ jobId: job.id, index: PLAN_CHUNK, status: 'sent' });

    expect((await store.pendingSteps(job.id, PLAN_CHUNK - 2, 4)).map((record) => record.index)).toEqual([PLAN_CHUNK - 2, PLAN_CHUNK + 2, PLAN_CHUNK + 3, PLAN_CHUNK + 4]);
    expect(await store.sentSteps(job.id)).toEqual([
      { ...at(PLAN_CHUNK - 1), status: 'sent' },
      { ...at(PLAN_CHUNK), status: 'sent' },
    ]);
    expect(await store.pendingSteps(job.id, total - 1, 10)).toEqual([{ ...at(total - 1), status: 'pending' }]);
    expect(await store.pendingSteps(job.id, total, 10)).toEqual([]);

    const all: StepRecord[] = [];
    await store.eachStep(job.id, (record) => all.push(record));
    expect(all).toHaveLength(total);
    expect(all.every((record, index) => record.index === index && record.step.kind === 'patch-tags' && record.step.contactId === `contact-${index}`)).toBe(true);
    expect(all[PLAN_CHUNK + 1]).toEqual({ ...at(PLAN_CHUNK + 1), status: 'settled', outcome: { kind: 'tagged' } });
    expect(all.filter((record) => record.status !== 'pending').map((record) => [record.index, record.status])).toEqual([
      [PLAN_CHUNK - 1, 'sent'],
      [PLAN_CHUNK, 'sent'],
      [PLAN_CHUNK + 1, 'settled'],
    ]);
    expect((await store.getJob(job.id))!.settled).toBe(1);
  });

  it('moves a version 1 database (every step whole in `steps`) to plans and states on opening, losing nothing', async () => {
    const total = PLAN_CHUNK + 3;
    const statusOf = (index: number) => (index === 1 ? 'settled' : index === PLAN_CHUNK + 1 ? 'sent' : 'pending');
    // Version 1 as the earlier code made it: the same stores without `plans`, one whole record per step.
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open(JOBS_DB, 1);
      open.onupgradeneeded = () => {
        const db = open.result;
        db.createObjectStore('jobs', { keyPath: 'id' }).createIndex('workspaceId', 'workspaceId');
        db.createObjectStore('steps', { keyPath: ['jobId', 'index'] }).createIndex('status', ['jobId', 'status']);
        db.createObjectStore('reports', { keyPath: 'jobId' });
      };
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction(['jobs', 'steps'], 'readwrite');
        tx.objectStore('jobs').put({ id: 'old', workspaceId: 'ws', kind: 'bulk-tags', title: 'Old', state: 'running', total, settled: 1, position: 1 });
        for (const jobId of ['old', 'other']) {
          for (let index = 0; index < (jobId === 'old' ? total : 2); index++) {
            tx.objectStore('steps').put({ jobId, index, step: tagStep(jobId === 'old' ? index : 1000 + index), status: jobId === 'old' ? statusOf(index) : 'pending', ...(index === 1 && jobId === 'old' ? { outcome: { kind: 'tagged' } } : {}) });
          }
        }
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
      open.onerror = () => reject(open.error);
    });

    const store = await createStore();
    expect(store.db.version).toBe(2);
    expect(await store.db.count('plans')).toBe(3); // two chunks of `old`, one of `other`
    expect(await store.db.count('steps')).toBe(2); // only the states that were not pending
    const all: StepRecord[] = [];
    await store.eachStep('old', (record) => all.push(record));
    expect(all.map((record) => [record.index, record.status, record.step.contactId])).toEqual(
      Array.from({ length: total }, (_, index) => [index, statusOf(index), `contact-${index}`]),
    );
    expect(all[1]!.outcome).toEqual({ kind: 'tagged' });
    expect((await store.sentSteps('old')).map((record) => record.index)).toEqual([PLAN_CHUNK + 1]);
    expect((await store.pendingSteps('old', 1, 3)).map((record) => record.index)).toEqual([2, 3, 4]);
    expect((await store.pendingSteps('other', 0, 10)).map((record) => record.step.contactId)).toEqual(['contact-1000', 'contact-1001']);
  });

  it('lets outcomes wait to share one transaction, and commits them at once with a write that may not wait', async () => {
    const store = await createStore();
    const job = await store.addJob('ws', { kind: 'bulk-tags', title: 'Soon', steps: Array.from({ length: 6 }, (_, i) => tagStep(i)) });
    const at = (index: number) => ({ jobId: job.id, index, step: tagStep(index) });
    const settled = (index: number) => ({ ...at(index), status: 'settled' as const, outcome: { kind: 'tagged' as const } });
    const transactions = vi.spyOn(IDBDatabase.prototype, 'transaction');

    const outcomes = [0, 1, 2].map((index) => store.writer.putSoon(settled(index), { settled: index + 1 }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transactions).not.toHaveBeenCalled(); // still waiting for company
    await Promise.all(outcomes);
    expect(transactions).toHaveBeenCalledTimes(1);

    // An outcome waiting when a step is marked sent is committed in the mark's transaction, without waiting more.
    const waiting = store.writer.putSoon(settled(3), { settled: 4 });
    await store.writer.putMany([{ ...at(4), status: 'sent' }]);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(await store.db.get('steps', [job.id, 3])).toEqual({ jobId: job.id, index: 3, status: 'settled', outcome: { kind: 'tagged' } });
    await waiting;
    transactions.mockRestore();
    expect((await store.getJob(job.id))!.settled).toBe(4);
    expect((await store.sentSteps(job.id)).map((record) => record.index)).toEqual([4]);
  });
});
