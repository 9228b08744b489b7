/**
 * `runWorker` (worker-task.ts) with a stand-in for a Worker (Node has none): when the worker is terminated as a task
 * settles, aborts or fails, and `keep`, which leaves it running for the next task.
 */
import { describe, expect, it } from 'vitest';
import { runWorker } from './worker-task';

/** What runWorker uses of a Worker: the handlers it sets, and `terminate`, counted. */
function standIn() {
  const worker = { terminated: 0, onmessage: null as ((event: MessageEvent) => void) | null, onerror: null as ((event: ErrorEvent) => void) | null, terminate() { worker.terminated++; } };
  return { worker, post: (data: unknown) => worker.onmessage?.({ data } as MessageEvent), fail: (message: string) => worker.onerror?.({ message } as ErrorEvent) };
}

const settleOn = { stopped: () => 'stopped', onMessage: (message: { ok: boolean; value: string }, settle: { resolve(value: string): void; reject(error: unknown): void }) => (message.ok ? settle.resolve(message.value) : settle.reject(new Error(message.value))) };

describe('runWorker', () => {
  it('terminates the worker when the task resolves or rejects', async () => {
    const done = standIn();
    const resolving = runWorker(done.worker as unknown as Worker, settleOn);
    done.post({ ok: true, value: 'plan' });
    await expect(resolving).resolves.toBe('plan');
    expect(done.worker.terminated).toBe(1);
    const failed = standIn();
    const rejecting = runWorker(failed.worker as unknown as Worker, settleOn);
    failed.post({ ok: false, value: 'no' });
    await expect(rejecting).rejects.toThrow('no');
    expect(failed.worker.terminated).toBe(1);
  });

  it('with keep, leaves a resolved worker running for the next task, which terminates it', async () => {
    const { worker, post } = standIn();
    const first = runWorker(worker as unknown as Worker, { ...settleOn, keep: true });
    post({ ok: true, value: 'plan' });
    await expect(first).resolves.toBe('plan');
    expect(worker.terminated).toBe(0);
    const second = runWorker(worker as unknown as Worker, settleOn);
    post({ ok: true, value: 'stored' });
    await expect(second).resolves.toBe('stored');
    expect(worker.terminated).toBe(1);
  });

  it('with keep, still terminates on a failure or an abort', async () => {
    const failing = standIn();
    const crashed = runWorker(failing.worker as unknown as Worker, { ...settleOn, keep: true });
    failing.fail('');
    await expect(crashed).rejects.toThrow('stopped');
    expect(failing.worker.terminated).toBe(1);
    const aborting = standIn();
    const controller = new AbortController();
    const aborted = runWorker(aborting.worker as unknown as Worker, { ...settleOn, keep: true, signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toThrow();
    expect(aborting.worker.terminated).toBe(1);
  });
});
