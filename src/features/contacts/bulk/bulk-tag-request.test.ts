/**
 * A bulk tag change in requests of our service (issue 35 point 8; docs/decisions.md section 12) through the durable
 * job runner against the real service (server/test/harness.ts), state in fake-indexeddb: every contact a filter
 * matches in one `POST /contacts/tags`, with the step's Idempotency-Key and the job's activity headers; the job
 * counts the contacts the service changed; chosen ids go 1,000 a request.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { jobHarness } from '../../../../server/test/job-harness';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '../contact-jobs';
import { contactStepHandlers } from '../contact-steps';
import { compare } from '@/api/filter/ast';
import { runJob, stepKey } from '@/lib/jobs/step-runner';
import { bulkTagRequestSpec } from './bulk-tag-job';

const writes: { url: string; key: string | null; batch: string | null; body: string }[] = [];
// The contacts feature's step kinds and job kinds in the engine's tables, as src/app/kinds.ts registers them in the
// console.
registerStepHandlers(...contactStepHandlers);
registerJobKinds(...contactJobKinds);

const h = jobHarness(async (input, init) => {
  if (init?.method === 'POST') {
    const headers = new Headers(init.headers);
    writes.push({ url: String(input), key: headers.get('idempotency-key'), batch: headers.get('activity-batch'), body: String(init.body) });
  }
  return fetch(input, init);
});
beforeEach(() => {
  writes.length = 0;
});

describe('bulkTagRequestSpec on the job runner', () => {
  it('tags every contact a filter matches in one request and counts those it changed', async () => {
    const tag = `r${Date.now().toString(36)}`;
    await h.api.createContactsBatch({ items: [0, 1, 2].map((index) => ({ email: `${tag}.${index}@example.com`, tags: index ? [tag] : [tag, 'done'] })) });
    writes.length = 0;
    const job = await h.store.addJob('ws', bulkTagRequestSpec({ filter: compare('tags', 'eq', tag) }, { tagsToAdd: ['done'], tagsToRemove: [] }));
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id })).toBe('done');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ key: stepKey(job.id, 0), batch: job.id });
    expect(JSON.parse(writes[0]!.body)).toEqual({ filter: `tags eq '${tag}'`, tagsToAdd: ['done'] });
    expect((await h.store.getJob(job.id))?.counts.tagged).toBe(2);
    const outcomes: unknown[] = [];
    await h.store.eachStep(job.id, (step) => outcomes.push(step.outcome));
    expect(outcomes).toEqual([{ kind: 'tagged', matched: 3, changed: 2 }]);
  });

  it('sends chosen ids 1,000 a request, and the whole workspace as a filter every contact matches', () => {
    const ids = Array.from({ length: 1500 }, (_, index) => `c${index}`);
    const spec = bulkTagRequestSpec({ ids }, { tagsToAdd: [], tagsToRemove: ['x'] });
    expect(spec.steps.map((step) => (step.kind === 'tag-contacts' ? step.ids?.length : 0))).toEqual([1000, 500]);
    const all = bulkTagRequestSpec({ filter: undefined }, { tagsToAdd: ['x'], tagsToRemove: [] });
    expect(all.steps).toEqual([{ kind: 'tag-contacts', filter: "id ne ''", tagsToAdd: ['x'], tagsToRemove: [] }]);
    // The title names the contacts chosen, not the steps: the distinct ids, or the filter's count as shown.
    expect(spec.meta).toMatchObject({ matched: 1500 });
    expect(bulkTagRequestSpec({ ids: ['a', 'a', 'b'] }, { tagsToAdd: ['x'], tagsToRemove: [] }).meta).toMatchObject({ matched: 2 });
    expect(bulkTagRequestSpec({ filter: undefined }, { tagsToAdd: ['x'], tagsToRemove: [] }, 45).meta).toMatchObject({ matched: 45 });
    expect(all.meta).not.toHaveProperty('matched');
  });
});
