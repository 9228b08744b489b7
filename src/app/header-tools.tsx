/**
 * The header's right-hand tools (issue 4): a link to the API reference (`/api/docs`, this server's rendering of the
 * OpenAPI document, in a new tab; issue 14 point 9), the light/dark toggle (remembered) and the key's organization
 * and permissions.
 */
import { ActionIcon, Anchor, Group, Popover, Stack, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { BookIcon, KeyIcon, MoonIcon, SunIcon } from '@/components/icons';
import { SimpleTable } from '@/components/simple-table';
import { Link } from 'react-router';
import { useWorkspaceApi } from '@/lib/api';
import { PERMISSION_RESOURCES } from '@/lib/permissions';

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

export function HeaderTools() {
  return (
    <Group gap="xs" wrap="nowrap">
      <ActionIcon component="a" href="/api/docs" target="_blank" rel="noopener" variant="default" size="lg" aria-label="API reference (opens in a new tab)" title="API reference">
        <BookIcon />
      </ActionIcon>
      <ColorSchemeToggle />
      <AccountMenu />
    </Group>
  );
}
