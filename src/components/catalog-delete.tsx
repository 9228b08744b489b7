/**
 * Delete for products and collections (issue 22 point 9; `DELETE /products/{id}`, `/collections/{id}`, our extension
 * `catalog-delete`, docs/decisions.md section 10): a record's Delete button and the bar over a selection, both behind a
 * confirmation (DeleteDialog). Offered only where the service has `catalog-delete` (src/lib/extensions.ts); in a
 * record's drawer a service without it gets one line saying so. Texts (issue 23): the `forms` catalog area, waited
 * for here (`useArea`: callers render these under a `Suspense` boundary), each worded by `kind` (an ICU `select`,
 * since bokmål declines the noun: «Slett produktet», «Slett 3 kolleksjoner»). After a delete both start the refetch
 * of the workspace's queries (`['ws', workspaceId]`: lists, counts, the overview), then call their `onDeleted`.
 */
import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useArea, useT } from '@/i18n/react';
import { useExtensions } from '@/lib/extensions';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { DeleteDialog } from './delete-dialog';
import { showSaved } from './upsert-drawer';

/** What is deleted; the texts say what happens to its links (a product leaves its collections, a collection its products). */
export type CatalogKind = 'product' | 'collection';

type Common = {
  kind: CatalogKind;
  remove: (id: string) => Promise<void>;
  /** Called with the ids deleted (after a refusal part-way, those before it), once the workspace's refetch has started. */
  onDeleted: (ids: string[]) => void;
};

/** What a confirmed delete does after the dialog: says how many went, starts the workspace's refetch, then `onDeleted`. */
function useDeleted(kind: CatalogKind, onDeleted: (ids: string[]) => void): (ids: string[]) => void {
  const t = useT();
  const queryClient = useQueryClient();
  const { workspaceId } = useWorkspaceApi();
  return (ids) => {
    showSaved(t('forms.deleted', { kind, count: ids.length }));
    void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId] });
    onDeleted(ids);
  };
}

/** A record's "Delete …" with its confirmation (naming `record` by its title, else its id); the one-line note where the service cannot delete. */
export function DeleteRecordButton({ record, canWrite, kind, remove, onDeleted }: Common & { record: { id: string; title?: string | null }; canWrite: boolean }) {
  useArea('forms');
  const t = useT();
  const extensions = useExtensions();
  const deleted = useDeleted(kind, onDeleted);
  const [confirming, setConfirming] = useState(false);
  if (!extensions.known) return null;
  if (!extensions.has('catalog-delete')) {
    return (
      <Text size="xs" c="dimmed">
        {t('forms.deleteNotAllowed', { kind })}
      </Text>
    );
  }
  if (!canWrite) return null;
  return (
    <>
      <Button size="xs" variant="light" color="red" w="fit-content" onClick={() => setConfirming(true)}>
        {t('forms.deleteOne', { kind })}
      </Button>
      {confirming ? (
        <DeleteDialog
          title={t('forms.deleteTitleNamed', { name: record.title ?? record.id })}
          text={t('forms.deleteText', { kind, count: 1 })}
          confirmLabel={t('forms.deleteConfirm', { kind, count: 1 })}
          ids={[record.id]}
          remove={remove}
          onCancel={() => setConfirming(false)}
          onDone={(ids) => {
            setConfirming(false);
            deleted(ids);
          }}
        />
      ) : null}
    </>
  );
}

/** The bar over a selection: the count, "Delete N …" with its confirmation, and Clear selection. */
export function DeleteSelectionBar({ ids, kind, remove, onDeleted, onClear }: Common & { ids: string[]; onClear: () => void }) {
  useArea('forms');
  const t = useT();
  const deleted = useDeleted(kind, onDeleted);
  const [confirming, setConfirming] = useState(false);
  return (
    <Group gap="xs" role="region" aria-label={t('forms.selectionRegion')}>
      <Text size="sm">{t('forms.selected', { count: ids.length })}</Text>
      <Button size="xs" variant="light" color="red" onClick={() => setConfirming(true)}>
        {t('forms.deleteSelected', { kind, count: ids.length })}
      </Button>
      <Button size="xs" variant="subtle" onClick={onClear}>
        {t('forms.clearSelection')}
      </Button>
      {confirming ? (
        <DeleteDialog
          title={t('forms.deleteTitle', { kind, count: ids.length })}
          text={t('forms.deleteText', { kind, count: ids.length })}
          confirmLabel={t('forms.deleteConfirm', { kind, count: ids.length })}
          ids={ids}
          remove={remove}
          onCancel={() => setConfirming(false)}
          onDone={(ids) => {
            setConfirming(false);
            deleted(ids);
          }}
        />
      ) : null}
    </Group>
  );
}
