/**
 * Batches (docs/decisions.md section 12, extension `contact-batch`; issue 35 points 2 and 3): `POST
 * /contacts/batch` creates up to 1,000 contacts in one request, each as `POST /contacts` would; `POST
 * /contacts/tags` edits the tags of every contact a filter matches (or of up to 1,000 ids). Each is one request
 * against the rate limit and accepts `Idempotency-Key` (docs/decisions.md section 9) like every POST.
 *
 * Both reuse the single-contact writes (`ContactStore.create`, `ContactStore.patchTags`): the same checks, the
 * same transactions, and whatever those record (the activity entries of docs/decisions.md section 11).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactCreateSchema } from '../../src/api/contacts';
import { contactFilterFields, contactSortFields } from '../../src/api/filter/fields';
import { contactBatchResponseSchema, contactBatchSchema, contactBulkTagsResponseSchema, contactBulkTagsSchema } from '../../src/api/stats';
import { formatIssues } from '../../src/api/validation-message';
import { DEFAULT_CONTACT_ORDER } from '../db/contacts';
import { HttpError } from '../errors';
import { keyPrincipal } from '../plugins/auth';
import { errorBody } from '../plugins/errors';
import { writeOf } from './actor';
import type { RouteContext } from './context';
import { listParams } from './list-params';

/** One item's outcome in `POST /contacts/batch`'s answer. */
type ItemResult = { index: number; status: number; id?: string; error?: ReturnType<typeof errorBody> };

/** `Activity-Batch` when it is a valid value (1 to 255 printable ASCII characters), else a fresh id. */
function batchIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[\x20-\x7e]{1,255}$/.test(header) ? header : randomUUID();
}

export function contactBatchRoutes({ database, contacts }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/contacts/batch',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { body: contactBatchSchema, response: { 200: contactBatchResponseSchema } } },
      async (request) => {
        const workspaceId = keyPrincipal(request).workspaceId;
        const fail = (index: number, status: number, message: string): ItemResult => ({ index, status, error: errorBody(request, status, message) });
        const settle = (index: number, creating: Promise<{ id: string }>): Promise<ItemResult> =>
          creating.then(
            (row) => ({ index, status: 201, id: row.id }),
            (error: unknown) => {
              if (error instanceof HttpError) return fail(index, error.statusCode, error.message);
              throw error; // unexpected: the request's 500, logged under its trace id
            },
          );
        const parsed = request.body.items.map((item) => contactCreateSchema.safeParse(item));
        const results: ItemResult[] = [];
        if (database.dialect.name === 'sqlite') {
          // SQLite's group commit (ContactStore.createInBatch) takes the creates in the order they are started,
          // each in its own savepoint: started together they share a few commits and still apply in order.
          const pending = parsed.map((item, index) =>
            item.success ? settle(index, contacts.create(workspaceId, item.data, writeOf(request))) : Promise.resolve(fail(index, 400, formatIssues(item.error.issues, 'body'))),
          );
          results.push(...(await Promise.all(pending)));
        } else {
          // PostgreSQL: one after the other, so a later item sees an earlier one (a repeated email: 409).
          for (const [index, item] of parsed.entries()) {
            results.push(item.success ? await settle(index, contacts.create(workspaceId, item.data, writeOf(request))) : fail(index, 400, formatIssues(item.error.issues, 'body')));
          }
        }
        return { results };
      },
    );

    app.post(
      '/contacts/tags',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { body: contactBulkTagsSchema, response: { 200: contactBulkTagsResponseSchema } } },
      async (request) => {
        const workspaceId = keyPrincipal(request).workspaceId;
        const { filter, ids, tagsToAdd = [], tagsToRemove = [] } = request.body;
        const batchId = batchIdOf(request.headers['activity-batch']);
        // The `$filter` grammar and 400 messages of GET /contacts (docs/contract.md section 6).
        const target =
          ids !== undefined
            ? { ids }
            : { filter: listParams({ $filter: filter, $offset: 0, $limit: 1 }, contactFilterFields, contactSortFields, DEFAULT_CONTACT_ORDER).filter };
        const matchedIds = await contacts.matchingIds(workspaceId, target);
        let matched = 0;
        let changed = 0;
        // One short transaction per contact (the tags PATCH's own), so another writer waits for at most one
        // contact's edit, never for the whole set; the event loop serves other requests in between.
        for (const id of matchedIds) {
          try {
            if (await contacts.patchTags(workspaceId, id, tagsToAdd, tagsToRemove, { ...writeOf(request), batchId })) changed += 1;
            matched += 1;
          } catch (error) {
            // Erased since it was matched (404): not matched. Past 100 tags (400): matched, left unchanged.
            if (!(error instanceof HttpError)) throw error;
            if (error.statusCode !== 404) matched += 1;
          }
        }
        return { matched, changed, batchId };
      },
    );
  };
}
