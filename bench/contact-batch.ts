/**
 * `npx tsx bench/contact-batch.ts` (issue 35): contacts a second created through `POST /contacts/batch` (batches of
 * 1,000) against `POST /contacts` one at a time (16 in flight, as an import job keeps), alternated A/B on one
 * fresh SQLite database, and `GET /stats` cold against cached. Prints ratios: the machine may be shared.
 * `ROUNDS` (default 3) rounds of `PER_ROUND` (default 2,000) contacts each way.
 */
import { performance } from 'node:perf_hooks';
import { call, startServer } from '../server/test/harness';

const rounds = Number(process.env.ROUNDS ?? 3);
const perRound = Number(process.env.PER_ROUND ?? 2000);
const server = await startServer();
let serial = 0;
const item = () => ({ name: 'Bench', email: `b${serial++}@example.com`, tags: ['bench'] });

async function batched(): Promise<number> {
  const start = performance.now();
  for (let sent = 0; sent < perRound; sent += 1000) {
    const answer = await call(server, 'POST', '/contacts/batch', { key: server.a.key, body: { items: Array.from({ length: Math.min(1000, perRound - sent) }, item) } });
    if (answer.status !== 200) throw new Error(answer.text);
  }
  return perRound / ((performance.now() - start) / 1000);
}

async function single(): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < perRound) {
      next += 1;
      const answer = await call(server, 'POST', '/contacts', { key: server.a.key, body: item() });
      if (answer.status !== 201) throw new Error(answer.text);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return perRound / ((performance.now() - start) / 1000);
}

try {
  const rows: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = await batched();
    const b = await single();
    rows.push(`round ${round + 1}: batch ${a.toFixed(0)}/s, single ${b.toFixed(0)}/s, ratio ${(a / b).toFixed(1)}x`);
  }
  // GET /stats: the first read after a write is cold (new data version), the next ones cached.
  await call(server, 'POST', '/contacts/batch', { key: server.a.key, body: { items: [item()] } });
  let t = performance.now();
  await call(server, 'GET', '/stats', { key: server.a.key });
  const cold = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < 20; i++) await call(server, 'GET', '/stats', { key: server.a.key });
  const cached = (performance.now() - t) / 20;
  rows.push(`GET /stats over ${serial} contacts: cold ${cold.toFixed(1)} ms, cached ${cached.toFixed(1)} ms (ratio ${(cold / cached).toFixed(1)}x)`);
  console.log(rows.join('\n'));
} finally {
  await server.close();
}
