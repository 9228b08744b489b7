/** `/w/:workspaceId/collections`: the first page of collections (the products issue replaces this). */
import { Stack, Text, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { QueryView } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { collectionQueries } from './queries';

export function CollectionsPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const list = useQuery(collectionQueries.list(api, workspaceId, { offset: 0, limit: 20 }));
  return (
    <Stack>
      <Title order={1}>Collections</Title>
      <QueryView query={list} label="collections">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {data.meta.maxResults.toLocaleString()} collections
            </Text>
            <SimpleTable aria-label="Collections" striped>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Handle</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((collection) => (
                  <tr key={collection.id}>
                    <td>{collection.title}</td>
                    <td>{collection.handle}</td>
                  </tr>
                ))}
              </tbody>
            </SimpleTable>
          </>
        )}
      </QueryView>
    </Stack>
  );
}
