/**
 * Batches (docs/decisions.md section 12, extension `contact-batch`; issue 35 points 2 and 3): `POST
 * /contacts/batch` creates up to 1,000 contacts in one request, each as `POST /contacts` would; `POST
 * /contacts/tags` edits the tags of every contact a filter matches (or of up to 1,000 ids). Each is one request
 * against the rate limit and accepts `Idempotency-Key` (docs/decisions.md section 9) like every POST.
 *
 * Both write in chunks of one transaction each, sized to about 50 ms (`ContactStore.createMany`,
 * `ContactStore.patchTagsMany`, server/db/timed-chunks.ts): the checks and results of the single-contact writes
 * (`POST /contacts`, the tags PATCH) and their activity entries (docs/decisions.md section 11), a few statements a
 * chunk instead of a transaction a contact.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactCreateSchema } from '../../src/api/contacts';
import { contactFilterFields, contactSortFields } from '../../src/api/filter/fields';
import { contactBatchResponseSchema, contactBatchSchema, contactBulkTagsResponseSchema, contactBulkTagsSchema } from '../../src/api/stats';
import { formatIssues } from '../../src/api/validation-message';
import { DEFAULT_CONTACT_ORDER, DuplicateContactError } from '../db/contacts';
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
        const parsed = request.body.items.map((item) => contactCreateSchema.safeParse(item));
        // The valid items are created in order, in chunks of one transaction (ContactStore.createMany); an invalid
        // one is its 400 here and takes no part, as a POST /contacts refused by its schema writes nothing.
        const valid = parsed.flatMap((item, index) => (item.success ? [{ index, data: item.data }] : []));
        const created = await contacts.createMany(workspaceId, valid.map((item) => item.data), writeOf(request));
        const results: ItemResult[] = parsed.map((item, index) => (item.success ? { index, status: 0 } : fail(index, 400, formatIssues(item.error.issues, 'body'))));
        valid.forEach(({ index }, i) => {
          const outcome = created[i]!;
          // A 409 names the contact that holds the email or phone when it is known (docs/decisions.md section 12).
          if (outcome instanceof DuplicateContactError && outcome.existingId) results[index] = { ...fail(index, 409, outcome.message), id: outcome.existingId };
          else results[index] = outcome instanceof HttpError ? fail(index, outcome.statusCode, outcome.message) : { index, status: 201, id: outcome.id };
        });
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
        let matchedIds: string[];
        if ('ids' in target) matchedIds = await contacts.matchingIds(workspaceId, target);
        else {
          // Streamed on a connection of its own, 1,000 ids at a time (10 to 25 ms of reading each at 1,000,000
          // contacts on a loaded machine), so other requests run in between.
          matchedIds = [];
          for await (const rows of database.streamRows(contacts.matchingIdsQuery(workspaceId, target.filter), { chunkSize: 1000 })) for (const [id] of rows) matchedIds.push(id as string);
        }
        // In chunks of one short transaction each (ContactStore.patchTagsMany, about 50 ms), so another writer waits
        // for one chunk, never for the whole set; the event loop serves other requests in between.
        const { matched, changed } = await contacts.patchTagsMany(workspaceId, matchedIds, tagsToAdd, tagsToRemove, { ...writeOf(request), batchId });
        return { matched, changed, batchId };
      },
    );
  };
}
