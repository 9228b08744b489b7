/**
 * The bulk tag job against a real service (server/test/harness.ts) through the typed client, run on the durable
 * job runner (state in fake-indexeddb): every contact that matched when the job started is reached even when the
 * job changes the filter's result; each step lists only the tags that change its contact, and contacts already as
 * asked are not sent; failures carry sentences; a 429 while finding the contacts pauses and resumes; cancelling the
 * walk changes nothing; and the undo restores every contact's tags exactly.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../../../../server/db/seed';
import { jobHarness } from '../../../../server/test/job-harness';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '../contact-jobs';
import { contactStepHandlers } from '../contact-steps';
import { compare, inList } from '@/api/filter/ast';
import { undoSteps } from '@/lib/jobs/workspace-runner';
import { runJob } from '@/lib/jobs/step-runner';
import { type CollectProgress, bulkTagSpec, collectBulkTargets, effectiveChange, wouldChange } from './bulk-tag-job';

const patches: string[] = [];
/** When set, answers the GET with this number (1-based) 429 with `Retry-After: 1`, once. */
let throttleGet: number | null = null;
let gets = 0;

let seeded = 0;
async function seed(count: number, tags: (index: number) => string[]) {
  const rows = fakeContacts(h.server.a.id, count, { idPrefix: seeded }).map((row, index) => ({ ...row, tags: JSON.stringify(tags(index)) }));
  seeded += count;
  await insertContacts(h.server.database.db, rows);
  return rows.map((row) => row.id);
}

const countWith = async (tag: string) => (await h.api.listContacts({ limit: 1, filter: compare('tags', 'eq', tag) })).meta.maxResults;
const tagsOf = async (ids: string[]) => new Map((await h.api.listContacts({ limit: 100, filter: inList('id', ids) })).items.map((c) => [c.id, [...c.tags].sort()]));

// The contacts feature's step kinds and job kinds in the engine's tables, as src/app/kinds.ts registers them in the
// console.
registerStepHandlers(...contactStepHandlers);
registerJobKinds(...contactJobKinds);

const h = jobHarness(async (input, init) => {
  if (init?.method === 'PATCH') patches.push(String(input));
  if ((init?.method ?? 'GET') === 'GET' && ++gets === throttleGet) {
    throttleGet = null;
    return new Response(JSON.stringify({ traceId: 't', message: 'ThrottlerException: Too Many Requests', path: '/api/contacts', timestamp: '', statusCode: 429 }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    });
  }
  return fetch(input, init);
});
beforeEach(() => {
  patches.length = 0;
});

async function runSpec(spec: ReturnType<typeof bulkTagSpec>) {
  const job = await h.store.addJob(h.server.a.id, spec);
  expect(await runJob({ store: h.store, client: h.api, jobId: job.id, concurrency: 4 })).toBe('done');
  return (await h.store.getJob(job.id))!;
}

