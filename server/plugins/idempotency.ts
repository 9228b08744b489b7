/**
 * `Idempotency-Key` on every POST and PATCH of the API (docs/decisions.md section 9, our extension; after the IETF
 * httpapi draft and Stripe's API). Registered inside the `/api` scope after the auth plugin, so the caller's
 * workspace is known. For a POST or PATCH carrying the header, before its body is checked:
 * - a key that is empty or not 1 to 255 printable ASCII characters: 400;
 * - the key's slot (workspace, request path) claimed (db/idempotency.ts): the request runs, and its answer
 *   (status, body, `REPLAYED_HEADERS`) is kept when it is sent, unless it is a 5xx or a stream;
 * - the same key and the same body already answered: that answer again, with `Idempotent-Replayed: true`,
 *   nothing run; still running: 409 `A request with this Idempotency-Key is in progress`; another body: 422
 *   `Idempotency-Key was used with a different request`.
 * GET (and every other method) ignores the header. The answer is kept after the request's own writes committed,
 * in a second statement: a process that dies in between leaves a `running` row, which a later request takes
 * over after `IDEMPOTENCY_STALE_RUNNING_MS`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type IdempotencyStore, type KeySlot, REPLAYED_HEADERS, requestHash, sha256 } from '../db/idempotency';
import { HttpError, badRequest } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key slot this request claimed and must settle, if any. */
    idempotencySlot: KeySlot | null;
  }
}

/** 1 to 255 printable ASCII characters (docs/decisions.md section 9). */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/** The request path without its query string. */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? request.url;

export default fp(
  async function idempotencyPlugin(app: FastifyInstance, options: { store: IdempotencyStore }) {
    const { store } = options;
    app.decorateRequest('idempotencySlot', null);

    app.addHook('preValidation', async (request, reply) => {
      if (request.method !== 'POST' && request.method !== 'PATCH') return;
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      const workspaceId = request.principal?.workspaceId ?? request.basicWorkspaceId;
      if (!workspaceId) return; // not an authenticated API route: nothing to remember it by
      if (typeof header !== 'string' || !KEY_FORMAT.test(header)) throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters');
      const slot: KeySlot = { workspaceId, path: pathOf(request), keyHash: sha256(header) };
      const claim = await store.claim(slot, requestHash(request.method, request.body));
      if (claim.kind === 'running') throw new HttpError(409, 'A request with this Idempotency-Key is in progress');
      if (claim.kind === 'mismatch') throw new HttpError(422, 'Idempotency-Key was used with a different request');
      if (claim.kind === 'replay') {
        reply.code(claim.status).headers(claim.headers).header('Idempotent-Replayed', 'true');
        return claim.body === null ? reply.send() : reply.send(claim.body);
      }
      request.idempotencySlot = slot;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const slot = request.idempotencySlot;
      if (!slot) return payload;
      request.idempotencySlot = null;
      const keepable = payload === null || payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload);
      if (reply.statusCode >= 500 || !keepable) {
        await store.release(slot);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const body = payload === null || payload === undefined ? null : Buffer.isBuffer(payload) ? payload.toString('utf8') : (payload as string);
      await store.finish(slot, reply.statusCode, headers, body === '' ? null : body);
      return payload;
    });

    // A request that ended without an answer being sent (the client went away before the handler finished).
    app.addHook('onResponse', async (request) => {
      const slot = request.idempotencySlot;
      if (!slot) return;
      request.idempotencySlot = null;
      await store.release(slot);
    });
  },
  { name: 'idempotency', dependencies: ['auth'] },
);
