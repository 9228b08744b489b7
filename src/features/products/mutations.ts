/** Products' mutations (issue 6): the upsert waits for the server (docs/style.md: upserts are never optimistic), then refreshes the lists. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProductUpsert } from '@/api/catalog';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { productQueries } from './queries';

/** `POST /products`: resolves to `{ id, created }` (201 created, 200 updated); every products list of the workspace refetches. */
export function useUpsertProduct() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductUpsert) => api.upsertProduct(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productQueries.all(workspaceId) }),
  });
}
