/** `/w/:workspaceId/workspaces`: the organization's workspaces with their key status (filled out by the posts issue). */
import { Anchor, Badge, Button, Stack, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryView } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { useConnections } from '@/lib/connections';
import { workspaceQueries } from './queries';

export function WorkspacesPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const saved = new Set(useConnections().map((c) => c.workspaceId));
  const list = useQuery(workspaceQueries.list(api, workspaceId, { offset: 0, limit: 100 }));
  return (
    <Stack>
      <Title order={1}>Workspaces</Title>
      <QueryView query={list} label="workspaces">
        {(data) => (
          <SimpleTable aria-label="Workspaces of the organization" striped>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((workspace) => (
                <tr key={workspace.id}>
                  <td>{workspace.name}</td>
                  <td>{saved.has(workspace.id) ? <Badge color="green" variant="light">saved</Badge> : <Badge color="gray" variant="outline">none</Badge>}</td>
                  <td>
                    {workspace.id === workspaceId ? (
                      <Badge variant="light">current</Badge>
                    ) : saved.has(workspace.id) ? (
                      <Button component={Link} to={`/w/${workspace.id}/contacts`} size="xs" variant="light" aria-label={`Switch to ${workspace.name}`}>
                        Switch
                      </Button>
                    ) : (
                      <Button component={Link} to={`/connect?workspace=${workspace.id}&reason=missing`} size="xs" variant="default">
                        Add key
                      </Button>
                    )}{' '}
                    <Anchor href={`/embed/${workspace.id}`} size="sm" target="_blank" rel="noreferrer">
                      Public page
                    </Anchor>
                  </td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
        )}
      </QueryView>
    </Stack>
  );
}
