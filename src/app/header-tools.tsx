/**
 * The header's right-hand tools (issue 4): a link to the API reference (`/api/docs`, this server's rendering of the
 * OpenAPI document, in a new tab; issue 14 point 9), the light/dark toggle (remembered) and the key's organization
 * and permissions; and, just after connecting with a pasted key (issue 14 point 4), what that key allows.
 */
import { ActionIcon, Alert, Anchor, Group, Popover, Stack, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { BookIcon, KeyIcon, MoonIcon, SunIcon } from '@/components/icons';
import { SimpleTable } from '@/components/simple-table';
import { Link, useLocation } from 'react-router';
import { useWorkspaceApi } from '@/lib/api';
import type { SavedConnection } from '@/lib/connections';
import { PERMISSION_RESOURCES, dismissAnnouncement, permissionSummary, useAnnouncedConnection } from '@/lib/key-announcement';

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(next)} aria-label={`Switch to ${next} mode`}>
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}

/** The key's organization and permissions, and a way to manage keys (a dialog, since it holds a table). */
function AccountMenu() {
  const { connection } = useWorkspaceApi();
  return (
    <Popover width={300} position="bottom-end" shadow="md">
      <Popover.Target>
        <ActionIcon variant="default" size="lg" aria-label="Key and permissions">
          <KeyIcon />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown aria-label="Key and permissions">
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            Organization
          </Text>
          <Text size="sm" fw={500}>
            {connection.organizationName}
          </Text>
          <SimpleTable compact aria-label="Permissions of this key">
            <tbody>
              {PERMISSION_RESOURCES.map((resource) => (
                <tr key={resource}>
                  <th scope="row">{resource}</th>
                  <td>{connection.permissions[resource] ?? 'none'}</td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
          <Anchor component={Link} to="/connect" size="sm">
            Manage keys
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
  const { pathname } = useLocation();
  const shownAt = useRef(pathname);
  useEffect(() => {
    if (shownAt.current !== pathname) dismissAnnouncement();
  }, [pathname]);
  return createPortal(
    <Alert color="green" role="status" title={`Connected to ${connection.workspaceName}`} withCloseButton closeButtonLabel="Dismiss" onClose={dismissAnnouncement} mb="md">
      This key allows {permissionSummary(connection.permissions)}.
    </Alert>,
    slot,
  );
}

export function HeaderTools({ noticeSlot }: { noticeSlot: HTMLElement | null }) {
  const { workspaceId } = useWorkspaceApi();
  const announced = useAnnouncedConnection();
  return (
    <Group gap="xs" wrap="nowrap">
      {announced?.workspaceId === workspaceId && noticeSlot ? <ConnectedNotice connection={announced} slot={noticeSlot} /> : null}
      <ActionIcon component="a" href="/api/docs" target="_blank" rel="noopener" variant="default" size="lg" aria-label="API reference (opens in a new tab)" title="API reference">
        <BookIcon />
      </ActionIcon>
      <ColorSchemeToggle />
      <AccountMenu />
    </Group>
  );
}
