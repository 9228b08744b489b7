/**
 * An import in batches (issue 35 point 7; docs/decisions.md section 12) through the durable job runner against the
 * real service (server/test/harness.ts), state in fake-indexeddb: each `create-contacts` step is one
 * `POST /contacts/batch` with its own Idempotency-Key and the activity headers; a batch whose answer was lost is
 * sent again with the same key and the service's replay settles it, so no contact is created twice; the items'
 * outcomes (created, exists, failed) count one by one and map back to the file's rows in the report.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { jobHarness } from '../../../../server/test/job-harness';
import { compare } from '@/api/filter/ast';
import { batchSteps, importRequests } from './contact-import';
import { loadReport } from '@/lib/jobs/job-report';
import type { JobSpec, JobStep } from '@/lib/jobs/job-types';
import { type CreateContactStep, type PatchTagsStep, contactStepHandlers } from '../contact-steps';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '../contact-jobs';
import { runJob, stepKey } from '@/lib/jobs/step-runner';

const writes: { url: string; key: string | null; batch: string | null; source: string | null }[] = [];
let dropAnswer: ((url: string) => boolean) | null = null;

// The contacts feature's step kinds and job kinds in the engine's tables, as src/app/kinds.ts registers them in the
// console.
registerStepHandlers(...contactStepHandlers);
registerJobKinds(...contactJobKinds);

const h = jobHarness(async (input, init) => {
  if (init?.method === 'POST') {
    const headers = new Headers(init.headers);
    writes.push({ url: String(input), key: headers.get('idempotency-key'), batch: headers.get('activity-batch'), source: headers.get('activity-source') });
    if (dropAnswer?.(String(input))) {
      dropAnswer = null;
      await fetch(input, init);
      throw new TypeError('fetch failed');
    }
  }
  return fetch(input, init);
});
beforeEach(() => {
  writes.length = 0;
  dropAnswer = null;
});

const tagOf = () => `b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const creates = (tag: string, count: number, from = 0): CreateContactStep[] =>
  Array.from({ length: count }, (_, index) => ({ kind: 'create-contact', body: { name: `Batch ${from + index}`, email: `${tag}.${from + index}@example.com`, tags: [tag] }, rows: [from + index + 2] }));
const tagged = async (tag: string) => (await h.api.listContacts({ limit: 1, filter: compare('tags', 'eq', tag) })).meta.maxResults;

describe('batchSteps', () => {
  it('cuts the creates into batches of at most 1,000 in file order and leaves tag steps where they were', () => {
    const patch: PatchTagsStep = { kind: 'patch-tags', contactId: 'c1', tagsToAdd: ['x'], tagsToRemove: [], rows: [9] };
    const steps = [...creates('t', 2), patch, ...creates('t', 1500, 2)] as Parameters<typeof batchSteps>[0];
    const batched = batchSteps(steps);
    expect(batched.map((step) => (step.kind === 'create-contacts' ? step.items.length : step.kind))).toEqual([1000, 'patch-tags', 502]);
    expect(batched[0]?.kind === 'create-contacts' && batched[0].items[0]).toEqual({ body: expect.objectContaining({ name: 'Batch 0' }), rows: [2] });
    expect(importRequests({ new: 2500, tagged: 3 }, true)).toBe(6);
    expect(importRequests({ new: 2500, tagged: 3 }, false)).toBe(2503);
    expect(() => batchSteps([], 1001)).toThrow(RangeError);
  });
});

describe('runJob with create-contacts steps', () => {
  it('creates 2,500 contacts in 3 requests, each with its own Idempotency-Key and the job’s activity headers', async () => {
    const tag = tagOf();
    const spec: JobSpec = { kind: 'contacts-import', title: 'Import big.csv', steps: batchSteps(creates(tag, 2500) as Parameters<typeof batchSteps>[0]) as JobStep[] };
    const job = await h.store.addJob('ws', spec);
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id })).toBe('done');
    expect(writes).toHaveLength(3);
    expect(writes.every((write) => write.url.endsWith('/contacts/batch'))).toBe(true);
    expect(writes.map((write) => write.key).sort()).toEqual([0, 1, 2].map((index) => stepKey(job.id, index)).sort());
    expect(writes.every((write) => write.batch === job.id && write.source === 'console/import')).toBe(true);
    expect((await h.store.getJob(job.id))?.counts).toMatchObject({ created: 2500, failed: 0, exists: 0 });
    expect(await tagged(tag)).toBe(2500);
  });

  it('sends a batch whose answer was lost again with the same key, and the replay creates nobody twice', async () => {
    const tag = tagOf();
    const spec: JobSpec = { kind: 'contacts-import', title: 'Import lost.csv', steps: batchSteps(creates(tag, 30) as Parameters<typeof batchSteps>[0], 10) as JobStep[] };
    const job = await h.store.addJob('ws', spec);
    let seen = 0;
    dropAnswer = () => ++seen === 2; // the second batch reaches the service, its answer does not come back
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id, concurrency: 1, sleep: async () => undefined })).toBe('done');
    const second = writes.filter((write) => write.key === stepKey(job.id, 1));
    expect(second).toHaveLength(2);
    expect((await h.store.getJob(job.id))?.counts).toMatchObject({ created: 30, failed: 0, exists: 0 });
    expect(await tagged(tag)).toBe(30);
  });

  it('counts each item’s outcome and reports it against the file’s rows', async () => {
    const tag = tagOf();
    const items: CreateContactStep[] = [
      { kind: 'create-contact', body: { name: 'Fine', email: `${tag}.fine@example.com`, tags: [tag] }, rows: [2] },
      { kind: 'create-contact', body: { name: 'Twice', email: `${tag}.fine@example.com`, tags: [tag] }, rows: [3] },
      { kind: 'create-contact', body: { name: 'Bad', email: 'not an email', tags: [tag] }, rows: [4, 5] },
    ];
    const job = await h.store.addJob('ws', { kind: 'contacts-import', title: 'Import mixed.csv', steps: batchSteps(items as Parameters<typeof batchSteps>[0]) as JobStep[] });
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id })).toBe('done');
    expect((await h.store.getJob(job.id))?.counts).toMatchObject({ created: 1, exists: 1, failed: 1 });
    const report = await loadReport(h.store, job);
    expect(report.created.rows).toEqual([expect.objectContaining({ rows: '2', name: 'Fine' })]);
    expect(report.unchanged.rows).toEqual([expect.objectContaining({ rows: '3', name: 'Twice', id: '' })]);
    expect(report.failed.rows).toEqual([expect.objectContaining({ rows: '4 5', name: 'Bad', status: '400' })]);
  });
});
