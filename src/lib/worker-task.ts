/**
 * A Web Worker run as one task (issue 20: the contacts import's file reader; its plan worker's plan, then its store):
 * `onMessage` handles each message the worker posts and settles the task with `resolve` or `reject`. The worker is terminated when the task
 * settles, when `signal` aborts (rejecting with its reason, else an AbortError), or when the worker fails (an Error
 * with the browser's message, else `stopped()`, a sentence in the language shown). With `keep`, a resolved task
 * leaves the worker running for the next task (another `runWorker` on it); the caller terminates it in the end.
 */
export type WorkerSettle<Result> = { resolve(value: Result): void; reject(error: unknown): void };

export function runWorker<Message, Result>(
  worker: Worker,
  options: { signal?: AbortSignal | undefined; stopped: () => string; keep?: boolean; onMessage: (message: Message, settle: WorkerSettle<Result>) => void },
): Promise<Result> {
  const { signal, stopped, keep = false, onMessage } = options;
  return new Promise<Result>((resolve, reject) => {
    const stop = (terminate = true) => {
      if (terminate) worker.terminate();
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      stop();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle: WorkerSettle<Result> = {
      resolve(value) {
        stop(!keep);
        resolve(value);
      },
      reject(error) {
        stop();
        reject(error);
      },
    };
    worker.onerror = (event) => settle.reject(new Error(event.message || stopped()));
    worker.onmessage = (event: MessageEvent<Message>) => onMessage(event.data, settle);
  });
}
