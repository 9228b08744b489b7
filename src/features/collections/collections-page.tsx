/** `/w/:workspaceId/collections`: the first page of collections (the products issue replaces this). */
import { Stack, Text, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { Loading, QueryError } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { collectionQueries } from './queries';

export function CollectionsPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const list = useQuery(collectionQueries.list(api, workspaceId, { offset: 0, limit: 20 }));
  return (
    <Stack>
      <Title order={1}>Collections</Title>
      {list.isPending ? <Loading label="Loading collections" /> : null}
      {list.isError ? <QueryError error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data ? (
        <>
          <Text size="sm" c="dimmed">
            {list.data.meta.maxResults.toLocaleString()} collections
          </Text>
          <SimpleTable aria-label="Collections" striped>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Handle</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((collection) => (
                <tr key={collection.id}>
                  <td>{collection.title}</td>
                  <td>{collection.handle}</td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
        </>
      ) : null}
    </Stack>
  );
}
