/**
 * `/connect` (issue 4): connect with a pasted key in one click (issue 14 point 4): "Connect" checks the key with
 * `GET /authorization`, saves it (one key per workspace; for the session, or on this device with "Remember on this
 * device"), opens the workspace, whose shell says what the key allows (lib/connect-key.ts), with optional Basic credentials for
 * notification settings. Offers the demo workspaces in one click when the server seeded them. Saved keys can be
 * opened or removed.
 *
 * The form is a plain form read on submit and checked by `readConnectForm` (issue 16): two required texts do not
 * need react-hook-form, whose 15 KB of gzip would otherwise be a tenth of the first screen a newcomer loads, nor
 * zod (issue 38 point 3: about 10 KB more), since the page reads no answer of the contract until a key is checked.
 */
import {
  Alert, Anchor, Badge, Button, Card, Container, Group, PasswordInput, Stack, Text, TextInput, Title,
} from '@mantine/core';
import { LazyErrorMessage } from '@/components/lazy-error-message';
import { useQuery } from '@tanstack/react-query';
import { SimpleTable } from '@/components/simple-table';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type KeyInput, checkKey, keyRefusal, preloadKeyCheck } from '@/lib/connect-key';
import { removeConnection, saveConnection, useConnections } from '@/lib/connections';
import { useFirstInteraction } from '@/lib/first-interaction';
import { announceConnection } from '@/lib/key-announcement';
import { LanguageChooser } from '@/components/language-chooser';
import { t } from '@/i18n/i18n';
import { WithArea, useT } from '@/i18n/react';
import { appConfigQuery } from './app-config';
import classes from './connect-page.module.css';

type ConnectValues = { baseUrl: string; apiKey: string; remember: boolean; accessKey: string; secret: string };
type FieldErrors = Partial<Record<keyof ConnectValues, string>>;

/**
 * The form's values as its inputs hold them (`name` attributes), trimmed; the base URL and the key are required
 * (their messages read in the language shown when the form is checked).
 */
function readConnectForm(form: HTMLFormElement): { values: ConnectValues } | { errors: FieldErrors } {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const values: ConnectValues = { baseUrl: text('baseUrl'), apiKey: text('apiKey'), remember: data.get('remember') !== null, accessKey: text('accessKey'), secret: text('secret') };
  const errors: FieldErrors = {};
  if (!values.baseUrl) errors.baseUrl = t('connect.baseUrlMissing');
  if (!values.apiKey) errors.apiKey = t('connect.apiKeyMissing');
  return Object.keys(errors).length ? { errors } : { values };
}

/** Why the user was sent here, in words (from the `sentences` catalog, loaded when one is shown). */
function reasonText(reason: string | null): string | null {
  if (reason === 'expired') return t('sentences.connectExpired');
  if (reason === 'removed') return t('sentences.connectRemoved');
  if (reason === 'missing') return t('sentences.connectMissing');
  return null;
}

export function ConnectPage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const connections = useConnections();
  const config = useQuery(appConfigQuery).data;
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [showBasic, setShowBasic] = useState(false);
  const [demoBusy, setDemoBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const returnTo = search.get('return');
  const wantedWorkspace = search.get('workspace');
  const reason = search.get('reason');
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

  /** The form's submit: its fields checked by `readConnectForm` (the first wrong one focused), then `connect`. */
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
    await connect({ baseUrl: config?.apiBaseUrl ?? '/api', apiKey: workspace.key, remember: false, accessKey: workspace.accessKey, secret: workspace.secret });
    setDemoBusy(null);
  };

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={1}>{t('connect.title')}</Title>
            <Text c="dimmed">{t('connect.intro')}</Text>
          </div>
          <LanguageChooser />
        </Group>
        {reason && ['expired', 'removed', 'missing'].includes(reason) ? (
          <WithArea
            area="sentences"
            render={() => (
              <Alert color="yellow" role="alert" title={t('connect.keyNeeded')}>
                {reasonText(reason)}
                {wantedWorkspace ? <Text size="xs" mt={4}>{t('connect.workspaceId')} <code>{wantedWorkspace}</code></Text> : null}
              </Alert>
            )}
          />
        ) : null}

        {config?.demo ? (
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('connect.demoTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('connect.demoIntro', { organization: config.demo.organization.name })}
              </Text>
              <Group>
                {config.demo.workspaces.map((workspace) => (
                  <Button key={workspace.id} variant="light" loading={demoBusy === workspace.id} onClick={() => void connectDemo(workspace)}>
                    {t('connect.demoConnect', { workspace: workspace.name })}
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
          aria-label={t('connect.formLabel')}
        >
          <Stack>
            <TextInput label={t('connect.baseUrl')} description={t('connect.baseUrlHint')} name="baseUrl" defaultValue={config?.apiBaseUrl ?? '/api'} error={errors.baseUrl} />
            <PasswordInput label={t('connect.apiKey')} autoComplete="off" name="apiKey" defaultValue="" error={errors.apiKey} />
            <Anchor component="button" type="button" size="sm" onClick={() => setShowBasic((v) => !v)} aria-expanded={showBasic} aria-controls="basic-credentials">
              {showBasic ? t('connect.basicHide') : t('connect.basicAdd')}
            </Anchor>
            {/* Hidden rather than unmounted, so what was typed stays in the form; no Collapse (its transition code is 1.5 KB of the first screen). */}
            <div id="basic-credentials" hidden={!showBasic}>
              <Group grow>
                <TextInput label={t('connect.accessKey')} autoComplete="off" name="accessKey" />
                <PasswordInput label={t('connect.secret')} autoComplete="off" name="secret" />
              </Group>
            </div>
            <label className={classes.remember}>
              <input type="checkbox" name="remember" />
              {t('connect.remember')}
            </label>
            <Group>
              <Button type="submit" loading={checking}>
                {t('connect.submit')}
              </Button>
            </Group>
            {failure ? (
              <WithArea
                area="sentences"
                render={() => (
                  <Alert color="red" role="alert" title={t('sentences.connectFailed')}>
                    <LazyErrorMessage error={failure.error} sentence={keyRefusal(failure.error)} />
                    <Text size="sm">{t('sentences.connectNothingSaved')}</Text>
                  </Alert>
                )}
              />
            ) : null}
          </Stack>
        </Card>

        {connections.length ? (
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('connect.savedKeys')}
              </Title>
              <SimpleTable aria-label={t('connect.savedKeys')}>
                <thead>
                  <tr>
                    <th scope="col">{t('connect.colWorkspace')}</th>
                    <th scope="col">{t('connect.colOrganization')}</th>
                    <th scope="col">{t('connect.colStored')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('connect.colActions')}</span>
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
                          {connection.remember ? t('connect.storedDevice') : t('connect.storedSession')}
                        </Badge>
                      </td>
                      <td>
                        <Button size="xs" variant="subtle" color="red" onClick={() => removeConnection(connection.workspaceId)} aria-label={t('connect.removeKeyFor', { workspace: connection.workspaceName })}>
                          {t('connect.remove')}
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
