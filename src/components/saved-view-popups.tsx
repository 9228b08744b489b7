/**
 * The pop-ups of the saved views row (saved-views.tsx, issue 14 point 7), loaded when first needed (issue 16): a
 * view's menu (rename, copy its link, delete) and the dialog naming a view. Their texts are in the `tools` catalog
 * area, which saved-views.tsx loads with this module.
 */
import { ActionIcon, Button, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/api';
import { MAX_VIEWS, MAX_VIEW_NAME, type SavedView, type ViewNameProblem, deleteView } from '@/lib/saved-views';

/** A view name's problem (lib/saved-views.ts) in the language shown; `name`: the name as typed, trimmed. */
export function problemText(problem: ViewNameProblem, name: string): string {
  if (problem === 'missing') return translate('tools.viewNameMissing');
  if (problem === 'too-long') return translate('tools.viewNameTooLong', { max: MAX_VIEW_NAME });
  if (problem === 'taken') return translate('tools.viewNameTaken', { name });
  return translate('tools.viewsFull', { max: MAX_VIEWS });
}

/** The menu of `view` of `list`: Rename (`onRename`), Copy link (`link`, its absolute URL), Delete. */
export function ViewMenu({ view, list, link, onRename }: { view: SavedView; list: string; link: string; onRename: () => void }) {
  const t = useT();
  const { workspaceId } = useWorkspaceApi();
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notifications.show({ message: translate('tools.viewLinkCopied', { name: view.name }) });
    } catch {
      notifications.show({ color: 'red', message: translate('tools.copyRefused') });
    }
  };
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" size="md" aria-label={t('shell.viewOptions', { name: view.name })}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRename}>{t('tools.rename')}</Menu.Item>
        <Menu.Item onClick={() => void copyLink()}>{t('tools.copyLink')}</Menu.Item>
        <Menu.Item color="red" onClick={() => deleteView(workspaceId, list, view.id)}>
          {t('tools.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A dialog asking for a view's name: saving the current view, or renaming the view named `renaming`; `check` gives
 * the problem with a name, shown on the field in words.
 */
export function NameDialog({ renaming, initial, check, onSubmit, onClose }: { renaming?: string | undefined; initial: string; check: (name: string) => ViewNameProblem | null; onSubmit: (name: string) => void; onClose: () => void }) {
  const t = useT();
  const title = renaming === undefined ? t('tools.saveViewTitle') : t('tools.renameViewTitle', { name: renaming });
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(name);
    if (problem) setError(problemText(problem, name.trim()));
    else {
      try {
        onSubmit(name);
      } catch (failure) {
        const problem = failure instanceof Error ? failure.message : String(failure);
        setError(['missing', 'too-long', 'taken', 'full'].includes(problem) ? problemText(problem as ViewNameProblem, name.trim()) : problem);
      }
    }
  };
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('tools.close') }}>
      <form onSubmit={submit} aria-label={title}>
        <Stack>
          <TextInput label={t('tools.viewName')} value={name} onChange={(event) => setName(event.currentTarget.value)} error={error} data-autofocus />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit">{t('tools.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
