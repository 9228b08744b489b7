/** What every route module is built with: the database, the stores over it, and the public base URL. */
import type { FastifyRequest } from 'fastify';
import type { ActivityStore } from '../db/activity';
import type { CatalogStore } from '../db/catalog';
import type { ServiceDatabase } from '../db/connection';
import type { ContactStore } from '../db/contacts';
import type { PostStore } from '../db/posts';
import type { Reverter } from '../db/revert';
import type { ViewStore } from '../db/views';
import type { ExportSlots } from '../export/export-slots';

export type RouteContext = {
  database: ServiceDatabase;
  contacts: ContactStore;
  catalog: CatalogStore;
  posts: PostStore;
  /** The activity log and its revert (docs/decisions.md section 11). */
  activity: ActivityStore;
  reverter: Reverter;
  /** Shared views (docs/decisions.md section 13). */
  views: ViewStore;
  /** `PUBLIC_URL`: base of `postUrl`; the request's own origin when unset (docs/decisions.md section 7). */
  publicUrl?: string;
  /** The spreadsheet exports this process may run at once, and its queue (issue 12 point 10, issue 21 point 2). */
  exportSlots: ExportSlots;
};

/** The base of public links for `request`: `PUBLIC_URL`, else the origin the request was sent to. */
export function publicBase(context: RouteContext, request: FastifyRequest): string {
  return context.publicUrl ?? `${request.protocol}://${request.host}`;
}
