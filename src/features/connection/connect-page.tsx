/**
 * `/connect` (issue 4): connect with a pasted key in one click (issue 14 point 4): "Connect" checks the key with
 * `GET /authorization`, saves it (one key per workspace; for the session, or on this device with "Remember on this
 * device"), opens the workspace, whose shell says what the key allows (lib/connect-key.ts), with optional Basic credentials for
 * notification settings. Offers the demo workspaces in one click when the server seeded them. Saved keys can be
 * opened or removed.
 *
 * The form is a plain form read on submit and checked with its zod schema (issue 16): two required texts do not
 * need react-hook-form, whose 15 KB of gzip would otherwise be a tenth of the first screen a newcomer loads.
 */
import {
  Alert, Anchor, Badge, Button, Card, Checkbox, Container, Group, PasswordInput, Stack, Text, TextInput, Title,
} from '@mantine/core';
import { LazyErrorMessage } from '@/components/lazy-error-message';
import { SimpleTable } from '@/components/simple-table';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import * as z from 'zod/mini';
import { type KeyInput, checkKey, keyRefusal, preloadKeyCheck } from '@/lib/connect-key';
import { removeConnection, saveConnection, useConnections } from '@/lib/connections';
import { useFirstInteraction } from '@/lib/first-interaction';
import { announceConnection } from '@/lib/key-announcement';
import { appConfigQuery } from './app-config';

const connectSchema = z.object({
  baseUrl: z.string().check(z.trim(), z.minLength(1, 'Enter the API base URL, such as /api or https://host/api')),
  apiKey: z.string().check(z.trim(), z.minLength(1, 'Enter an API key')),
  remember: z.boolean(),
  accessKey: z.string().check(z.trim()),
  secret: z.string().check(z.trim()),
});
type ConnectValues = z.infer<typeof connectSchema>;
type FieldErrors = Partial<Record<keyof ConnectValues, string>>;

/** The form's values as its inputs hold them (`name` attributes), checked by `connectSchema`. */
function readConnectForm(form: HTMLFormElement): { values: ConnectValues } | { errors: FieldErrors } {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '');
  const parsed = connectSchema.safeParse({ baseUrl: text('baseUrl'), apiKey: text('apiKey'), remember: data.get('remember') !== null, accessKey: text('accessKey'), secret: text('secret') });
  if (parsed.success) return { values: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof ConnectValues] ??= issue.message;
  return { errors };
}

/** Why the user was sent here, in words. */
function reasonText(reason: string | null): string | null {
  if (reason === 'expired') return 'The saved key for that workspace stopped working (the service refused it). Add a working key to go on.';
  if (reason === 'removed') return 'The key for that workspace was removed, in this tab or another. Add a key to open it again.';
  if (reason === 'missing') return 'There is no saved key for that workspace on this device yet. Add one to open it.';
  return null;
}

export function ConnectPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const connections = useConnections();
  const config = useQuery(appConfigQuery);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [showBasic, setShowBasic] = useState(false);
  const [demoBusy, setDemoBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const returnTo = search.get('return');
  const wantedWorkspace = search.get('workspace');
  const reason = reasonText(search.get('reason'));
  // The client that checks a key loads once the person starts doing something, ahead of the click on Connect.
  const interacted = useFirstInteraction();
  useEffect(() => {
    if (interacted) void preloadKeyCheck();
  }, [interacted]);

  const open = (workspaceId: string, replace = false) => {
    const target = returnTo && returnTo.startsWith(`/w/${workspaceId}/`) ? returnTo : `/w/${workspaceId}/contacts`;
    void navigate(target, { replace });
  };

  // A key for the wanted workspace arriving while this page is open (from another tab of the session, late) opens it.
  const arrived = Boolean(wantedWorkspace && connections.some((c) => c.workspaceId === wantedWorkspace));
  useEffect(() => {
    if (arrived && wantedWorkspace) open(wantedWorkspace, true);
    // `open` reads the URL's return target, which `wantedWorkspace` comes with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrived, wantedWorkspace]);

  /** Checks the key, saves it, opens its workspace and says what the key allows; or says why not, saving nothing. */
  const connect = async (input: KeyInput) => {
    setFailure(null);
    try {
      const connection = await checkKey(input);
      saveConnection(connection);
      announceConnection(connection);
      open(connection.workspaceId);
    } catch (error) {
      setFailure({ error });
    }
  };

  /** The form's submit: its fields checked by `connectSchema` (the first wrong one focused), then `connect`. */
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const read = readConnectForm(form);
    if ('errors' in read) {
      setErrors(read.errors);
      const first = Object.keys(read.errors)[0];
      if (first) (form.elements.namedItem(first) as HTMLInputElement | null)?.focus();
      return;
    }
    setErrors({});
    setChecking(true);
    await connect(read.values);
    setChecking(false);
  };

  const connectDemo = async (workspace: { id: string; name: string; key: string; accessKey: string; secret: string }) => {
    setDemoBusy(workspace.id);
    setFailure(null);
    await connect({ baseUrl: config.data?.apiBaseUrl ?? '/api', apiKey: workspace.key, remember: false, accessKey: workspace.accessKey, secret: workspace.secret });
    setDemoBusy(null);
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

        <Card
          withBorder
          component="form"
          noValidate
          onSubmit={(event: FormEvent<HTMLFormElement>) => void submit(event)}
          onInput={(event: FormEvent<HTMLFormElement>) => {
            // Typing in a field takes its error away; the next submit checks it again.
            const name = (event.target as HTMLInputElement).name as keyof ConnectValues;
            if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
          }}
          aria-label="Connect with an API key"
        >
          <Stack>
            <TextInput label="API base URL" description="This server's API is /api" name="baseUrl" defaultValue={config.data?.apiBaseUrl ?? '/api'} error={errors.baseUrl} />
            <PasswordInput label="API key" autoComplete="off" name="apiKey" defaultValue="" error={errors.apiKey} />
            <Anchor component="button" type="button" size="sm" onClick={() => setShowBasic((v) => !v)} aria-expanded={showBasic} aria-controls="basic-credentials">
              {showBasic ? 'Hide' : 'Add'} Basic credentials (for notification settings)
            </Anchor>
            {/* Hidden rather than unmounted, so what was typed stays in the form; no Collapse (its transition code is 1.5 KB of the first screen). */}
            <div id="basic-credentials" hidden={!showBasic}>
              <Group grow>
                <TextInput label="Access key" autoComplete="off" name="accessKey" />
                <PasswordInput label="Secret" autoComplete="off" name="secret" />
              </Group>
            </div>
            <Checkbox label="Remember on this device" name="remember" />
            <Group>
              <Button type="submit" loading={checking}>
                Connect
              </Button>
            </Group>
            {failure ? (
              <Alert color="red" role="alert" title="Could not connect">
                <LazyErrorMessage error={failure.error} sentence={keyRefusal(failure.error)} />
                <Text size="sm">Nothing was saved.</Text>
              </Alert>
            ) : null}
          </Stack>
        </Card>

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
