/**
 * The header's workspace switcher (issue 4): the organization's workspaces (`GET /workspaces`, searchable,
 * paged 50 at a time), marking those with a saved key. Choosing one with a key switches to it at the same section,
 * its list as it was last shown there (filters, sort, page: lib/list-memory.ts; issue 14 point 4); choosing one
 * without a key opens the add-key dialog in place (components/add-key-dialog.tsx), and once its key is saved that
 * workspace opens at the same section (the dialog links the workspace's public page). An option holds no link or
 * button of its own: a control inside an option is one no keyboard or screen reader reaches (axe: nested-interactive).
 * The search box is the ARIA combobox (role `combobox`, `aria-expanded`, `aria-controls` naming the list, and
 * Mantine's `aria-activedescendant`): the options, which scroll past ten or so workspaces, are reached with the arrow keys
 * from it, as a screen reader is told, and axe counts the list as that combobox's popup (scrollable-region-focusable).
 * Without feeds:read-only it lists the saved keys only.
 */
import { Badge, Button, Combobox, Group, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue, useId } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { AddKeyDialog } from '@/components/add-key-dialog';
import { useConnections } from '@/lib/connections';
import { listPath, useListMemory } from '@/lib/list-memory';
import { allows } from '@/lib/permissions';
import { WithArea, useT } from '@/i18n/react';
import { workspaceQueries } from './queries';

type Option = { id: string; name: string; hasKey: boolean };

/** The switcher (see the module comment): its button's name in the `shell` catalog, its dropdown's in `workspaces`. */
export function WorkspaceSwitcher() {
  const t = useT();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const connections = useConnections();
  const navigate = useNavigate();
  const location = useLocation();
  const [adding, setAdding] = useState<Option | null>(null);
  // The switcher is in every workspace page's header, so it records the list on screen for switching back.
  useListMemory();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // The list's id is ours, so the search box names it from its first render: Mantine's own `aria-controls` is the id
  // the list stores after it renders, which the search box shows only once something renders it again (it stayed
  // unset for 10 s in a CI run of e2e/workspace-switch.spec.ts, the list on screen).
  const listId = useId();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [limit, setLimit] = useState(50);
  const canList = allows(connection.permissions, 'feeds:read-only');
  const list = useQuery({
    ...workspaceQueries.list(api, workspaceId, { offset: 0, limit, search: debounced.trim() || undefined }),
    enabled: canList && combobox.dropdownOpened,
  });

  const saved = new Set(connections.map((c) => c.workspaceId));
  const options: Option[] = canList
    ? (list.data?.items ?? []).map((w) => ({ id: w.id, name: w.name, hasKey: saved.has(w.id) }))
    : connections
        .filter((c) => c.organizationId === connection.organizationId)
        .filter((c) => c.workspaceName.toLowerCase().includes(debounced.trim().toLowerCase()))
        .map((c) => ({ id: c.workspaceId, name: c.workspaceName, hasKey: true }));

  const section = location.pathname.split('/')[3] ?? 'contacts';
  const choose = (id: string) => {
    combobox.closeDropdown();
    setSearch('');
    if (id === workspaceId) return;
    if (saved.has(id)) void navigate(listPath(id, section));
    else setAdding(options.find((option) => option.id === id) ?? { id, name: id, hasKey: false });
  };

  return (
    <>
      <Combobox store={combobox} onOptionSubmit={choose} width={360} position="bottom-start">
        <Combobox.Target>
          <Button variant="default" onClick={() => combobox.toggleDropdown()} aria-label={t('shell.switchWorkspace', { workspace: connection.workspaceName })}>
            {connection.workspaceName}
          </Button>
        </Combobox.Target>
        <Combobox.Dropdown>
          {/* The dropdown's texts (the `workspaces` catalog, issue 23) are fetched when it first opens: the header's first screens do not carry them. */}
          <WithArea
            area="workspaces"
            render={() => (
              <>
              <Combobox.Search
                role="combobox"
                aria-expanded={combobox.dropdownOpened}
                aria-autocomplete="list"
                aria-controls={listId}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                placeholder={t('workspaces.switcherSearch')}
                aria-label={t('workspaces.switcherSearch')}
              />
              <Combobox.Options id={listId} aria-label={t('shell.sectionWorkspaces')} mah={320} style={{ overflowY: 'auto' }}>
                {list.isFetching && !list.data ? (
                  <Combobox.Empty>
                    <Loader size="xs" aria-label={t('workspaces.switcherLoading')} />
                  </Combobox.Empty>
                ) : options.length === 0 ? (
                  <Combobox.Empty>{t('workspaces.switcherNoMatch')}</Combobox.Empty>
                ) : (
                  options.map((option) => (
                    <Combobox.Option value={option.id} key={option.id} active={option.id === workspaceId} aria-label={option.name}>
                      <Group justify="space-between" wrap="nowrap">
                        <Text size="sm" truncate>
                          {option.name}
                        </Text>
                        {option.id === workspaceId ? (
                          <Badge size="xs">{t('workspaces.switcherCurrent')}</Badge>
                        ) : option.hasKey ? (
                          <Badge size="xs" variant="light" color="green">
                            {t('workspaces.switcherKeySaved')}
                          </Badge>
                        ) : (
                          <Badge size="xs" variant="outline" color="gray">
                            {t('workspaces.addKey')}
                          </Badge>
                        )}
                      </Group>
                    </Combobox.Option>
                  ))
                )}
              </Combobox.Options>
              {canList && list.data && list.data.meta.maxResults > options.length ? (
                <Combobox.Footer>
                  <Button variant="subtle" size="xs" fullWidth onClick={() => setLimit((l) => Math.min(l + 50, 100))} disabled={limit >= 100}>
                    {limit >= 100 ? t('workspaces.switcherShowingMax', { shown: 100, total: list.data.meta.maxResults }) : t('workspaces.switcherShowMore', { total: list.data.meta.maxResults })}
                  </Button>
                </Combobox.Footer>
              ) : null}
              {!canList ? (
                <Combobox.Footer>
                  <Text size="xs" c="dimmed">
                    {t('workspaces.switcherLacksFeeds')}
                  </Text>
                </Combobox.Footer>
              ) : null}
              </>
            )}
          />
        </Combobox.Dropdown>
      </Combobox>
      {adding ? (
        <AddKeyDialog
          workspace={adding}
          baseUrl={connection.baseUrl}
          returnTo={`/w/${adding.id}/${section}`}
          onClose={() => setAdding(null)}
          onConnected={(saved) => {
            setAdding(null);
            void navigate(listPath(saved.workspaceId, section));
          }}
        />
      ) : null}
    </>
  );
}
