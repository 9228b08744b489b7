/** `/w/:workspaceId/products`: the first page of products (the products issue replaces this with the full table). */
import { Button, Stack, Text, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { useQuery } from '@tanstack/react-query';
import { QueryView } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { allows } from '@/lib/permissions';
import { productQueries } from './queries';

export function ProductsPage() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const list = useQuery(productQueries.list(api, workspaceId, { offset: 0, limit: 20 }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  return (
    <Stack>
      <Title order={1}>Products</Title>
      <DeferredTooltip position="bottom" label="Needs products:read-write" disabled={canWrite}>
        <Button disabled={!canWrite} w="fit-content" data-disabled={!canWrite || undefined}>
          New product
        </Button>
      </DeferredTooltip>
      <QueryView query={list} label="products">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {data.meta.maxResults.toLocaleString()} products
            </Text>
            <SimpleTable aria-label="Products" striped>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Price</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((product) => (
                  <tr key={product.id}>
                    <td>{product.title}</td>
                    <td>
                      {product.price === null ? '' : new Intl.NumberFormat(undefined, { style: 'currency', currency: product.currency ?? 'USD' }).format(product.price)}
                    </td>
                    <td>{product.status}</td>
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
