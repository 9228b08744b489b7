/**
 * Contacts' query options (issue 5). Keys: `['ws', workspaceId, 'contacts', ...]`, led by the workspace
 * (docs/style.md, queries): `all -> lists() -> list(params)`, `details() -> detail(id)`, plus `tags` and `counts()`
 * (the state facet's `$limit=1` counts, issue 13, whose options live in state-facet.tsx); and
 * `refreshAfterJob`, the one place a job that changed contacts (bulk tags, an import) says it has ended.
 * Mutations live in mutations.ts.
 */
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { Contact } from '@/api/contacts';
import { compare } from '@/api/filter/ast';
import { refreshEverywhere } from '@/lib/data-changed';
import { LIST_STALE_MS } from '@/lib/query-client';
import { resourceQueries } from '@/lib/resource-queries';

export const contactQueries = {
  // `list`, `details()` and `detail(id)` (one contact, issue 14 point 2, `null` when the workspace has none): the
  // console's shared ones (src/lib/resource-queries.ts), fresh for LIST_STALE_MS.contacts.
  ...resourceQueries<Contact>('contacts', (api, params) => api.listContacts(params), LIST_STALE_MS.contacts),
  /**
   * Call when a job that changed contacts ends (issue 14, point 8: bulk tags, an import): every contacts query of
   * the workspace refetches, in this tab and in the console's other tabs.
   */
  refreshAfterJob: (queryClient: QueryClient, workspaceId: string) => refreshEverywhere(queryClient, contactQueries.all(workspaceId)),
  counts: (workspaceId: string) => [...contactQueries.all(workspaceId), 'count'] as const,
  /**
   * The phones of up to 100 of the workspace's contacts (`phone ne null`, E.164 as stored), for the phones' default
   * country of an import and of the new-contact form (issue 34 point 2: the file's numbers first, then these, then
   * the browser's language; src/features/contacts/phone-country.ts `chooseCountry`). One request, cached 10 minutes.
   */
  phones: (api: ApiClient, workspaceId: string) =>
    queryOptions({
      queryKey: [...contactQueries.all(workspaceId), 'phones'],
      queryFn: async ({ signal }) => (await api.listContacts({ filter: compare('phone', 'ne', null), limit: 100, signal, priority: 'person' })).items.flatMap((contact) => (contact.phone ? [contact.phone] : [])),
      staleTime: 10 * 60_000,
    }),
  tags: (api: ApiClient, workspaceId: string) =>
    queryOptions({ queryKey: [...contactQueries.all(workspaceId), 'tags'], queryFn: ({ signal }) => api.listContactTags({ signal }), staleTime: 30_000 }),
};

