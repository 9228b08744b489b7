/**
 * The header's search across workspaces (issue 24, src/features/people-search/) and key tools (issue 4), loaded at the page's first interaction (issue 16): the key's organization and
 * permissions in a menu, with a way to manage keys; and, just after connecting with a pasted key (issue 14 point 4),
 * what that key allows (a click connected it, so the page has had its first interaction by then). The light/dark
 * toggle and the API reference link beside them are in the shell at once (src/app/color-scheme-toggle.tsx,
 * workspace-layout.tsx). Texts: the `tools` catalog area, which the layout loads with this module (issue 23).
 * The permissions table says in words what the key lets the person do (issue 34 point 9: not `contacts: read-write`).
 */
import { ActionIcon, Alert, Anchor, NativeSelect, Popover, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { KeyIcon } from '@/components/icons';
import { PeopleSearchButton } from '@/features/people-search/people-search-button';
import { SimpleTable } from '@/components/simple-table';
import { Link, useLocation } from 'react-router';
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { saveReserve, savedReserve } from '@/lib/budgeted-client';
import type { SavedConnection } from '@/lib/connections';
import { dismissAnnouncement, useAnnouncedConnection } from '@/lib/key-announcement';
import { PERMISSION_RESOURCES, permissionSummary, permissionWords, resourceName } from '@/lib/permission-words';

const RESERVES = [0, 0.1, 0.2, 0.3, 0.5];

/**
 * The share of the key's requests that background jobs leave for the person's own clicks (issue 19, point 4),
 * saved on this device (src/lib/budgeted-client.ts).
 */
function ReserveSetting() {
  const t = useT();
  const [reserve, setReserve] = useState(savedReserve);
  return (
    <NativeSelect
      size="xs"
      label={t('tools.reserveLabel')}
      description={t('tools.reserveHint')}
      data={RESERVES.map((share) => ({ value: String(share), label: formatNumber(share, { style: 'percent' }) }))}
      value={String(reserve)}
      onChange={(event) => {
        const share = Number(event.currentTarget.value);
        setReserve(share);
        saveReserve(share);
      }}
    />
  );
}

/** The key's organization and permissions, and a way to manage keys (a dialog, since it holds a table). */
function AccountMenu() {
  const t = useT();
  const { connection } = useWorkspaceApi();
  return (
    <Popover width={300} position="bottom-end" shadow="md">
      <Popover.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('shell.keyAndPermissions')}>
          <KeyIcon />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown aria-label={t('shell.keyAndPermissions')}>
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            {t('tools.organization')}
          </Text>
          <Text size="sm" fw={500}>
            {connection.organizationName}
          </Text>
          <SimpleTable compact aria-label={t('tools.keyPermissions')}>
            <tbody>
              {PERMISSION_RESOURCES.map((resource) => (
                <tr key={resource}>
                  <th scope="row">{resourceName(resource)}</th>
                  <td>{permissionWords(resource, connection.permissions[resource])}</td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
          <ReserveSetting />
          <Anchor component={Link} to="/connect" size="sm">
            {t('tools.manageKeys')}
          </Anchor>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * "Connected to <workspace>: this key allows ...", at the top of the page the key opened (in `slot`, the layout's
 * place for it, rather than a toast, so it covers none of the page's buttons), until dismissed or the user moves to
 * another page.
 */
function ConnectedNotice({ connection, slot }: { connection: SavedConnection; slot: HTMLElement }) {
  const t = useT();
  const { pathname } = useLocation();
  const shownAt = useRef(pathname);
  useEffect(() => {
    if (shownAt.current !== pathname) dismissAnnouncement();
  }, [pathname]);
  return createPortal(
    <Alert color="green" role="status" title={t('tools.connectedTo', { workspace: connection.workspaceName })} withCloseButton closeButtonLabel={t('tools.dismiss')} onClose={dismissAnnouncement} mb="md">
      {t('tools.keyAllows', { permissions: permissionSummary(connection.permissions) })}
    </Alert>,
    slot,
  );
}

/** The header's tools loaded at the first interaction (the running job's progress is the layout's, shown at once). */
export function HeaderTools({ noticeSlot }: { noticeSlot: HTMLElement | null }) {
  const { workspaceId } = useWorkspaceApi();
  const announced = useAnnouncedConnection();
  return (
    <>
      {announced?.workspaceId === workspaceId && noticeSlot ? <ConnectedNotice connection={announced} slot={noticeSlot} /> : null}
      <PeopleSearchButton />
      <AccountMenu />
    </>
  );
}
