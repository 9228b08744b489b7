/**
 * The pop-ups of the saved views row (saved-views-row.tsx, issue 14 point 7), loaded when first needed (issue 16): a
 * view's menu (rename, copy its link, delete), a shared view's menu and the confirmation of deleting one (issue 36
 * point 8, docs/decisions.md section 13), and the dialog naming a view, with "Share with the workspace" where the
 * list can share. Their texts are in the `tools` catalog area, which saved-views-row.tsx loads with this module.
 */
import { ActionIcon, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { isApiError } from '@/api/api-error';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { MAX_VIEWS, MAX_VIEW_NAME, type SavedView, type ViewNameProblem, deleteView } from '@/lib/saved-view-store';
import { ErrorMessage } from './error-message';

/** The scope that shares, renames and deletes shared views (docs/decisions.md section 13). */
const SHARE_SCOPE = 'contacts:read-write';

/** A view name's problem (lib/saved-view-store.ts) in the language shown; `name`: the name as typed, trimmed; `max`: the longest name. */
export function problemText(problem: ViewNameProblem, name: string, max = MAX_VIEW_NAME): string {
  if (problem === 'missing') return translate('tools.viewNameMissing');
  if (problem === 'too-long') return translate('tools.viewNameTooLong', { max });
  if (problem === 'taken') return translate('tools.viewNameTaken', { name });
  return translate('tools.viewsFull', { max: MAX_VIEWS });
}

/** Copies `link` (a view's absolute URL) and says so, naming the view. */
async function copyLink(name: string, link: string) {
  try {
    await navigator.clipboard.writeText(link);
    notifications.show({ message: translate('tools.viewLinkCopied', { name }) });
  } catch {
    notifications.show({ color: 'red', message: translate('tools.copyRefused') });
  }
}

/**
 * A destructive item's text: the red of light variants, which app.tsx darkens in the light scheme (Mantine's red 6
 * on a white menu is about 3.5:1, under WCAG AA's 4.5:1; axe: color-contrast).
 */
const DANGER_TEXT = 'var(--mantine-color-red-light-color)';

/** The menu of `view` of `list`: Rename (`onRename`), Copy link (`link`, its absolute URL), Delete. */
export function ViewMenu({ view, list, link, onRename }: { view: SavedView; list: string; link: string; onRename: () => void }) {
  const t = useT();
  const { workspaceId } = useWorkspaceApi();
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" size="md" aria-label={t('lists.viewOptions', { name: view.name })}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRename}>{t('tools.rename')}</Menu.Item>
        <Menu.Item onClick={() => void copyLink(view.name, link)}>{t('tools.copyLink')}</Menu.Item>
        <Menu.Item c={DANGER_TEXT} onClick={() => deleteView(workspaceId, list, view.id)}>
          {t('tools.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The menu of a shared view named `name` (issue 36 point 8): Rename (`onRename`), Copy link (`link`), Delete
 * (`onDelete`, which asks first). Without contacts:read-write (`canWrite` false) Rename and Delete are disabled and
 * the menu says why: every key of the workspace sees shared views, read-write keys change them
 * (docs/decisions.md section 13).
 */
export function SharedViewMenu({ name, link, canWrite, onRename, onDelete }: { name: string; link: string; canWrite: boolean; onRename: () => void; onDelete: () => void }) {
  const t = useT();
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" size="md" aria-label={t('tools.sharedViewOptions', { name })}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {canWrite ? null : <Menu.Label>{t('tools.sharedViewNeedsScope', { scope: SHARE_SCOPE })}</Menu.Label>}
        <Menu.Item onClick={onRename} disabled={!canWrite}>
          {t('tools.rename')}
        </Menu.Item>
        <Menu.Item onClick={() => void copyLink(name, link)}>{t('tools.copyLink')}</Menu.Item>
        <Menu.Item c={DANGER_TEXT} onClick={onDelete} disabled={!canWrite}>
          {t('tools.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Asks before deleting the shared view `name` for the whole workspace; `onConfirm` deletes it (the dialog shows its
 * refusal, if any, and stays open), `onClose` closes.
 */
export function DeleteSharedViewDialog({ name, onConfirm, onClose }: { name: string; onConfirm: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const title = t('tools.deleteSharedViewTitle', { name });
  const confirm = async () => {
    setRunning(true);
    setFailure(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(error);
      setRunning(false);
    }
  };
  return (
    <Modal opened onClose={running ? () => undefined : onClose} title={title} closeButtonProps={{ 'aria-label': t('tools.close') }}>
      <Stack>
        <Text size="sm">{t('tools.deleteSharedViewText')}</Text>
        {failure ? <ErrorMessage error={failure} /> : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={running}>
            {t('shell.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={running}>
            {t('tools.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Where the naming dialog offers "Share with the workspace" (issue 36 point 8): `allowed` false (a key without
 * contacts:read-write) shows it disabled, saying why; `max`: the longest name of a shared view.
 */
export type ShareOption = { allowed: boolean; max: number };

/**
 * A dialog asking for a view's name: saving the current view, or renaming the view named `renaming`; `check` gives
 * the problem with a name (for a view `shared` with the workspace or not), shown on the field in words. With `share`,
 * it offers sharing the view with the workspace. `onSubmit` may be a promise (a shared view is saved by the service):
 * a 409 shows as the name being taken, any other refusal under the field, and the dialog stays open.
 */
export function NameDialog({
  renaming,
  initial,
  check,
  onSubmit,
  onClose,
  share,
  sharedMax,
}: {
  renaming?: string | undefined;
  initial: string;
  check: (name: string, shared: boolean) => ViewNameProblem | null;
  onSubmit: (name: string, shared: boolean) => void | Promise<void>;
  onClose: () => void;
  share?: ShareOption | undefined;
  /** The longest name, when renaming a shared view. */
  sharedMax?: number | undefined;
}) {
  const t = useT();
  const title = renaming === undefined ? t('tools.saveViewTitle') : t('tools.renameViewTitle', { name: renaming });
  const [name, setName] = useState(initial);
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const max = shared && share ? share.max : (sharedMax ?? MAX_VIEW_NAME);
  const showProblem = (problem: ViewNameProblem) => setError(problemText(problem, name.trim(), max));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problem = check(name, shared);
    if (problem) {
      showProblem(problem);
      return;
    }
    setSaving(true);
    try {
      await onSubmit(name, shared);
    } catch (failed) {
      setSaving(false);
      const problem = failed instanceof Error ? failed.message : String(failed);
      if (['missing', 'too-long', 'taken', 'full'].includes(problem)) showProblem(problem as ViewNameProblem);
      else if (isApiError(failed) && failed.status === 409 && /already exists/.test(failed.message)) showProblem('taken');
      else if (isApiError(failed)) setFailure(failed);
      else setError(problem);
    }
  };
  return (
    <Modal opened onClose={saving ? () => undefined : onClose} title={title} closeButtonProps={{ 'aria-label': t('tools.close') }}>
      <form onSubmit={(event) => void submit(event)} aria-label={title}>
        <Stack>
          <TextInput label={t('tools.viewName')} value={name} onChange={(event) => setName(event.currentTarget.value)} error={error} data-autofocus />
          {share ? (
            <Checkbox
              label={t('tools.shareWithWorkspace')}
              description={share.allowed ? t('tools.shareWithWorkspaceHint') : t('tools.sharedViewNeedsScope', { scope: SHARE_SCOPE })}
              checked={shared && share.allowed}
              disabled={!share.allowed}
              onChange={(event) => setShared(event.currentTarget.checked)}
            />
          ) : null}
          {failure ? <ErrorMessage error={failure} /> : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('tools.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
