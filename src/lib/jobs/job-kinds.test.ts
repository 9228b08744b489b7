/**
 * The engine's table of job kinds (job-kinds.ts, issue 38 point 4): a kind registered here, in the test, runs through
 * the engine with no engine code naming it: its `source` is the `Activity-Source` of its writes, its `changes` the list
 * announced when it ends, its `title` the title made from its meta, its `undoable` what `canUndo` answers; the
 * engine's undo of it is logged as `console/undo` and announces the same list. A job of a kind nobody registered
 * sends nothing. State in fake-indexeddb; the step kind sends nothing, so no service is needed.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@/api/client';
import { UNDO_KIND, type JobKindSpec, UnknownJobKindError, registerJobKinds } from './job-kinds';
import { type JobStore, createStore } from './job-store';
import { jobTitle, renderTitle, titleFromMeta } from './job-title';
import type { JobRecord, JobTitle, StepRecord } from './job-types';
import { type StepHandler, registerStepHandlers } from './step-kinds';
import { runJob } from './step-runner';
import { announceDataChanged, canUndo, undoSteps } from './workspace-runner';

/** A step kind of this test: it "tallies" a counter up by `by`; its undo tallies it down. */
type TallyStep = { kind: 'test-tally'; counter: string; by: number };

const sent: { counter: string; by: number; headers: Record<string, string> | undefined }[] = [];
const tallyHandler: StepHandler<TallyStep> = {
  kind: 'test-tally',
  async send(step, context) {
    sent.push({ counter: step.counter, by: step.by, headers: context.call.headers });
    return { kind: 'tagged', matched: 1, changed: 1 };
  },
  undo: (step) => ({ kind: 'test-tally', counter: step.counter, by: -step.by }),
};

/** A job kind only this test knows, undone by a job. */
const talliesKind: JobKindSpec = {
  kind: 'test-tallies',
  source: 'console/test-tallies',
  changes: 'test-counters',
  label: 'jobs.kindTestTallies',
  title: (meta, steps): JobTitle => (typeof meta.fileName === 'string' ? { key: 'jobs.titleImport', values: { fileName: meta.fileName } } : { key: 'jobs.titleErase', values: { count: steps } }),
  undoable: true,
};
/** The same facts, but final: never undone. */
const sealedKind: JobKindSpec = { ...talliesKind, kind: 'test-sealed-tallies', undoable: false, final: 'jobs.kindTestSealed' };

// Never called: the kind sends nothing through the client.
const client = createApiClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: 'wsk_unused' });
let store: JobStore;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await createStore();
  sent.length = 0;
  registerStepHandlers(tallyHandler);
  registerJobKinds(talliesKind, sealedKind);
});

/** The next message on the data-changed channel (src/lib/data-changed.ts's), as another tab hears it. */
function nextDataChanged(): Promise<unknown> {
  const channel = new BroadcastChannel('workspace-admin.data-changed');
  return new Promise((resolve) => {
    channel.onmessage = (event: MessageEvent) => {
      channel.close();
      resolve(event.data);
    };
  });
}

/** Adds and runs a job of `kind` with two tally steps; resolves to its record once done. */
async function runTallies(kind: string, meta: Record<string, unknown> = {}): Promise<JobRecord> {
  const steps: TallyStep[] = [
    { kind: 'test-tally', counter: 'a', by: 1 },
    { kind: 'test-tally', counter: 'b', by: 2 },
  ];
  const titleMessage = titleFromMeta(kind, meta, steps.length) ?? undefined;
  const job = await store.addJob('ws-test', { kind, steps, meta, ...(titleMessage ? { titleMessage, title: renderTitle(titleMessage) ?? kind } : {}) });
  expect(await runJob({ store, client, jobId: job.id, concurrency: 1 })).toBe('done');
  return (await store.getJob(job.id))!;
}

describe('the table of job kinds', () => {
  it("sends a registered kind's writes with its source as their Activity-Source, its job one batch", async () => {
    const job = await runTallies('test-tallies');
    expect(sent).toEqual([
      { counter: 'a', by: 1, headers: { 'Activity-Source': 'console/test-tallies', 'Activity-Batch': job.id } },
      { counter: 'b', by: 2, headers: { 'Activity-Source': 'console/test-tallies', 'Activity-Batch': job.id } },
    ]);
  });

  it("announces the kind's list to every tab when its job ended", async () => {
    const job = await runTallies('test-tallies');
    const heard = nextDataChanged();
    await announceDataChanged(store, job);
    expect(await heard).toEqual({ queryKey: ['ws', 'ws-test', 'test-counters'] });
  });

  it("makes a new job's title from its meta by the kind", async () => {
    const job = await runTallies('test-tallies', { fileName: 'tallies.csv' });
    expect(job.titleMessage).toEqual({ key: 'jobs.titleImport', values: { fileName: 'tallies.csv' } });
    expect(jobTitle(job)).toBe('Import tallies.csv');
    expect(titleFromMeta('test-tallies', {}, 2)).toEqual({ key: 'jobs.titleErase', values: { count: 2 } });
  });

  it('undoes a job of an undoable kind by the engine’s undo, logged as console/undo, announcing the undone job’s list', async () => {
    const job = await runTallies('test-tallies');
    expect(job.counts.tagged).toBe(2);
    expect(canUndo(job)).toBe(true);
    const undo = await store.addJob('ws-test', { kind: UNDO_KIND.kind, title: 'Undo', steps: await undoSteps(store, job.id), meta: { undoOf: job.id } });
    sent.length = 0;
    expect(await runJob({ store, client, jobId: undo.id })).toBe('done');
    expect(sent).toEqual([
      { counter: 'a', by: -1, headers: { 'Activity-Source': 'console/undo', 'Activity-Batch': undo.id } },
      { counter: 'b', by: -2, headers: { 'Activity-Source': 'console/undo', 'Activity-Batch': undo.id } },
    ]);
    const heard = nextDataChanged();
    await announceDataChanged(store, (await store.getJob(undo.id))!);
    expect(await heard).toEqual({ queryKey: ['ws', 'ws-test', 'test-counters'] });
  });

  it('offers no undo of a kind whose spec says so, nor of a kind nobody registered', async () => {
    const sealed = await runTallies('test-sealed-tallies');
    expect(sealed.counts.tagged).toBe(2);
    expect(canUndo(sealed)).toBe(false);
    expect(canUndo({ ...sealed, kind: 'test-tallies' })).toBe(true);
    expect(canUndo({ ...sealed, kind: 'test-nobody-registered' })).toBe(false);
  });

  it('stops a job of a kind nobody registered before its first write, leaving its steps pending', async () => {
    const job = await store.addJob('ws-test', { kind: 'test-nobody-registered', title: 'Unknown', steps: [{ kind: 'test-tally', counter: 'a', by: 1 }] });
    await expect(runJob({ store, client, jobId: job.id })).rejects.toBeInstanceOf(UnknownJobKindError);
    expect(sent).toEqual([]);
    const all: StepRecord[] = [];
    await store.eachStep(job.id, (record) => all.push(record));
    expect(all.map((record) => record.status)).toEqual(['pending']);
  });
});
