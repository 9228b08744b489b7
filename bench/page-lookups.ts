/**
 * The import's look-ups as a script for a page of the console (`page.evaluate`), for the benchmarks that measure what
 * they cost the browser (bench/http-cache.ts, bench/request-garbage.ts): `requests` `GET /contacts?$limit=100` with an
 * `email in (...)` filter of 55 made-up emails (numbered from `first`, so no two runs send the same filter), 6 at a
 * time as the plan sends them, each answer read as JSON; `cache` is fetch's cache mode (none: its default). The script
 * resolves to the time the requests took, in ms.
 */
export function pageLookups(apiKey: string, options: { requests: number; first?: number; cache?: RequestCache }): string {
  return `(async () => {
  const started = performance.now();
  let next = 0;
  const one = async () => {
    while (next < ${options.requests}) {
      const i = ${options.first ?? 0} + next++;
      const emails = Array.from({ length: 55 }, (_, k) => "'bench.person." + i + "." + k + "@example.org'").join(', ');
      const init = { headers: { 'x-api-key': ${JSON.stringify(apiKey)}, accept: 'application/json' } };
      ${options.cache ? `init.cache = ${JSON.stringify(options.cache)};` : ''}
      await (await fetch('/api/contacts?$limit=100&$filter=' + encodeURIComponent('email in (' + emails + ')'), init)).json();
    }
  };
  await Promise.all(Array.from({ length: 6 }, one));
  return performance.now() - started;
})()`;
}
