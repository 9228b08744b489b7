/**
 * Collections' mutations (issue 6): the upsert waits for the server (docs/style.md: upserts are never optimistic), then
 * refreshes every collections query of the workspace (the lists, and the products page's collection choices,
 * keyed under the same prefix) and the products lists, whose rows show collection titles.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionUpsert } from '@/api/catalog';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { collectionQueries } from './queries';

/** `POST /collections`: resolves to `{ id, created }` (201 created, 200 updated). */
export function useUpsertCollection() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CollectionUpsert) => api.upsertCollection(body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionQueries.all(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, 'products'] }),
      ]),
  });
}
