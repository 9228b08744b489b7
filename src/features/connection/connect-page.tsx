/**
 * `/connect` (issue 4): check a key with `GET /authorization`, show its workspace, organization and permissions,
 * and save it (one key per workspace; sessionStorage, or localStorage with "Remember on this device"), with
 * optional Basic credentials for notification settings. Offers the demo workspaces in one click when the
 * server seeded them. Saved keys can be opened or removed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert, Anchor, Badge, Button, Card, Checkbox, Collapse, Container, Group, PasswordInput, Stack, Text, TextInput, Title,
} from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import * as z from 'zod';
import type { Authorization } from '@/api/authorization';
import { isApiError } from '@/api/api-error';
import { createApiClient } from '@/api/client';
import { type SavedConnection, removeConnection, saveConnection, useConnections } from '@/lib/connections';
import { appConfigQuery } from './app-config';

const connectSchema = z.object({
  baseUrl: z.string().trim().min(1, 'Enter the API base URL, such as /api or https://host/api'),
  apiKey: z.string().trim().min(1, 'Enter an API key'),
  remember: z.boolean(),
  accessKey: z.string().trim(),
  secret: z.string().trim(),
});
type ConnectValues = z.infer<typeof connectSchema>;

function PermissionTable({ permissions }: { permissions: Record<string, string> }) {
  const resources = ['contacts', 'products', 'posts', 'feeds'];
  return (
    <SimpleTable striped aria-label="Permissions">
      <thead>
        <tr>
          <th scope="col">Resource</th>
          <th scope="col">Access</th>
        </tr>
      </thead>
      <tbody>
        {resources.map((resource) => (
          <tr key={resource}>
            <td>{resource}</td>
            <td>{permissions[resource] ?? 'none'}</td>
          </tr>
        ))}
      </tbody>
    </SimpleTable>
  );
}

/** Why the user was sent here, in words. */
function reasonText(reason: string | null): string | null {
  if (reason === 'expired') return 'The saved key for that workspace stopped working (the service refused it). Add a working key to go on.';
  if (reason === 'removed') return 'The key for that workspace was removed, in this tab or another. Add a key to open it again.';
  if (reason === 'missing') return 'There is no saved key for that workspace on this device yet. Add one to open it.';
  return null;
}

