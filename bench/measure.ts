/**
 * The measurements of the API benchmark: a list case under autocannon load (after one timed cold request),
 * and a spreadsheet export streamed to a byte counter while the server's memory is sampled.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { readCpuMs, readMemory, sampleMemory } from './server-process';
import { countXlsxRows } from './xlsx-rows';

/** `encodeURIComponent`, also escaping `!'()*`, so every reserved character of a query value is percent-encoded. */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `?%24limit=50&...` for the given `$`-parameters, names and values percent-encoded. */
export function queryString(params: Record<string, string | number>): string {
  return `?${Object.entries(params)
    .map(([name, value]) => `${encodeQueryValue(name)}=${encodeQueryValue(String(value))}`)
    .join('&')}`;
}

export type LoadResult = {
  /** Latency of the first (cold) request, ms. */
  coldMs: number;
  /** `meta.maxResults` of the cold request. */
  maxResults: number;
  /** Items on the page of the cold request. */
  items: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU time (user + system) per request under load, ms; null when /proc is unreadable. */
  serverCpuMsPerRequest: number | null;
  /** Share of one core the server used under load, 0..1 (near 1: the server is the bottleneck). */
  serverCpuShare: number | null;
};

/**
 * One cold request to `url` (timed, must answer 200 with a contact page), then `durationSeconds` of autocannon
 * with `connections` connections, reading the CPU time of `serverPid` around the load. Throws when the cold
 * request fails; the caller checks `non2xx`/`errors`.
 */
export async function measureLoad(url: string, apiKey: string, options: { connections: number; durationSeconds: number; serverPid: number }): Promise<LoadResult> {
  const started = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  const text = await response.text();
  const coldMs = performance.now() - started;
  if (response.status !== 200) throw new Error(`warm-up request ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  const page = JSON.parse(text) as { items: unknown[]; meta: { maxResults: number } };

  const cpuBefore = readCpuMs(options.serverPid);
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: { 'x-api-key': apiKey },
  });
  const cpuAfter = readCpuMs(options.serverPid);
  const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return {
    coldMs,
    maxResults: page.meta.maxResults,
    items: page.items.length,
    requestsPerSecond: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    serverCpuMsPerRequest: cpuMs === null || result.requests.total === 0 ? null : cpuMs / result.requests.total,
    serverCpuShare: cpuMs === null ? null : cpuMs / (result.duration * 1000),
  };
}

export type ExportResult = {
  status: number;
  contentType: string;
  seconds: number;
  bytes: number;
  /** Data rows (header excluded): CRLF lines for CSV, `<row` elements of the sheet for xlsx. */
  rows: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
  /** SHA-256 of the body, hex (to check two exports are byte-identical). */
  sha256: string;
};

/**
 * Downloads `url` with `accept`, counting bytes (and CRLF line ends) as the body streams in, while sampling the
 * RSS of `serverPid` every 50 ms, and hashing it (SHA-256). For xlsx the body is also written to `xlsxFile`, whose sheet rows are counted
 * afterwards (outside the timing). Throws for a non-200 answer.
 */
export async function measureExport(url: string, apiKey: string, accept: string, serverPid: number, xlsxFile?: string): Promise<ExportResult> {
  const rssBeforeBytes = readMemory(serverPid) ?? 0;
  const sampler = sampleMemory(serverPid, 50);
  let peakRssBytes = 0;
  let bytes = 0;
  let lineEnds = 0;
  let lastByte = -1;
  let seconds = 0;
  let response: Response;
  const hash = createHash('sha256');
  const file = xlsxFile ? createWriteStream(xlsxFile) : null;
  try {
    const started = performance.now();
    response = await fetch(url, { headers: { 'x-api-key': apiKey, accept } });
    if (response.status !== 200 || !response.body) {
      throw new Error(`export ${accept} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
    }
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) {
        const previous = i > 0 ? chunk[i - 1] : lastByte;
        if (previous === 13) lineEnds++;
      }
      lastByte = chunk[chunk.length - 1] ?? lastByte;
      if (file && !file.write(chunk)) await once(file, 'drain');
    }
    seconds = (performance.now() - started) / 1000;
  } finally {
    peakRssBytes = sampler.stop();
    if (file) {
      file.end();
      await once(file, 'close');
    }
  }
  const rows = xlsxFile ? (await countXlsxRows(xlsxFile)) - 1 : lineEnds - 1;
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', seconds, bytes, rows, rssBeforeBytes, peakRssBytes, sha256: hash.digest('hex') };
}

export type ConcurrentExportsResult = {
  /** Answers by status (200 downloads, 503 refused by the export bound). */
  statuses: Record<number, number>;
  /** Seconds until the last answer's last byte. */
  seconds: number;
  /** Bytes of all the 200 answers together. */
  bytes: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
};

/**
 * Sends `count` export requests (`accept`) to `url` at once and reads every answer to its end, sampling the
 * RSS of `serverPid` (as `measureExport`) until the last one is done: what a burst of exports costs the
 * server's memory (issue 12 point 10).
 */
export async function measureConcurrentExports(url: string, apiKey: string, accept: string, count: number, serverPid: number): Promise<ConcurrentExportsResult> {
  const rssBeforeBytes = readMemory(serverPid) ?? 0;
  const sampler = sampleMemory(serverPid, 50);
  const statuses: Record<number, number> = {};
  let bytes = 0;
  const started = performance.now();
  let peakRssBytes = 0;
  try {
    await Promise.all(
      Array.from({ length: count }, async () => {
        const response = await fetch(url, { headers: { 'x-api-key': apiKey, accept } });
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (!response.body) return;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) if (response.status === 200) bytes += chunk.length;
      }),
    );
  } finally {
    peakRssBytes = sampler.stop();
  }
  return { statuses, seconds: (performance.now() - started) / 1000, bytes, rssBeforeBytes, peakRssBytes };
}
