/**
 * The "cold search" part of the API benchmark (issue 13): requests whose filter is new to the service, so the
 * exact count for `meta.maxResults` is not cached yet (server/db/count-cache.ts) and the answer pays for it. Each
 * is sent once, one at a time, and timed to the last byte of the answer (the page and `meta.maxResults`).
 * - the search box (src/features/contacts/list/contact-search.ts: name or email contains the text, or the phone the
 *   digits) for 10 terms of 3 to 6 characters: names and parts of names from rare to frequent in the generated
 *   data, and two phone numbers, one typed with a space;
 * - a `like` (contains) on each searched field alone;
 * - the state facet's counts for a search (`$limit=1`, the search and `state eq`), as the contacts page asks.
 * Goal: p50 <= 50 ms and max <= 150 ms for the search box terms on 1,000,000 contacts. Beside the time, each
 * request's CPU time in the server process and, on PostgreSQL, in the backends serving the benchmark's database
 * (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds): unlike the time, it hardly moves with the machine's load.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { type FilterNode, and, compare } from '../src/api/filter/ast';
import { printFilter } from '../src/api/filter/print';
import { contactSearchSchema, facetFilter } from '../src/features/contacts/list/contact-search';
import { queryString } from './measure';

/** Search box terms, none used by another case of the benchmark before them. */
export const SEARCH_TERMS = ['ann', 'mar', 'joh', 'berg', 'will', 'chris', 'olson', 'kari', '4712', '123 45'];
const FIELD_TERMS: [string, string][] = [['name', 'lind'], ['email', 'yah'], ['phone', '00012'], ['city', 'ville'], ['address', 'lane']];
const FACET_TERMS = ['ann', 'berg', 'kari'];

export type ColdCase = { group: 'search box' | 'field' | 'state facet'; label: string; filter: string; limit: number };
export type ColdResult = ColdCase & { ms: number; maxResults: number; items: number; cpuMs: number | null };

/** CPU time so far of every thread of `pid`, in ms (0 when the process is gone), or null without /proc. */
function threadsCpuMs(pid: number): number | null {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      } catch {
        return sum;
      }
    }, 0);
  } catch {
    return null;
  }
}

/** CPU time so far of all `pids`, ms; null when /proc cannot tell. */
function cpuMsOf(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    const ms = threadsCpuMs(pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

const searchBox = (q: string): FilterNode => facetFilter(contactSearchSchema.parse({ q })) as FilterNode;

/** Every cold case, in the order they are sent. */
export function coldCases(pageSize: number): ColdCase[] {
  return [
    ...SEARCH_TERMS.map((term): ColdCase => ({ group: 'search box', label: `'${term}'`, filter: printFilter(searchBox(term)), limit: pageSize })),
    ...FIELD_TERMS.map(([field, term]): ColdCase => ({ group: 'field', label: `${field} like '${term}'`, filter: printFilter(compare(field, 'like', term)), limit: pageSize })),
    ...FACET_TERMS.flatMap((term) =>
      (['pending', 'active'] as const).map((state): ColdCase => ({
        group: 'state facet',
        label: `'${term}', ${state}`,
        filter: printFilter(and(searchBox(term), compare('state', 'eq', state))),
        limit: 1,
      })),
    ),
  ];
}

/**
 * Sends each case once to `${origin}/api/contacts`, in order, timing it to the last byte and reading the CPU time
 * of `servingPids()` (the server process, and PostgreSQL's backends for it) around it; throws on a non-200.
 */
export async function measureColdSearches(origin: string, apiKey: string, cases: ColdCase[], servingPids: () => Promise<number[]>): Promise<ColdResult[]> {
  const results: ColdResult[] = [];
  for (const test of cases) {
    const url = `${origin}/api/contacts${queryString({ $limit: test.limit, $filter: test.filter })}`;
    const pids = await servingPids();
    const cpuBefore = cpuMsOf(pids);
    const started = performance.now();
    const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
    const text = await response.text();
    const ms = performance.now() - started;
    const cpuAfter = cpuMsOf(pids);
    if (response.status !== 200) throw new Error(`cold search ${test.label} answered ${response.status}: ${text.slice(0, 500)}`);
    const body = JSON.parse(text) as { items: unknown[]; meta: { maxResults: number } };
    const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    results.push({ ...test, ms, maxResults: body.meta.maxResults, items: body.items.length, cpuMs });
  }
  return results;
}

/** The `q` quantile (0..1) of `values` (the lower middle value for p50 of an even count). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** The markdown lines of the cold search tables, with the goal for the search box terms and pass/fail. */
export function coldSearchLines(results: ColdResult[], ms: (value: number) => string, int: (value: number) => string): string[] {
  const boxes = results.filter((result) => result.group === 'search box');
  const box = boxes.map((result) => result.ms);
  const cpu = boxes.flatMap((result) => (result.cpuMs === null ? [] : [result.cpuMs]));
  const p50 = quantile(box, 0.5);
  const max = Math.max(...box);
  const cpuText = (value: number | null) => (value === null ? 'n/a' : ms(value));
  return [
    'Cold search (a filter new to the service: the exact count is not cached; one request each, timed to the last byte; CPU: the server process and, on PostgreSQL, its backends, during the request):',
    '',
    '| kind | term | maxResults | items | ms | CPU ms |',
    '|---|---|---:|---:|---:|---:|',
    ...results.map((result) => `| ${result.group} | ${result.label} | ${int(result.maxResults)} | ${result.items} | ${ms(result.ms)} | ${cpuText(result.cpuMs)} |`),
    '',
    `Search box, ${box.length} terms: p50 ${ms(p50)} ms, max ${ms(max)} ms (CPU p50 ${cpu.length ? ms(quantile(cpu, 0.5)) : 'n/a'} ms, max ${cpu.length ? ms(Math.max(...cpu)) : 'n/a'} ms); ` +
      `goal p50 <= 50 ms and max <= 150 ms: ${p50 <= 50 && max <= 150 ? 'pass' : '**FAIL**'}.`,
    '',
  ];
}