function describeError(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401 || error.status === 403) return `The service refused this key (${error.status}: ${error.message}). Check that it is complete and not revoked.`;
    if (error.status === 0) return `Could not reach the service: ${error.message}`;
    return `${error.status}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function ConnectPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const connections = useConnections();
  const config = useQuery(appConfigQuery);
  const [checked, setChecked] = useState<{ values: ConnectValues; authorization: Authorization } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [showBasic, setShowBasic] = useState(false);
  const [demoBusy, setDemoBusy] = useState<string | null>(null);
  const returnTo = search.get('return');
  const wantedWorkspace = search.get('workspace');
  const reason = reasonText(search.get('reason'));

  const form = useForm<ConnectValues>({
    resolver: zodResolver(connectSchema),
    defaultValues: { baseUrl: config.data?.apiBaseUrl ?? '/api', apiKey: '', remember: false, accessKey: '', secret: '' },
  });

  const open = (workspaceId: string) => {
    const target = returnTo && returnTo.startsWith(`/w/${workspaceId}/`) ? returnTo : `/w/${workspaceId}/contacts`;
    void navigate(target);
  };

  const toConnection = (values: ConnectValues, authorization: Authorization): SavedConnection => ({
    workspaceId: authorization.feed.id,
    workspaceName: authorization.feed.name,
    organizationId: authorization.organization.id,
    organizationName: authorization.organization.name,
    baseUrl: values.baseUrl,
    apiKey: values.apiKey,
    permissions: authorization.permissions,
    basic: values.accessKey && values.secret ? { accessKey: values.accessKey, secret: values.secret } : undefined,
    remember: values.remember,
    savedAt: new Date().toISOString(),
  });

  const check = form.handleSubmit(async (values) => {
    setChecked(null);
    setFailure(null);
    try {
      const authorization = await createApiClient({ baseUrl: values.baseUrl, apiKey: values.apiKey }).authorization();
      setChecked({ values, authorization });
    } catch (error) {
      setFailure(describeError(error));
    }
  });

  const connectDemo = async (workspace: { id: string; name: string; key: string; accessKey: string; secret: string }) => {
    setDemoBusy(workspace.id);
    setFailure(null);
    const values: ConnectValues = { baseUrl: config.data?.apiBaseUrl ?? '/api', apiKey: workspace.key, remember: false, accessKey: workspace.accessKey, secret: workspace.secret };
    try {
      const authorization = await createApiClient({ baseUrl: values.baseUrl, apiKey: values.apiKey }).authorization();
      saveConnection(toConnection(values, authorization));
      open(authorization.feed.id);
    } catch (error) {
      setFailure(describeError(error));
    } finally {
      setDemoBusy(null);
    }
  };

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Connect to a workspace</Title>
          <Text c="dimmed">Each API key belongs to one workspace. Keys stay in this browser only.</Text>
        </div>
        {reason ? (
          <Alert color="yellow" role="alert" title="A key is needed">
            {reason}
            {wantedWorkspace ? <Text size="xs" mt={4}>Workspace id: <code>{wantedWorkspace}</code></Text> : null}
          </Alert>
        ) : null}

        {config.data?.demo ? (
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Demo workspaces
              </Title>
              <Text size="sm" c="dimmed">
                This server seeded {config.data.demo.organization.name}. Connect in one click:
              </Text>
              <Group>
                {config.data.demo.workspaces.map((workspace) => (
                  <Button key={workspace.id} variant="light" loading={demoBusy === workspace.id} onClick={() => void connectDemo(workspace)}>
                    Connect to {workspace.name}
                  </Button>
                ))}
              </Group>
            </Stack>
          </Card>
        ) : null}

        <Card withBorder component="form" onSubmit={(event) => void check(event)} aria-label="Connect with an API key">
          <Stack>
            <TextInput label="API base URL" description="This server's API is /api" {...form.register('baseUrl')} error={form.formState.errors.baseUrl?.message} />
            <PasswordInput label="API key" autoComplete="off" {...form.register('apiKey')} error={form.formState.errors.apiKey?.message} />
            <Anchor component="button" type="button" size="sm" onClick={() => setShowBasic((v) => !v)} aria-expanded={showBasic}>
              {showBasic ? 'Hide' : 'Add'} Basic credentials (for notification settings)
            </Anchor>
            <Collapse expanded={showBasic}>
              <Group grow>
                <TextInput label="Access key" autoComplete="off" {...form.register('accessKey')} />
                <PasswordInput label="Secret" autoComplete="off" {...form.register('secret')} />
              </Group>
            </Collapse>
            <Checkbox label="Remember on this device" {...form.register('remember')} />
            <Group>
              <Button type="submit" loading={form.formState.isSubmitting}>
                Connect
              </Button>
            </Group>
            {failure ? (
              <Alert color="red" role="alert" title="Could not connect">
                {failure} Nothing was saved.
              </Alert>
            ) : null}
          </Stack>
        </Card>

        {checked ? (
          <Card withBorder aria-label="Key details">
            <Stack>
              <Title order={2} size="h4">
                {checked.authorization.feed.name}
              </Title>
              <Text size="sm">
                Organization: <strong>{checked.authorization.organization.name}</strong>
              </Text>
              <PermissionTable permissions={checked.authorization.permissions} />
              <Group>
                <Button
                  onClick={() => {
                    saveConnection(toConnection(checked.values, checked.authorization));
                    open(checked.authorization.feed.id);
                  }}
                >
                  Save and open
                </Button>
                <Button variant="default" onClick={() => setChecked(null)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </Card>
        ) : null}

        {connections.length ? (
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Saved keys
              </Title>
              <SimpleTable aria-label="Saved keys">
                <thead>
                  <tr>
                    <th scope="col">Workspace</th>
                    <th scope="col">Organization</th>
                    <th scope="col">Stored</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {connections.map((connection) => (
                    <tr key={connection.workspaceId}>
                      <td>
                        <Anchor component={Link} to={`/w/${connection.workspaceId}/contacts`}>
                          {connection.workspaceName}
                        </Anchor>
                      </td>
                      <td>{connection.organizationName}</td>
                      <td>
                        <Badge variant="light" color={connection.remember ? 'blue' : 'gray'}>
                          {connection.remember ? 'this device' : 'this session'}
                        </Badge>
                      </td>
                      <td>
                        <Button size="xs" variant="subtle" color="red" onClick={() => removeConnection(connection.workspaceId)} aria-label={`Remove the key for ${connection.workspaceName}`}>
                          Remove
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </SimpleTable>
            </Stack>
          </Card>
        ) : null}
      </Stack>
    </Container>
  );
}
