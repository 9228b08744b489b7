/**
 * An import in batches (issue 35 point 7; docs/decisions.md section 12) through the durable job runner against the
 * real service (server/test/harness.ts), state in fake-indexeddb: each `create-contacts` step is one
 * `POST /contacts/batch` with its own Idempotency-Key and the activity headers; a batch whose answer was lost is
 * sent again with the same key and the service's replay settles it, so no contact is created twice; the items'
 * outcomes (created, exists, failed) count one by one and map back to the file's rows in the report.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { jobHarness } from '../../../../server/test/job-harness';
import { compare, inList } from '@/api/filter/ast';
import { type ImportPlan, batchSteps, importRequests, toJobSpec, updatedTag } from './contact-import';
import { loadReport } from '@/lib/jobs/job-report';
import type { JobSpec, JobStep } from '@/lib/jobs/job-types';
import { type CreateContactStep, type PatchTagsStep, contactStepHandlers, existingTagRequests } from '../contact-steps';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '../contact-jobs';
import { runJob, stepKey } from '@/lib/jobs/step-runner';

const writes: { url: string; key: string | null; batch: string | null; source: string | null }[] = [];
let dropAnswer: ((url: string) => boolean) | null = null;
/** When set, the ids of 409 items are taken out of `POST /contacts/batch` answers (a service that does not name them). */
let hideExistingIds = false;

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
    if (hideExistingIds && String(input).endsWith('/contacts/batch')) {
      const response = await fetch(input, init);
      const body = (await response.json()) as { results: { status: number; id?: string }[] };
      for (const result of body.results) if (result.status === 409) delete result.id;
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    }
  }
  return fetch(input, init);
});
beforeEach(() => {
  writes.length = 0;
  dropAnswer = null;
  hideExistingIds = false;
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
    // The 409 names the contact holding the email: the one its first row created (docs/decisions.md section 12).
    expect(report.unchanged.rows).toEqual([expect.objectContaining({ rows: '3', name: 'Twice', id: report.created.rows[0]!.id })]);
    expect(report.failed.rows).toEqual([expect.objectContaining({ rows: '4 5', name: 'Bad', status: '400' })]);
  });
});

