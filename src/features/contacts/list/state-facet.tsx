/**
 * The state facet with counts (issue 13): how many contacts each state would show under the other filters now
 * applied (`others`: search, tags, dates, city; an advanced filter is replaced by a facet choice, so it is left
 * out), read as `$limit=1` requests for their `meta.maxResults` through the typed client and cached by React Query
 * (`countQuery`, under `contactQueries.counts`, refreshed with the lists). Part of the first screen (a native select
 * and two queries, about 1 KB; issue 16): until the counts arrive the states show without them.
 *
 * Issue 19: the counts cost a request per state, so they are asked only when the person opens the menu (a pointer
 * down, or a key that opens a select) under the current filters, as speculative requests (skipped when the key's
 * budget is low), and cached per filter for a minute.
 *
 * Where the service names `stats` (docs/decisions.md section 12; issue 35 point 6), both counts come from one
 * `GET /contacts/stats` under the other filters (`statsQuery`: its `byState`), cached per filter for a minute.
 */
import { formatNumber } from '@/i18n/format';
import { t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { NativeSelect } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ApiClient } from '@/api/client';
import { CONTACT_STATES, type ContactState } from '@/api/contacts';
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { contactQueries } from '../queries';

/** How many contacts `filter` matches: a `$limit=1` request read for its `meta.maxResults`, under `contactQueries.counts`. */
export const countQuery = (api: ApiClient, workspaceId: string, filter: FilterNode | undefined) =>
  queryOptions({
    queryKey: [...contactQueries.counts(workspaceId), filter ?? null],
    queryFn: ({ signal }) => api.listContacts({ offset: 0, limit: 1, filter, signal, priority: 'speculative' }).then((page) => page.meta.maxResults),
    staleTime: 60_000,
    retry: false,
  });

/**
 * The facets of the contacts `filter` matches, from one `GET /contacts/stats` (extension `stats`, docs/decisions.md
 * section 12): `{ total, byState, topTags }`, speculative, fresh for a minute, under `contactQueries.counts`.
 */
export const statsQuery = (api: ApiClient, workspaceId: string, filter: FilterNode | undefined) =>
  queryOptions({
    queryKey: [...contactQueries.counts(workspaceId), 'stats', filter ?? null],
    queryFn: ({ signal }) => api.contactStats({ filter, signal, priority: 'speculative' }),
    staleTime: 60_000,
    retry: false,
  });

const LABELS: Record<ContactState, () => string> = { active: () => t('contacts.facetActive'), pending: () => t('contacts.facetPending') };

export function StateFacet({ value, others, onChange }: { value: string; others: FilterNode | undefined; onChange: (state: ContactState | undefined) => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  useT();
  const filters = useMemo(() => CONTACT_STATES.map((state) => and(others, compare('state', 'eq', state))), [others]);
  // The filters under which the person opened the menu: counts are asked for those only.
  const othersKey = JSON.stringify(others ?? null);
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  const wanted = openedFor === othersKey;
  const fromStats = useExtensions().has('stats');
  // One `useQuery` per state (CONTACT_STATES is fixed: pending, active), not `useQueries`, whose observer no other
  // first-screen code uses (1.4 KB of the contacts screen; docs/bundle.md).
  const pending = useQuery({ ...countQuery(api, workspaceId, filters[0]), enabled: wanted && !fromStats });
  const active = useQuery({ ...countQuery(api, workspaceId, filters[1]), enabled: wanted && !fromStats });
  const stats = useQuery({ ...statsQuery(api, workspaceId, others), enabled: wanted && fromStats });
  const counts = fromStats ? CONTACT_STATES.map((state) => ({ data: stats.data?.byState[state] })) : [pending, active];
  const open = () => setOpenedFor(othersKey);
  return (
    <NativeSelect
      label={t('contacts.colState')}
      description={t('contacts.countsFilters')}
      data={[
        { value: '', label: t('contacts.any') },
        ...CONTACT_STATES.map((state, index) => {
          const count = counts[index]?.data;
          return { value: state, label: count === undefined ? LABELS[state]() : `${LABELS[state]()} (${formatNumber(count)})` };
        }),
      ]}
      value={value}
      onChange={(event) => onChange((event.currentTarget.value || undefined) as ContactState | undefined)}
      onPointerDown={open}
      onKeyDown={(event) => {
        if ([' ', 'Enter', 'ArrowDown', 'ArrowUp', 'F4'].includes(event.key)) open();
      }}
      w={150}
    />
  );
}
