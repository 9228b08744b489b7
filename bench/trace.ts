/**
 * A Chromium trace of a stretch of a benchmark, summarised by thread (`--trace` of bench/import.ts): what each thread
 * of each Chromium process was busy with, so the CPU time `cpuByProcess` reports can be put to a cause (rendering,
 * scripts, IPC, IndexedDB).
 *
 * Recorded with CDP `Tracing.start` on the browser's session (categories `toplevel`, `devtools.timeline` and
 * `v8.execute`; events reported as they are collected). The summary counts complete events (`ph: 'X'`) only: each
 * thread's busy time is the sum of its outermost events, and each event name's self time is its duration less its
 * children's.
 */
import type { CdpPage } from './cdp-browser';

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; args?: { name?: string } };

/** Starts tracing; the returned function stops it and resolves to the summary's lines (threads busy at least `minMs`). */
export async function startTrace(page: CdpPage, minMs = 200): Promise<() => Promise<string[]>> {
  const events: TraceEvent[] = [];
  const offData = page.on('Tracing.dataCollected', (params) => events.push(...(params.value as TraceEvent[])));
  await page.sendToBrowser('Tracing.start', { categories: 'toplevel,devtools.timeline,v8.execute', transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise<void>((resolve) => {
      const off = page.on('Tracing.tracingComplete', () => {
        off();
        resolve();
      });
    });
    await page.sendToBrowser('Tracing.end');
    await complete;
    offData();
    return summarise(events, minMs);
  };
}

function summarise(events: readonly TraceEvent[], minMs: number): string[] {
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '?');
    if (event.ph === 'M' && event.name === 'process_name') processNames.set(event.pid, event.args?.name ?? '?');
    if (event.ph !== 'X' || event.dur === undefined) continue;
    const key = `${event.pid}:${event.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), event]);
  }
  const lines: string[] = [];
  const summaries = [...byThread].map(([key, list]) => {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    let busy = 0;
    for (const event of list) {
      while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur!);
      else busy += event.dur!;
      self.set(event.name, (self.get(event.name) ?? 0) + event.dur!);
      stack.push(event);
    }
    return { key, busy, self };
  });
  for (const { key, busy, self } of summaries.sort((a, b) => b.busy - a.busy)) {
    if (busy / 1000 < minMs) continue;
    const pid = Number(key.split(':')[0]);
    lines.push(`${processNames.get(pid) ?? 'process'} ${pid}, ${threadNames.get(key) ?? 'thread'}: busy ${(busy / 1000).toFixed(0)} ms`);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 10);
    for (const [name, us] of top) lines.push(`  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  }
  return lines;
}
