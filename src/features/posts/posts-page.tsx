/** `/w/:workspaceId/posts`: the newest published posts (the posts issue replaces this with the full page). */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { QueryView } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { postQueries } from './queries';

export function PostsPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const list = useQuery(postQueries.list(api, workspaceId, { offset: 0, limit: 10 }));
  return (
    <Stack>
      <Title order={1}>Posts</Title>
      <QueryView query={list} label="posts">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {data.meta.maxResults.toLocaleString()} published posts
            </Text>
            <SimpleTable aria-label="Published posts" striped>
              <thead>
                <tr>
                  <th scope="col">Header</th>
                  <th scope="col">Published</th>
                  <th scope="col">Claps</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((post) => (
                  <tr key={post.id}>
                    <td>
                      <Anchor href={post.postUrl} target="_blank" rel="noreferrer">
                        {post.header ?? post.text?.slice(0, 60) ?? post.id}
                      </Anchor>
                    </td>
                    <td>{new Date(post.publishedDate).toLocaleString()}</td>
                    <td>{post.claps}</td>
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
