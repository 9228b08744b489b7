/** Small route pages of the shell: the start redirect and the 404 page. */
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { Loading } from '@/components/query-state';
import { useConnections, useConnectionsReady } from '@/lib/connections';

/** `/`: the overview of the most recently saved workspace (issue 24; once other tabs had their chance to share keys), or /connect when there is none. */
export function HomeRedirect() {
  const connections = useConnections();
  const ready = useConnectionsReady();
  if (!connections.length && !ready) return <Loading label="Looking for saved keys" />;
  const latest = [...connections].sort((a, b) => b.savedAt.localeCompare(a.savedAt))[0];
  return <Navigate to={latest ? `/w/${latest.workspaceId}` : '/connect'} replace />;
}

/** Any unknown path. */
export function NotFoundPage() {
  return (
    <Container size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>Page not found</Title>
        <Text>There is no page at this address.</Text>
        <Button component={Link} to="/">
          Go to the console
        </Button>
      </Stack>
    </Container>
  );
}
