/**
 * The add-key dialog (issue 14 point 4), opened in place by the workspace switcher for a workspace this browser has
 * no key for, instead of a detour to /connect. Pasting a key and pressing "Connect" is one click: the key is checked
 * with `GET /authorization` against the same API as the workspace on screen, must belong to the chosen workspace
 * (otherwise nothing is saved and the dialog says whose key it is), is saved (for the session, or on this device),
 * and the workspace opens, its shell saying what the key allows (lib/key-announcement.ts). It links the workspace's
 * public page (`/embed/:id`, which needs no key). Its texts are in the
 * `tools` catalog area, fetched when the dialog opens (nothing shows until then).
 */
import { Alert, Anchor, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { t as translate } from '@/i18n/i18n';
import { WithArea, useT } from '@/i18n/react';
import { LazyErrorMessage } from './lazy-error-message';
import { checkKey, keyRefusal } from '@/lib/connect-key';
import { type SavedConnection, saveConnection } from '@/lib/connections';
import { announceConnection } from '@/lib/key-announcement';

export type AddKeyDialogProps = {
  /** The workspace to add a key for: its id and name. */
  workspace: { id: string; name: string };
  /** The API the key is checked against: the base URL of the workspace on screen. */
  baseUrl: string;
  /** Where /connect returns to, for "more options". */
  returnTo: string;
  onClose: () => void;
  /** Called with the saved connection; the caller opens the workspace. */
  onConnected: (connection: SavedConnection) => void;
};

export function AddKeyDialog(props: AddKeyDialogProps) {
  return <WithArea area="tools" render={() => <Dialog {...props} />} />;
}

function Dialog({ workspace, baseUrl, returnTo, onClose, onConnected }: AddKeyDialogProps) {
  const t = useT();
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  // What went wrong: the console's own words, or the failed check (shown as sentences with its details, issue 13).
  const [failure, setFailure] = useState<{ text: string } | { error: unknown } | null>(null);

  const connect = async () => {
    setFailure(null);
    if (!apiKey.trim()) {
      setFailure({ text: translate('tools.pasteKeyFirst') });
      return;
    }
    setBusy(true);
    try {
      const connection = await checkKey({ baseUrl, apiKey: apiKey.trim(), remember });
      if (connection.workspaceId !== workspace.id) {
        setFailure({ text: translate('tools.keyOfOther', { owner: connection.workspaceName, workspace: workspace.name }) });
        return;
      }
      saveConnection(connection);
      announceConnection(connection);
      onConnected(connection);
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('tools.addKeyFor', { workspace: workspace.name })} closeButtonProps={{ 'aria-label': t('tools.close') }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void connect();
        }}
        aria-label={t('tools.addKeyFor', { workspace: workspace.name })}
      >
        <Stack>
          <Text size="sm">{t('tools.noKeyYet', { workspace: workspace.name })}</Text>
          <Anchor href={`/embed/${encodeURIComponent(workspace.id)}`} target="_blank" rel="noreferrer" size="sm">
            {t('tools.publicPageOf', { workspace: workspace.name })}
          </Anchor>
          <PasswordInput label={t('tools.apiKey')} autoComplete="off" value={apiKey} onChange={(event) => setApiKey(event.currentTarget.value)} data-autofocus />
          <Checkbox label={t('tools.rememberDevice')} checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
          {failure ? (
            <Alert color="red" role="alert" title={t('tools.couldNotConnect')}>
              {'text' in failure ? (
                failure.text
              ) : (
                <>
                  <WithArea area="sentences" render={() => <LazyErrorMessage error={failure.error} sentence={keyRefusal(failure.error)} />} />
                  <Text size="sm">{t('tools.nothingSaved')}</Text>
                </>
              )}
            </Alert>
          ) : null}
          <Group justify="space-between">
            <Anchor component={Link} to={`/connect?workspace=${encodeURIComponent(workspace.id)}&return=${encodeURIComponent(returnTo)}`} size="sm">
              {t('tools.moreOptions')}
            </Anchor>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('shell.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('tools.connect')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
