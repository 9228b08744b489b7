/**
 * The actor of a write (docs/decisions.md section 11): who wrote (the key's hint, or a Basic access key's), from
 * where (`Activity-Source`, default `api`), in which batch (`Activity-Batch`), the answer's `X-Trace-Id` and the
 * `Idempotency-Key`. The headers were checked by the auth plugin (plugins/auth.ts) before the route ran.
 */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_ACTIVITY_SOURCE, keyHintOf } from '../../src/api/activity';
import type { Actor, WriteContext } from '../db/activity';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The actor of `request`, as the stores record it. */
export function actorOf(request: FastifyRequest): Actor {
  const keyHint = request.principal ? request.principal.keyHint : request.basicPair ? keyHintOf(request.basicPair.accessKey) : null;
  return {
    keyHint,
    source: header(request, 'activity-source') ?? DEFAULT_ACTIVITY_SOURCE,
    batchId: header(request, 'activity-batch') ?? null,
    requestId: String(request.id),
    idempotencyKey: header(request, 'idempotency-key') ?? null,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** False where the service runs with `ACTIVITY_LOG=off` (app.ts): writes then record nothing. */
    activityLog: boolean;
  }
}

/** The write context of a store method called for `request`: its actor, or none (nothing recorded) with the log off. */
export function writeOf(request: FastifyRequest): WriteContext {
  return request.activityLog ? { actor: actorOf(request) } : {};
}
