/**
 * `GET /events`, our service's extension `events` (docs/decisions.md section 13, issue 36; docs/live.md): a
 * Server-Sent Events stream of the committed changes of the key's workspace to the resources the key can read. The
 * stream itself is the event hub's (events/hub.ts); this route checks the request, counts the stream (429 past 5 per
 * key), and starts the answer: `text/event-stream`, never cached or transformed, and `X-Accel-Buffering: no` so a
 * proxy in front (nginx) passes each event on at once. HEAD answers the head alone and opens nothing.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { grants } from '../../src/api/scopes';
import type { EventHub } from '../events/hub';
import { keyPrincipal } from '../plugins/auth';
import { READ_SCOPES } from './activity';

/** The head of a stream's answer (besides what the plugins set: trace id, version, rate limit, security, CORS). */
export const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const;

/** The route of `GET /events` over `hub`. */
export function eventRoutes(hub: EventHub): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/events', { config: { auth: 'key' } }, async (request, reply) => {
      const principal = keyPrincipal(request);
      // Node joins a repeated Last-Event-ID into one value, which is then no sequence number: a reset.
      const header = request.headers['last-event-id'];
      if (request.method === 'HEAD') return reply.headers(STREAM_HEADERS).send();
      const resources = new Set(READ_SCOPES.filter(([, scope]) => grants(principal.scopes, scope)).map(([resource]) => resource));
      const raw = reply.raw;
      let gone = false;
      let handle: { closed(): void } | null = null;
      raw.once('close', () => {
        gone = true;
        handle?.closed();
      });
      handle = await hub.open({ keyId: principal.keyId, workspaceId: principal.workspaceId, resources, lastEventId: typeof header === 'string' ? header.trim() || undefined : undefined }, () => {
        reply.hijack();
        const head: Record<string, string | number | string[]> = {};
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) head[name] = value;
        raw.writeHead(200, { ...head, ...STREAM_HEADERS });
        raw.flushHeaders();
        // Node's per-request timeout does not apply to an answer being written; the heartbeat keeps the socket busy.
        request.raw.socket?.setNoDelay(true);
        return {
          write: (text) => {
            if (!raw.destroyed && !raw.writableEnded) raw.write(text);
          },
          buffered: () => raw.writableLength,
          end: () => {
            if (!raw.destroyed && !raw.writableEnded) raw.end();
          },
        };
      });
      if (gone) handle.closed();
    });
  };
}
