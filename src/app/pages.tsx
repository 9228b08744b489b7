/** Small route pages of the shell: the start redirect and the 404 page. */
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { Loading } from '@/components/query-state';
import { useT } from '@/i18n/react';
import { useConnections, useConnectionsReady } from '@/lib/connections';

/** `/`: the overview of the most recently saved workspace (issue 24; once other tabs had their chance to share keys), or /connect when there is none. */
export function HomeRedirect() {
  const connections = useConnections();
  const ready = useConnectionsReady();
  const t = useT();
  if (!connections.length && !ready) return <Loading label={t('common.lookingForKeys')} />;
  const latest = [...connections].sort((a, b) => b.savedAt.localeCompare(a.savedAt))[0];
  return <Navigate to={latest ? `/w/${latest.workspaceId}` : '/connect'} replace />;
}

/** Any unknown path. */
export function NotFoundPage() {
  const t = useT();
  return (
    <Container size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>{t('common.notFound')}</Title>
        <Text>{t('common.notFoundText')}</Text>
        <Button component={Link} to="/">
          {t('common.goToConsole')}
        </Button>
      </Stack>
    </Container>
  );
}
