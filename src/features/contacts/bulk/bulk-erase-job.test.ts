/**
 * The bulk erasure job against a real service (server/test/harness.ts) through the typed client, run on the durable
 * job runner (state in fake-indexeddb): a filter's contacts are found over several pages before anything is erased,
 * also when another erasure shifts the walk's offsets meanwhile; the stored job holds ids only; the job erases
 * exactly those contacts; and the estimate and the typed count behave as the dialog needs.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../../../../server/db/seed';
import { jobHarness } from '../../../../server/test/job-harness';
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '../contact-jobs';
import { contactStepHandlers } from '../contact-steps';
import { compare } from '@/api/filter/ast';
import { runJob } from '@/lib/jobs/step-runner';
import { bulkEraseSpec, collectErasureIds, erasureEstimate, typedCountMatches } from './bulk-erase-job';

/** Called before each GET reaches the service (to erase behind the walk's back). */
let beforeGet: ((url: string) => Promise<void>) | null = null;
// The contacts feature's step kinds and job kinds in the engine's tables, as src/app/kinds.ts registers them in the
// console.
registerStepHandlers(...contactStepHandlers);
registerJobKinds(...contactJobKinds);

const h = jobHarness(async (input, init) => {
  if ((init?.method ?? 'GET') === 'GET' && beforeGet) await beforeGet(String(input));
  return fetch(input, init);
});
beforeEach(() => {
  beforeGet = null;
});

let seeded = 0;
async function seed(count: number, tags: (index: number) => string[]) {
  const rows = fakeContacts(h.server.a.id, count, { idPrefix: seeded + 50_000 }).map((row, index) => ({ ...row, tags: JSON.stringify(tags(index)) }));
  seeded += count;
  await insertContacts(h.server.database.db, rows);
  return rows;
}

const countWith = async (tag: string) => (await h.api.listContacts({ limit: 1, filter: compare('tags', 'eq', tag) })).meta.maxResults;


describe('bulk erasure', () => {
  it('finds every contact of a filter over two pages, stores ids only, and erases exactly them', async () => {
    const rows = await seed(130, (i) => (i < 120 ? ['leaving'] : ['staying']));
    const ids = await collectErasureIds({ client: h.api, filter: compare('tags', 'eq', 'leaving') });
    expect(new Set(ids)).toEqual(new Set(rows.slice(0, 120).map((row) => row.id)));

    const spec = bulkEraseSpec(ids, 'filter');
    const stored = JSON.stringify(spec);
    for (const row of rows.slice(0, 5)) {
      for (const value of [row.name, row.email, row.phone, row.city].filter((v): v is string => typeof v === 'string' && v.length > 3)) expect(stored).not.toContain(value);
    }
    expect(stored).not.toContain('leaving');
    expect(spec.steps).toHaveLength(120);

    const job = await h.store.addJob(h.server.a.id, spec);
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id, concurrency: 8 })).toBe('done');
    expect((await h.store.getJob(job.id))!.counts).toMatchObject({ erased: 120, alreadyErased: 0, failed: 0 });
    expect(await countWith('leaving')).toBe(0);
    expect(await countWith('staying')).toBe(10);
  }, 60_000);

  it('walks again when another erasure shifts the offsets under the walk, so no contact of the filter is skipped', async () => {
    const rows = await seed(250, () => ['shifting']);
    let pages = 0;
    let erasing = false;
    const erasedMeanwhile: string[] = [];
    beforeGet = async (url) => {
      if (!url.includes('shifting') || erasing) return;
      pages += 1;
      // After the first page (the first 100 in `created asc`), someone else erases 60 of them: the second page, at
      // offset 100, now starts 60 contacts further on, and a single walk would skip those 60.
      if (pages !== 2) return;
      erasing = true;
      const seen = await h.api.listContacts({ limit: 60, filter: compare('tags', 'eq', 'shifting'), orderBy: [{ field: 'created', direction: 'asc' }] });
      for (const contact of seen.items) {
        await h.api.eraseContact(contact.id);
        erasedMeanwhile.push(contact.id);
      }
      erasing = false;
    };
    const ids = await collectErasureIds({ client: h.api, filter: compare('tags', 'eq', 'shifting') });
    beforeGet = null;
    expect(erasedMeanwhile).toHaveLength(60);
    expect(pages).toBeGreaterThan(3); // a second walk
    const stillThere = rows.map((row) => row.id).filter((id) => !erasedMeanwhile.includes(id));
    expect(stillThere).toHaveLength(190);
    expect(ids).toEqual(expect.arrayContaining(stillThere));
    expect(new Set(ids).size).toBe(ids.length);

    // The ids erased meanwhile that the first page saw are answered 404 and counted as already erased.
    const job = await h.store.addJob(h.server.a.id, bulkEraseSpec(ids, 'filter'));
    expect(await runJob({ store: h.store, client: h.api, jobId: job.id, concurrency: 8 })).toBe('done');
    expect((await h.store.getJob(job.id))!.counts).toMatchObject({ erased: 190, alreadyErased: ids.length - 190, failed: 0 });
    expect(await countWith('shifting')).toBe(0);
  }, 60_000);

  it('plans one step per distinct id, and nothing but ids', () => {
    const spec = bulkEraseSpec(['a', 'b', 'a'], 'selection');
    expect(spec).toEqual({
      kind: 'bulk-erase',
      steps: [
        { kind: 'erase-contact', contactId: 'a' },
        { kind: 'erase-contact', contactId: 'b' },
      ],
      meta: { source: 'selection', requested: 2 },
    });
  });

  it('estimates requests and time at the job share of the key limit, and none without a limit', () => {
    expect(erasureEstimate(480, false, 60, 0.2)).toEqual({ requests: 480, lookups: 0, minutes: 10, perMinute: 48 });
    expect(erasureEstimate(250, true, 60, 0.2)).toMatchObject({ requests: 250, lookups: 3, perMinute: 48 });
    expect(erasureEstimate(250, true, 60, 0.2).minutes).toBeCloseTo(250 / 48 + 3 / 60);
    expect(erasureEstimate(5, true, null, 0.2)).toEqual({ requests: 5, lookups: 1, minutes: null, perMinute: null });
  });

  it('accepts the typed count with or without group separators, and nothing else', () => {
    expect(typedCountMatches('1234', 1234)).toBe(true);
    expect(typedCountMatches('1,234', 1234)).toBe(true);
    expect(typedCountMatches('1\u202f234', 1234)).toBe(true);
    expect(typedCountMatches(' 2 ', 2)).toBe(true);
    expect(typedCountMatches('123', 1234)).toBe(false);
    expect(typedCountMatches('', 0)).toBe(false);
    expect(typedCountMatches('two', 2)).toBe(false);
  });
});
