/**
 * Connection timeouts with the shipped defaults (issue 21 point 1): the service started as `npm start` runs it
 * (started-service.ts: the compiled server/main.ts on plain Node with start.mjs's V8 flags, no timeout variable
 * in its environment, so `HEADERS_TIMEOUT_MS` 10000, `REQUEST_TIMEOUT_MS` 30000, `IDLE_TIMEOUT_MS` 60000) closes
 * sockets that never send a byte (without an answer: issue 37) and sockets that sent half a request's headers
 * (answering 408) once the 10 s headers timeout has passed. server/test/transport.test.ts checks the same with timeouts of a few hundred ms; this
 * file checks that the defaults act in the real process. SQLite only: nothing here depends on the database.
 */
import { type Socket, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS } from '../plugins/transport';
import { useStartedService } from './started-service';
import { TEST_DATABASE } from './test-database';

type Watched = { socket: Socket; opened: number; closedAt: number | null; received: string };

/** A raw connection to `port` that records what it receives and when the server closed it. */
function watch(port: number, send?: string): Watched {
  const socket = connect(port, '127.0.0.1');
  const watched: Watched = { socket, opened: Date.now(), closedAt: null, received: '' };
  socket.on('data', (chunk) => (watched.received += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = () => (watched.closedAt ??= Date.now());
  socket.once('end', closed);
  socket.once('close', closed);
  if (send) socket.write(send);
  return watched;
}

describe.skipIf(TEST_DATABASE !== 'sqlite')('the shipped connection timeouts, in the process npm start runs', () => {
  const service = useStartedService('timeouts');

  it('closes 5 silent sockets (no answer), one with half its headers and one pausing mid-headers after a first request (408), at the 10 s headers timeout', async () => {
    const started = service();
    expect(DEFAULT_TIMEOUTS.headersMs).toBe(10_000);
    const silent = Array.from({ length: 5 }, () => watch(started.port));
    const halfHeaders = watch(started.port, 'GET /api/contacts HTTP/1.1\r\nHost: test\r\nx-api-');
    const secondRequest = watch(started.port, 'GET /healthz HTTP/1.1\r\nHost: test\r\n\r\nGET /api/contacts HTTP/1.1\r\nHost: te');
    const all = [...silent, halfHeaders, secondRequest];
    const deadline = Date.now() + DEFAULT_TIMEOUTS.headersMs + 8_000;
    while (all.some((watched) => watched.closedAt === null) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const watched of all) {
      watched.socket.destroy();
      expect(watched.closedAt, 'the server closed the connection').not.toBeNull();
      const lifetime = watched.closedAt! - watched.opened;
      // Node checks the timeouts every second (transport.ts `connectionsCheckingInterval`): 10 to about 11 s.
      expect(lifetime).toBeGreaterThanOrEqual(DEFAULT_TIMEOUTS.headersMs - 100);
      expect(lifetime).toBeLessThan(DEFAULT_TIMEOUTS.headersMs + 3_000);
      // A socket that sent nothing is closed without an answer (issue 37); one that sent part of a request gets 408.
      if (silent.includes(watched)) expect(watched.received).toBe('');
      else expect(watched.received).toMatch(/HTTP\/1\.1 408 Request Timeout\r\n/);
    }
    expect(secondRequest.received).toMatch(/^HTTP\/1\.1 200 OK\r\n/); // its first request was answered
  }, 40_000);
});
