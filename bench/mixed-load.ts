/**
 * Memory under a mixed load (issue 21 point 3): for `durationSeconds`, autocannon sends `connections`
 * connections of mixed requests (contact pages with and without filters and sorts, deep pages, tag counts,
 * single contacts created, tag edits, posts and products listed) while `exportLoops` loops each download export
 * after export of every contact (CSV and xlsx in turn, read to the end), and the server's RSS is sampled every
 * 50 ms (and its kernel peak mark read at the end): the peak RSS of the whole run, which must stay under 300 MB.
 * Meanwhile 5 sockets that never send a byte and one that sends half a request's headers are opened at the start
 * (issue 21 point 1, under load): how long the server kept each open is reported.
 */
import { connect } from 'node:net';
import autocannon from 'autocannon';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../src/api/contacts';
import { queryString } from './measure';
import { readMemory, sampleMemory } from './server-process';

export type MixedLoadResult = {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx among the mixed requests (autocannon's count). */
  non2xx: number;
  /** Answers 500 to 599 among the mixed requests. */
  serverErrors: number;
  /** autocannon's errors and timeouts (10 s without an answer). */
  errors: number;
  /** Exports read to the end, by format; and answers that were not 200 (a 503 of the queue, say), by status. */
  exports: { csv: number; xlsx: number; refused: Record<number, number>; failed: number };
  rssBeforeBytes: number;
  peakRssBytes: number;
  rssAfterBytes: number;
  /** Seconds the server kept each idle socket open (null: still open at the end of the run). */
  idleSocketSeconds: (number | null)[];
};

/** Opens 5 silent sockets and one with half a request's headers to `origin`; `lifetimes()` says how long each lived. */
function idleSockets(origin: string) {
  const { hostname, port } = new URL(origin);
  const opened = Date.now();
  const closedAt: (number | null)[] = [];
  const sockets = Array.from({ length: 6 }, (_, index) => {
    const socket = connect(Number(port), hostname);
    closedAt.push(null);
    socket.on('error', () => {});
    socket.on('data', () => {});
    const closed = () => (closedAt[index] ??= Date.now());
    socket.once('end', closed);
    socket.once('close', closed);
    if (index === 5) socket.write('GET /api/contacts HTTP/1.1\r\nHost: bench\r\nx-api-');
    return socket;
  });
  return {
    lifetimes: () => {
      for (const socket of sockets) socket.destroy();
      return closedAt.map((at) => (at === null ? null : (at - opened) / 1000));
    },
  };
}

/** The mixed requests, cycled by each connection; `contactId` is a contact to edit tags of. */
function mixedRequests(apiKey: string, contactId: string): autocannon.Request[] {
  const headers = { 'x-api-key': apiKey };
  const json = { ...headers, 'content-type': 'application/json' };
  const page = (params: Record<string, string | number>) => ({ method: 'GET' as const, path: `/api/contacts${queryString(params)}`, headers });
  let created = 0;
  return [
    page({ $limit: 50 }),
    page({ $limit: 50, $filter: "state eq 'active'" }),
    page({ $limit: 50, $filter: "tags eq 'vip'", $orderBy: 'name asc' }),
    page({ $limit: 50, $filter: "name like 'ann'" }),
    page({ $limit: 100, $offset: 5000 }),
    { method: 'GET', path: '/api/contacts/contacts-tags', headers },
    {
      method: 'POST',
      path: '/api/contacts',
      headers: json,
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `Load ${++created}`, email: `load-${created}-${Date.now()}@example.com`, tags: ['load'] }) }),
    },
    { method: 'PATCH', path: `/api/contacts/${encodeURIComponent(contactId)}/tags`, headers: json, body: JSON.stringify({ tagsToAdd: ['mixed'], tagsToRemove: ['other'] }) },
    { method: 'GET', path: `/api/posts${queryString({ $limit: 20 })}`, headers },
    { method: 'GET', path: `/api/products${queryString({ $limit: 20 })}`, headers },
  ];
}

/** One export loop: downloads every contact as CSV, then xlsx, then CSV... until `until` (ms since the epoch). */
async function exportLoop(url: string, apiKey: string, until: number, counts: MixedLoadResult['exports'], offset: number) {
  for (let round = offset; Date.now() < until; round++) {
    const format = round % 2 === 0 ? 'csv' : 'xlsx';
    try {
      const response = await fetch(url, { headers: { 'x-api-key': apiKey, accept: format === 'csv' ? CSV_MEDIA_TYPE : XLSX_MEDIA_TYPE } });
      if (response.status !== 200) {
        counts.refused[response.status] = (counts.refused[response.status] ?? 0) + 1;
        await response.body?.cancel();
        const wait = Number(response.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 5) * 1000));
        continue;
      }
      for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        // read to the end, as a client saving the file does
      }
      counts[format]++;
    } catch {
      counts.failed++;
    }
  }
}

/**
 * Runs the mixed load on `origin` with `apiKey` for `durationSeconds` (`connections` autocannon connections,
 * `exportLoops` export loops at once), sampling the RSS of `serverPid`.
 */
export async function measureMixedLoad(
  origin: string,
  apiKey: string,
  options: { durationSeconds: number; connections: number; exportLoops: number; serverPid: number },
): Promise<MixedLoadResult> {
  const first = await fetch(`${origin}/api/contacts?%24limit=1`, { headers: { 'x-api-key': apiKey } });
  const contactId = ((await first.json()) as { items: { id: string }[] }).items[0]?.id ?? 'none';
  const rssBeforeBytes = readMemory(options.serverPid) ?? 0;
  const sampler = sampleMemory(options.serverPid, 50);
  const started = performance.now();
  const until = Date.now() + options.durationSeconds * 1000;
  const exports: MixedLoadResult['exports'] = { csv: 0, xlsx: 0, refused: {}, failed: 0 };
  let peakRssBytes = 0;
  let load: autocannon.Result;
  const idle = idleSockets(origin);
  try {
    const loops = Array.from({ length: options.exportLoops }, (_, index) => exportLoop(`${origin}/api/contacts`, apiKey, until, exports, index));
    load = await autocannon({ url: origin, connections: options.connections, duration: options.durationSeconds, requests: mixedRequests(apiKey, contactId) });
    await Promise.all(loops);
  } finally {
    peakRssBytes = sampler.stop();
  }
  return {
    seconds: (performance.now() - started) / 1000,
    requests: load.requests.total,
    requestsPerSecond: load.requests.mean,
    p50Ms: load.latency.p50,
    p99Ms: load.latency.p99,
    non2xx: load.non2xx,
    serverErrors: load['5xx'],
    errors: load.errors + load.timeouts,
    exports,
    rssBeforeBytes,
    peakRssBytes,
    rssAfterBytes: readMemory(options.serverPid) ?? 0,
    idleSocketSeconds: idle.lifetimes(),
  };
}
