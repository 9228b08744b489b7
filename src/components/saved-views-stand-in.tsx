/**
 * What a list page shows for its saved views row (saved-views-row.tsx) before the page's first interaction when the list
 * has no saved view and this device saw no shared view there (issue 16's first-screen budgets, docs/bundle.md): the same "Views" label and "Save view" button,
 * so the row's code (about 2.5 KB of gzip) loads with `AfterInteraction`, which replays a click on the stand-in's
 * button on the real one. With views to show, or a view's link (`hide=`) to apply, the page loads the row at once.
 */
import { Button, Group, Text } from '@mantine/core';
import { useT } from '@/i18n/react';
import { HIDE_PARAM, getViews, sharedViewsSeen } from '@/lib/saved-view-store';

/**
 * True when the row has something to show or do before any interaction: saved views of `list`, shared views this
 * device saw there last time (issue 36 point 8), or `hide=` in `params`.
 */
export function savedViewsNeeded(workspaceId: string, list: string, params: URLSearchParams): boolean {
  return params.has(HIDE_PARAM) || getViews(workspaceId, list).length > 0 || sharedViewsSeen(workspaceId, list);
}

/** The row as it looks without views: the label and the "Save view" button (same texts as saved-views-row.tsx). */
export function SavedViewsStandIn() {
  const t = useT();
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('lists.savedViews')}>
      <Text size="sm" c="dimmed" component="span">
        {t('lists.views')}
      </Text>
      <Button size="xs" variant="subtle">
        {t('lists.saveView')}
      </Button>
    </Group>
  );
}
