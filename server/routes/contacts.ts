/**
 * Contacts, endpoints 2 to 6 (interface document; docs/decisions.md sections 2, 6 and 7): create, list (JSON or a
 * CSV/xlsx download by `Accept`), tag counts, tag edits, and the Basic-authenticated notification-settings update.
 */
import { PassThrough, Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import {
  contactCreateResponseSchema,
  contactCreateSchema,
  contactListQuery,
  contactListSchema,
  contactSchema,
  contactTagListSchema,
  contactTagsPatchSchema,
  notificationSettingsPatchSchema,
  notificationSettingsResponseSchema,
} from '../../src/api/contacts';
import { contactPatchSchema } from '../../src/api/extensions';
import { contactFilterFields, contactSortFields } from '../../src/api/filter/fields';
import { DEFAULT_CONTACT_ORDER, toContactSummary } from '../db/contacts';
import { SPOOL_AFTER_MS } from '../db/spool';
import { exportLanguage } from '../export/export-headers';
import { EXPORT_CONTENT_TYPES, EXPORT_SOURCE_COLUMNS, type ExportRead, exportFilename, negotiateExport, writeContactsExport } from '../export/contacts-export';
import { keyPrincipal } from '../plugins/auth';
import { writeOf } from './actor';
import type { RouteContext } from './context';
import { listParams } from './list-params';

const contactIdParams = z.strictObject({ contactId: z.string().min(1).max(200) });

export function contactRoutes({ database, contacts, exportSlots }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/contacts',
      { config: { auth: 'key', scope: 'feeds:read-write' }, schema: { body: contactCreateSchema, response: { 201: contactCreateResponseSchema } } },
      async (request, reply) => {
        const row = await contacts.create(keyPrincipal(request).workspaceId, request.body, writeOf(request));
        const { feedId: _feedId, ...created } = toContactSummary(row);
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/contacts',
      { config: { auth: 'key', scope: 'contacts:read-only' }, schema: { querystring: contactListQuery, response: { 200: contactListSchema } } },
      async (request, reply) => {
        const workspaceId = keyPrincipal(request).workspaceId;
        const params = listParams(request.query, contactFilterFields, contactSortFields, DEFAULT_CONTACT_ORDER);
        const format = negotiateExport(request.headers.accept);
        if (!format) {
          const { items, maxResults } = await contacts.list(workspaceId, params);
          // The items come serialized from the database; the page is sent as the JSON text it already is.
          return reply.type('application/json; charset=utf-8').send(`{"items":[${items.join(',')}],"meta":{"maxResults":${maxResults}}}` as never);
        }
        const download = () => reply.type(EXPORT_CONTENT_TYPES[format]).header('Content-Disposition', `attachment; filename="${exportFilename(format)}"`);
        // HEAD: the download's headers, and no export run only for Fastify to drain and drop it (issue 12).
        if (request.method === 'HEAD') return download().send(Readable.from([]) as never);
        // Paging applies to an export only when asked for (docs/decisions.md section 7).
        const given = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
        const query = {
          filter: params.filter,
          orderBy: params.orderBy,
          offset: given.has('$offset') ? params.offset : undefined,
          limit: given.has('$limit') ? params.limit : undefined,
        };
        const out = new PassThrough();
        const aborted = new AbortController();
        request.raw.once('close', () => aborted.abort());
        // Read on a connection of its own, released when the writer stops reading (done, failed or aborted); after
        // SPOOL_AFTER_MS the rest is read ahead into a temporary file so the WAL can start over (server/db/spool.ts).
        const source = contacts.selectColumns(workspaceId, query, EXPORT_SOURCE_COLUMNS);
        const read: ExportRead = (map) => database.streamRows(source, { spoolAfterMs: SPOOL_AFTER_MS, map });
        // 503 with a queue ticket when this process already runs its share of exports (export/export-slots.ts).
        const ticket = request.headers['export-ticket'];
        const release = exportSlots.take(workspaceId, typeof ticket === 'string' ? ticket : undefined);
        // `Export-Language` asks for the xlsx in people's words (issue 34 point 10; docs/exports.md).
        writeContactsExport(format, read, out, aborted.signal, exportLanguage(request.headers['export-language'])).then(
          () => release(!aborted.signal.aborted),
          (error: unknown) => {
            release(false);
            request.log.error({ err: error, traceId: request.id }, 'contact export failed');
            out.destroy(error as Error);
          },
        );
        return download().send(out as never); // a download: the 200 JSON schema describes the other representation
      },
    );

    app.get(
      '/contacts/contacts-tags',
      { config: { auth: 'key', scope: 'contacts:read-only' }, schema: { response: { 200: contactTagListSchema } } },
      async (request) => contacts.tags(keyPrincipal(request).workspaceId),
    );

    app.patch(
      '/contacts/:contactId/tags',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { params: contactIdParams, body: contactTagsPatchSchema } },
      async (request, reply) => {
        const { tagsToAdd = [], tagsToRemove = [] } = request.body;
        await contacts.patchTags(keyPrincipal(request).workspaceId, request.params.contactId, tagsToAdd, tagsToRemove, writeOf(request));
        return reply.status(204).send();
      },
    );

    app.patch(
      '/contacts/:contactId/notification-settings',
      {
        config: { auth: 'basic' },
        schema: { params: contactIdParams, body: notificationSettingsPatchSchema, response: { 200: notificationSettingsResponseSchema } },
      },
      async (request) => {
        const row = await contacts.patchNotificationSettings(request.basicWorkspaceId as string, request.params.contactId, request.body, writeOf(request));
        return toContactSummary(row);
      },
    );

    // Our extensions (docs/decisions.md section 10): correct a contact, erase a person.
    app.patch(
      '/contacts/:contactId',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { params: contactIdParams, body: contactPatchSchema, response: { 200: contactSchema } } },
      async (request, reply) => {
        const json = await contacts.update(keyPrincipal(request).workspaceId, request.params.contactId, request.body, writeOf(request));
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );

    app.delete(
      '/contacts/:contactId',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { params: contactIdParams } },
      async (request, reply) => {
        await contacts.erase(keyPrincipal(request).workspaceId, request.params.contactId, writeOf(request));
        return reply.status(204).send();
      },
    );
  };
}
