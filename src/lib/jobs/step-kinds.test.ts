/**
 * The engine's table of step kinds (step-kinds.ts, issue 38 point 4): a kind registered here, in the test, runs
 * through the engine (runJob, the report, the undo) with no engine code naming it; a kind nobody registered stops
 * the run and leaves its step unsent. State in fake-indexeddb; the kind sends nothing, so no service is needed.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@/api/client';
import { registerJobKinds } from './job-kinds';
import { loadReport } from './job-report';
import { type JobStore, createStore } from './job-store';
import type { StepRecord } from './job-types';
import { type StepContext, type StepHandler, UnknownStepKindError, registerStepHandlers } from './step-kinds';
import { runJob, stepKey } from './step-runner';
import { undoSteps } from './workspace-runner';

/** A kind only this test knows: it "stamps" a note, and its undo stamps the note back. */
type StampStep = { kind: 'test-stamp'; note: string; previous: string; rows?: number[] };

const seen: { note: string; key: string | undefined; headers: Record<string, string> | undefined; lost: boolean }[] = [];
const stampHandler: StepHandler<StampStep> = {
  kind: 'test-stamp',
  async send(step, context: StepContext) {
    seen.push({ note: step.note, key: context.call.idempotencyKey, headers: context.call.headers, lost: context.lost });
    return { kind: 'updated', id: `note-${step.note}` };
  },
  describe: (step) => ({ rows: (step.rows ?? []).join(' '), note: step.note }),
  undo: (step, outcome) => (outcome.kind === 'updated' ? { kind: 'test-stamp', note: step.previous, previous: step.note } : null),
};

// The job holding the steps: a job kind of this test too (job-kinds.ts; its own test is job-kinds.test.ts).
registerJobKinds({ kind: 'test-stamps', source: 'console/test-stamps', label: 'jobs.kindTestStamps', undoable: false });

// Never called: the kind sends nothing through the client.
const client = createApiClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: 'wsk_unused' });
let store: JobStore;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await createStore();
  seen.length = 0;
});

describe('the table of step kinds', () => {
  it('runs a kind registered in a test through the engine, with its key and headers, and reports and undoes it by its handler', async () => {
    registerStepHandlers(stampHandler);
    const steps: StampStep[] = [
      { kind: 'test-stamp', note: 'a', previous: '', rows: [2] },
      { kind: 'test-stamp', note: 'b', previous: 'a', rows: [3] },
    ];
    const job = await store.addJob('ws-test', { kind: 'test-stamps', title: 'Stamp', steps });
    expect(await runJob({ store, client, jobId: job.id, concurrency: 1 })).toBe('done');

    expect(seen).toEqual([
      { note: 'a', key: stepKey(job.id, 0), headers: { 'Activity-Source': 'console/test-stamps', 'Activity-Batch': job.id }, lost: false },
      { note: 'b', key: stepKey(job.id, 1), headers: { 'Activity-Source': 'console/test-stamps', 'Activity-Batch': job.id }, lost: false },
    ]);
    expect(await store.getJob(job.id)).toMatchObject({ state: 'done', settled: 2, counts: { updated: 2, failed: 0 } });
    const report = await loadReport(store, job);
    expect(report.updated.rows).toEqual([
      { rows: '2', note: 'a', id: 'note-a' },
      { rows: '3', note: 'b', id: 'note-b' },
    ]);
    expect(await undoSteps(store, job.id)).toEqual([
      { kind: 'test-stamp', note: '', previous: 'a' },
      { kind: 'test-stamp', note: 'a', previous: 'b' },
    ]);
  });

  it('stops a run at a step whose kind has no handler, sending nothing and leaving the step pending', async () => {
    const job = await store.addJob('ws-test', { kind: 'test-stamps', title: 'Unknown', steps: [{ kind: 'test-nobody-registered', value: 1 }] });
    await expect(runJob({ store, client, jobId: job.id })).rejects.toBeInstanceOf(UnknownStepKindError);
    const all: StepRecord[] = [];
    await store.eachStep(job.id, (record) => all.push(record));
    expect(all.map((record) => record.status)).toEqual(['pending']);
    expect(await store.getJob(job.id)).toMatchObject({ state: 'running', settled: 0 });
  });
});
