/**
 * `GET /healthz` (issue 8), for load balancers and orchestrators: outside `/api`, no credential, never rate
 * limited. Runs `select 1` on the service database and answers 200 `{ "status": "ok", "database": "sqlite" |
 * "postgres" }`, or 503 with the error body (docs/decisions.md section 3) `Database unavailable` when the database
 * fails or does not answer within `timeoutMs`; the cause goes to the log under the trace id only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import * as z from 'zod';
import { errorBodySchema } from '../../src/api/common';
import type { ServiceDatabase } from '../db/connection';
import { HttpError } from '../errors';

/** How long `/healthz` waits for the database by default, in ms. */
export const HEALTH_TIMEOUT_MS = 2000;

const healthSchema = z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) });

/** Resolves as `promise` does, or rejects after `ms` with a timeout error. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function healthRoutes(database: ServiceDatabase, timeoutMs = HEALTH_TIMEOUT_MS): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['operations'],
          summary: 'Health check: is this process up and its database answering?',
          response: { 200: healthSchema, 503: errorBodySchema.check(z.describe('The database failed or did not answer in time')) },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        try {
          await within(sql`select 1`.execute(database.db), timeoutMs);
        } catch (error) {
          request.log.error({ err: error, traceId: request.id }, 'health check: database unavailable');
          throw new HttpError(503, 'Database unavailable');
        }
        return { status: 'ok' as const, database: database.dialect.name };
      },
    );
  };
}
