/**
 * The state facet with counts (issue 13): how many contacts each state would show under the other filters now
 * applied (`others`: search, tags, dates, city; an advanced filter is replaced by a facet choice, so it is left
 * out), read as `$limit=1` requests for their `meta.maxResults` through the typed client and cached by React Query
 * (`countQuery`, under `contactQueries.counts`, refreshed with the lists). Part of the first screen (a native select
 * and two queries, about 1 KB; issue 16): until the counts arrive the states show without them.
 */
import { formatNumber } from '@/i18n/format';
import { t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { NativeSelect } from '@mantine/core';
import { queryOptions, useQueries } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import { CONTACT_STATES, type ContactState } from '@/api/contacts';
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { useWorkspaceApi } from '@/lib/api';
import { contactQueries } from './queries';

/** How many contacts `filter` matches: a `$limit=1` request read for its `meta.maxResults`, under `contactQueries.counts`. */
export const countQuery = (api: ApiClient, workspaceId: string, filter: FilterNode | undefined) =>
  queryOptions({
    queryKey: [...contactQueries.counts(workspaceId), filter ?? null],
    queryFn: ({ signal }) => api.listContacts({ offset: 0, limit: 1, filter, signal }).then((page) => page.meta.maxResults),
    staleTime: 30_000,
  });

const LABELS: Record<ContactState, () => string> = { active: () => t('contacts.facetActive'), pending: () => t('contacts.facetPending') };

export function StateFacet({ value, others, onChange }: { value: string; others: FilterNode | undefined; onChange: (state: ContactState | undefined) => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  useT();
  const counts = useQueries({
    queries: CONTACT_STATES.map((state) => countQuery(api, workspaceId, and(others, compare('state', 'eq', state)))),
  });
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
      w={150}
    />
  );
}