describe('bulk tags on the job runner', () => {
  it('reaches every contact that matched at the start, over several pages, though removing the tag shrinks the filter as it goes', async () => {
    await seed(150, (i) => (i < 130 ? ['wave'] : ['calm']));
    const progress: CollectProgress[] = [];
    const collected = await collectBulkTargets({ client: h.api, source: { filter: compare('tags', 'eq', 'wave') }, onProgress: (p) => progress.push(p) });
    expect(collected.targets).toHaveLength(130);
    expect(progress.at(-1)).toMatchObject({ done: 130, total: 130 });
    const job = await runSpec(bulkTagSpec(collected, { tagsToAdd: ['surfed', 'done'], tagsToRemove: ['wave'] }));
    expect(job.counts).toMatchObject({ tagged: 130, failed: 0 });
    expect(await countWith('wave')).toBe(0);
    expect(await countWith('surfed')).toBe(130);
    expect(await countWith('calm')).toBe(20);
    expect(patches).toHaveLength(130);
  });

  it('sends only the tags that change each contact, leaves those already as asked unsent, and reports refusals and missing ids', async () => {
    const ids = await seed(6, (i) => (i < 3 ? ['gold'] : i === 5 ? Array.from({ length: 100 }, (_, n) => `t${n}`) : i === 4 ? ['silver'] : []));
    const collected = await collectBulkTargets({ client: h.api, source: { ids: [...ids, '00000000-0000-4000-8000-000000000000'] } });
    expect(collected).toMatchObject({ missing: 1 });
    const spec = bulkTagSpec(collected, { tagsToAdd: ['gold', 'silver'], tagsToRemove: [] });
    expect(spec.report?.unchangedRecords).toEqual([]);
    expect(spec.steps.find((step) => step.kind === 'patch-tags' && step.contactId === ids[4])).toMatchObject({ tagsToAdd: ['gold'], tagsToRemove: [] });
    expect(spec.steps.find((step) => step.kind === 'patch-tags' && step.contactId === ids[0])).toMatchObject({ tagsToAdd: ['silver'] });
    const job = await runSpec(spec);
    expect(job.counts).toMatchObject({ tagged: 5, failed: 1 });
    const failed: string[] = [];
    await h.store.eachStep(job.id, (step) => step.outcome?.kind === 'failed' && failed.push(`${step.step.kind === 'patch-tags' ? step.step.contactId : ''}: ${step.outcome.reason}`));
    expect(failed).toEqual([`${ids[5]}: A contact can have at most 100 tags.`]);

    const again = bulkTagSpec(await collectBulkTargets({ client: h.api, source: { ids: ids.slice(0, 3) } }), { tagsToAdd: ['gold'], tagsToRemove: [] });
    expect(again.steps).toEqual([]);
    expect(again.report?.unchangedRecords).toHaveLength(3);
  });

  it('pauses on a 429 while finding the contacts until Retry-After, showing when it resumes, then finishes', async () => {
    await seed(8, () => ['slow']);
    gets = 0;
    throttleGet = 1;
    const waits: number[] = [];
    const collected = await collectBulkTargets({
      client: h.api,
      source: { filter: compare('tags', 'eq', 'slow') },
      onProgress: (progress) => {
        if (progress.waitingUntil) waits.push(progress.waitingUntil - Date.now());
      },
    });
    expect(collected.targets).toHaveLength(8);
    expect(Math.max(...waits)).toBeGreaterThan(500);
  });

  it('cancelled while finding the contacts rejects with the AbortError and changes nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(collectBulkTargets({ client: h.api, source: { filter: undefined }, signal: controller.signal })).rejects.toThrow();
    expect(patches).toHaveLength(0);
  });

  it('undoes exactly: tags a contact had before stay, tags the job added go, tags it removed come back', async () => {
    const ids = await seed(4, (i) => [['keep', 'old'], ['keep', 'new'], ['other'], ['new', 'old']][i]!);
    const before = await tagsOf(ids);
    const job = await runSpec(bulkTagSpec(await collectBulkTargets({ client: h.api, source: { ids } }), { tagsToAdd: ['new'], tagsToRemove: ['old'] }));
    expect(job.counts.tagged).toBe(3); // the second already had 'new' and lacked 'old'
    expect((await tagsOf(ids)).get(ids[0]!)).toEqual(['keep', 'new']);
    expect((await tagsOf(ids)).get(ids[3]!)).toEqual(['new']);
    const undo = await h.store.addJob(h.server.a.id, { kind: 'undo-tags', title: 'Undo', steps: await undoSteps(h.store, job.id) });
    expect(await runJob({ store: h.store, client: h.api, jobId: undo.id })).toBe('done');
    expect(await tagsOf(ids)).toEqual(before);
  });
});

describe('tag arithmetic', () => {
  it('knows what part of a change alters a contact', () => {
    expect(wouldChange(['a'], { tagsToAdd: ['a'], tagsToRemove: ['b'] })).toBe(false);
    expect(wouldChange(['a'], { tagsToAdd: ['c'], tagsToRemove: [] })).toBe(true);
    expect(effectiveChange(['a', 'b'], { tagsToAdd: ['a', 'c'], tagsToRemove: ['b', 'd'] })).toEqual({ tagsToAdd: ['c'], tagsToRemove: ['b'] });
  });
});
