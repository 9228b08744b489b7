/** `/w/:workspaceId/contacts`: the first page of contacts (the contacts issue replaces this with the full table). */
import { Badge, Stack, Text, Title } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { QueryView } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/api';
import { contactQueries } from './queries';

export function ContactsPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const list = useQuery(contactQueries.list(api, workspaceId, { offset: 0, limit: 20 }));
  return (
    <Stack>
      <Title order={1}>Contacts</Title>
      <QueryView query={list} label="contacts">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {data.meta.maxResults.toLocaleString()} contacts
            </Text>
            <SimpleTable aria-label="Contacts" striped>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((contact) => (
                  <tr key={contact.id}>
                    <td>{contact.name ?? '(no name)'}</td>
                    <td>{contact.email ?? ''}</td>
                    <td>
                      <Badge variant="light" color={contact.state === 'active' ? 'green' : 'gray'}>
                        {contact.state}
                      </Badge>
                    </td>
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