describe('the contacts that existed, tagged by the import’s last step (tag-existing)', () => {
  /** Contacts stored before the import: `count` with emails `<tag>.old<i>@example.com`, tagged `old`. */
  const existing = async (tag: string, count: number) => {
    const answer = await h.api.createContactsBatch({ items: Array.from({ length: count }, (_, i) => ({ email: `${tag}.old${i}@example.com`, tags: ['old'] })) });
    return answer.results.map((result) => result.id!);
  };
  /** An import plan of `count` new rows and the existing contacts' emails in other letter cases, the even ones also tagged `vip`. */
  const plan = (tag: string, count: number, old: number): ImportPlan => {
    const fresh = creates(tag, count);
    const again: CreateContactStep[] = Array.from({ length: old }, (_, i) => ({ kind: 'create-contact', body: { email: `${tag}.OLD${i}@example.com`, tags: [tag, ...(i % 2 ? [] : ['vip'])] }, rows: [count + i + 2] }));
    return { steps: [...fresh, ...again], refused: [], unchanged: [], counts: { new: count + old, exists: 0, tagged: 0, unchanged: 0, refused: 0, merged: 0 } };
  };
  const count = async (filter: Parameters<typeof h.api.listContacts>[0]) => (await h.api.listContacts({ limit: 1, ...filter })).meta.maxResults;

  it('groups the ids by the tags they get, 1,000 a request at most, the same items giving the same requests', () => {
    const items = [
      ...Array.from({ length: 1500 }, (_, i) => ({ id: `a${i}`, tags: ['x-updated'] })),
      { id: 'b', tags: ['vip', 'x-updated'] },
      { id: 'a3', tags: ['vip'] }, // a contact met twice gets the union
      { id: null, tags: ['lost'] }, // not found: left out
    ];
    const requests = existingTagRequests(items);
    expect(requests.map((request) => [request.ids.length, request.tagsToAdd])).toEqual([[1000, ['x-updated']], [499, ['x-updated']], [2, ['vip', 'x-updated']]]);
    expect(requests[2]!.ids).toEqual(['a3', 'b']);
    expect(existingTagRequests(items)).toEqual(requests);
  });

  it('creates the new contacts in batches, then gives those that existed the file’s tags in a request per tag set, after every batch', async () => {
    const tag = tagOf();
    const oldIds = await existing(tag, 25);
    writes.length = 0;
    const spec = toJobSpec(plan(tag, 40, 25), { fileName: 'mixed.csv', importTag: tag }, true);
    expect(spec.steps.at(-1)).toEqual({ kind: 'tag-existing', importTag: tag });
    // Batches of 10 (7 of them) so that several are in flight when the last step is reached.
    const steps = [...batchSteps(plan(tag, 40, 25).steps, 10, true), spec.steps.at(-1)!] as JobStep[];
    const job = await h.store.addJob('ws', { ...spec, steps });
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id, concurrency: 4 })).toBe('done');
    const tagWrites = writes.filter((write) => write.url.endsWith('/contacts/tags'));
    // Every batch was sent before the first tags request; one request per tag set (with vip, without).
    expect(writes.slice(-2)).toEqual(tagWrites);
    expect(tagWrites.map((write) => write.key)).toEqual([`${stepKey(job.id, 7)}.0`, `${stepKey(job.id, 7)}.1`]);
    expect(tagWrites.every((write) => write.batch === job.id)).toBe(true);
    expect(await count({ filter: compare('tags', 'eq', tag) })).toBe(40);
    expect(await count({ filter: compare('tags', 'eq', updatedTag(tag)) })).toBe(25);
    expect(await count({ filter: compare('tags', 'eq', 'vip') })).toBeGreaterThanOrEqual(13);
    const old = await h.api.listContacts({ limit: 100, filter: inList('id', oldIds) });
    expect(old.items.filter((contact) => contact.tags.includes('vip'))).toHaveLength(13);
    expect(old.items.every((contact) => contact.tags.includes('old') && contact.tags.includes(updatedTag(tag)) && !contact.tags.includes(tag))).toBe(true);
    expect((await h.store.getJob(job.id))?.counts).toMatchObject({ created: 40, exists: 25, tagged: 25, failed: 0 });
    // The report names each existing contact once, as tags changed, with its file row and the tags it got.
    const report = await loadReport(h.store, job);
    expect(report.unchanged.rows).toHaveLength(0);
    expect(report.created.rows).toHaveLength(40);
    expect(new Set(report.tagged.rows.map((row) => row.id))).toEqual(new Set(oldIds));
    expect(report.tagged.rows.find((row) => row.rows === '42')).toMatchObject({ tagsAdded: `${updatedTag(tag)}, vip` });
    expect(report.tagged.rows.find((row) => row.rows === '43')).toMatchObject({ tagsAdded: updatedTag(tag) });
    // Imported again: every contact exists. The 40 this import created get `<tag>-updated` (issue 34 point 1); the 25
    // have every tag already. The 13 with vip share a request that changed none of them: unchanged in the report. The
    // other 12 share one with the 40, which changed 40 of its 52: the service does not say which, so all 52 are listed
    // as tags changed, and the counts are exact.
    const again = await h.store.addJob('ws', toJobSpec(plan(tag, 40, 25), { fileName: 'mixed.csv', importTag: tag }, true));
    expect(await runJob({ store: h.store, client: h.api, jobId: again.id })).toBe('done');
    expect((await h.store.getJob(again.id))?.counts).toMatchObject({ created: 0, exists: 65, tagged: 40, failed: 0 });
    const second = await loadReport(h.store, again);
    expect(second.tagged.rows).toHaveLength(52);
    expect(second.unchanged.rows).toHaveLength(13);
    expect(second.unchanged.rows.every((row) => oldIds.includes(row.id!) && row.tagsAdded === `${updatedTag(tag)}, vip`)).toBe(true);
  });

  it('looks the contacts up where the batches do not name them, and a lost tags answer is replayed, not applied twice', async () => {
    const tag = tagOf();
    const oldIds = await existing(tag, 12);
    writes.length = 0;
    hideExistingIds = true;
    let tagRequests = 0;
    dropAnswer = (url) => url.endsWith('/contacts/tags') && ++tagRequests === 2;
    const spec = toJobSpec(plan(tag, 5, 12), { fileName: 'hosted.csv', importTag: tag }, true);
    const job = await h.store.addJob('ws', spec);
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id, sleep: async () => undefined })).toBe('done');
    const keys = writes.filter((write) => write.url.endsWith('/contacts/tags')).map((write) => write.key);
    // The second request's answer was lost: the step was sent again, each request under its own key.
    expect(keys).toEqual([`${stepKey(job.id, 1)}.0`, `${stepKey(job.id, 1)}.1`, `${stepKey(job.id, 1)}.0`, `${stepKey(job.id, 1)}.1`]);
    expect(await count({ filter: compare('tags', 'eq', updatedTag(tag)) })).toBe(12);
    const old = await h.api.listContacts({ limit: 100, filter: inList('id', oldIds) });
    expect(old.items.filter((contact) => contact.tags.includes('vip'))).toHaveLength(6);
    expect((await h.store.getJob(job.id))?.counts).toMatchObject({ created: 5, exists: 12, tagged: 12 });
  });
});
