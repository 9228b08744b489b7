/** The header's right-hand tools (issue 4): the light/dark toggle (remembered) and the key's organization and permissions. */
import { ActionIcon, Group, Menu, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { SimpleTable } from '@/components/simple-table';
import { Link } from 'react-router';
import { useWorkspaceApi } from '@/lib/api';

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(next)} aria-label={`Switch to ${next} mode`}>
      <span aria-hidden="true">{computed === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}

function AccountMenu() {
  const { connection } = useWorkspaceApi();
  return (
    <Menu width={300} position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Key and permissions">
          <span aria-hidden="true">⚿</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Organization</Menu.Label>
        <Text px="sm" size="sm" fw={500}>
          {connection.organizationName}
        </Text>
        <Menu.Label>Permissions of this key</Menu.Label>
        <SimpleTable compact aria-label="Permissions of this key">
          <tbody>
            {['contacts', 'products', 'posts', 'feeds'].map((resource) => (
              <tr key={resource}>
                <td>{resource}</td>
                <td>{connection.permissions[resource] ?? 'none'}</td>
              </tr>
            ))}
          </tbody>
        </SimpleTable>
        <Menu.Divider />
        <Menu.Item component={Link} to="/connect">
          Manage keys
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function HeaderTools() {
  return (
    <Group gap="xs" wrap="nowrap">
      <ColorSchemeToggle />
      <AccountMenu />
    </Group>
  );
}
