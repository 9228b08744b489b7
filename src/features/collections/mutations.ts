/**
 * Collections' mutations (issue 6): the upsert waits for the server (docs/style.md: upserts are never optimistic), then
 * refreshes every collections query of the workspace (the lists, and the products page's collection choices,
 * keyed under the same prefix) and the products lists, whose rows show collection titles. `useCollectionMembership`
 * adds a product to a collection or takes it out (issue 34 point 10).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionUpsert } from '@/api/catalog';
import { compare } from '@/api/filter/ast';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { collectionsWith, collectionsWithout } from './collection-products';
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

/** What `useCollectionMembership` did: `changed` false when the product already was as asked, `gone` when it no longer exists. */
export type MembershipResult = { changed: boolean; gone: boolean; title: string | null };

/**
 * Adds a product to a collection or takes it out (issue 34 point 10) through the one write the interface has, the
 * product's upsert (`POST /products` with `id` and the whole `collectionIds`, docs/decisions.md section 7). The product is
 * read fresh just before (`GET /products?$filter=id eq '<id>'`), so its other collections are the service's, not a
 * list's of minutes ago; nothing is sent when it is already as asked. Waits for the server (an upsert, docs/style.md),
 * then refreshes every products query of the workspace: the lists, their drawers, and the collection's own list, keyed
 * under the same prefix (queries.ts).
 */
export function useCollectionMembership() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ productId, collectionId, add }: { productId: string; collectionId: string; add: boolean }): Promise<MembershipResult> => {
      const product = (await api.listProducts({ filter: compare('id', 'eq', productId), limit: 1 })).items[0];
      if (!product) return { changed: false, gone: true, title: null };
      const body = add ? collectionsWith(product, collectionId) : collectionsWithout(product, collectionId);
      if (body) await api.upsertProduct(body);
      return { changed: Boolean(body), gone: false, title: product.title };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, 'products'] }),
  });
}
