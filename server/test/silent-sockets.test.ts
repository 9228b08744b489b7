/**
 * Sockets that never send a byte, against the service as `npm start` runs it (issue 37, third report): the
 * issue's own client, run as it was given (`node -e`, five connections that neither write nor read, counting
 * `close` events), against the compiled server/main.ts on plain Node with start.mjs's V8 flags and no timeout
 * variable set (started-service.ts). Which shipped timeout applies: a connection that has not delivered a
 * request's headers is held to the 10 s headers timeout (`DEFAULT_TIMEOUTS.headersMs`, checked every second,
 * server/plugins/transport.ts), not the 60 s idle one, so the client's 100 s wait is shortened to that timeout
 * plus 5 s; nothing else of the client changes. Before the fix the service wrote a 408 to each socket before
 * closing it: a client that never reads keeps those bytes unread, never sees the end of the stream, and so never
 * sees the connection close (`open at ...: 5`). SQLite only: nothing here depends on the database.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS } from '../plugins/transport';
import { useStartedService } from './started-service';
import { TEST_DATABASE } from './test-database';

/** The client of issue 37, verbatim but for `PORT` and its wait (100000 ms in the issue). */
const issueClient = (port: number, waitMs: number) =>
  `const n=require('net');const s=[];const t0=Date.now();for(let i=0;i<5;i++){const c=n.connect(${port},'127.0.0.1');c.on('close',()=>console.log('closed',i,(Date.now()-t0)/1000));s.push(c)};setTimeout(()=>{console.log('open at 100 s:',s.filter(c=>!c.destroyed).length);process.exit(0)},${waitMs})`;

describe.skipIf(TEST_DATABASE !== 'sqlite')("issue 37's silent client against the service as npm start runs it", () => {
  const service = useStartedService('silent');

  it('sees all 5 sockets closed by the 10 s headers timeout, none left open', async () => {
    const started = service();
    const waitMs = DEFAULT_TIMEOUTS.headersMs + 5_000;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', issueClient(started.port, waitMs)], { timeout: waitMs + 10_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(output).toMatch(/open at 100 s: 0\n/);
    const closedAt = [...output.matchAll(/^closed (\d) ([\d.]+)$/gm)].map((match) => Number(match[2]));
    expect(closedAt).toHaveLength(5);
    for (const seconds of closedAt) {
      expect(seconds).toBeGreaterThanOrEqual(DEFAULT_TIMEOUTS.headersMs / 1000 - 0.1);
      expect(seconds).toBeLessThan(DEFAULT_TIMEOUTS.headersMs / 1000 + 3);
    }
  }, 60_000);
});
