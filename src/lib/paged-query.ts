/**
 * A server-paged list query (docs/style.md, lists; issues 5 and 6): the page's query (its options should keep the
 * previous page on screen with `placeholderData: keepPreviousData`), the next page prefetched once this one has
 * arrived, and a move to the last page when the current one lies past the end (a URL from a longer list).
 */
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { prefetchSpeculative } from './query-client';

/**
 * `useQuery(optionsFor(params))`, plus the prefetch of `offset + limit` and `goToPage(last)` when `offset` is at or
 * past `meta.maxResults`. `optionsFor` may be a new function each render.
 */
export function usePagedQuery<Params extends { offset: number; limit: number }, Data extends { meta: { maxResults: number } }, Key extends QueryKey>(
  optionsFor: (params: Params) => UseQueryOptions<Data, Error, Data, Key>,
  params: Params,
  goToPage: (page: number) => void,
) {
  const queryClient = useQueryClient();
  const list = useQuery(optionsFor(params));
  const latest = useRef({ optionsFor, goToPage });
  useEffect(() => {
    latest.current = { optionsFor, goToPage };
  });
  const total = list.data?.meta.maxResults;

  useEffect(() => {
    if (total === undefined || list.isPlaceholderData) return;
    const { optionsFor: options, goToPage: go } = latest.current;
    if (params.offset + params.limit < total) void prefetchSpeculative(queryClient, options({ ...params, offset: params.offset + params.limit }));
    else if (total > 0 && params.offset >= total) go(Math.ceil(total / params.limit));
  }, [total, list.isPlaceholderData, params, queryClient]);

  return list;
}
