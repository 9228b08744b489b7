/**
 * Delete for products and collections (issue 22 point 9; `DELETE /products/{id}`, `/collections/{id}`, our extension
 * `catalog-delete`, decisions.md section 10): a record's Delete button and the bar over a selection, both behind a
 * confirmation (DeleteDialog). Offered only where the service has `catalog-delete` (src/lib/extensions.ts); in a
 * record's drawer a service without it gets one line saying so. Texts: ./messages.ts, worded with the caller's noun.
 */
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useExtensions } from '@/lib/extensions';
import { DeleteDialog } from './delete-dialog';
import { componentMessages as t } from './messages';
import { showSaved } from './upsert-drawer';

type Common = {
  /** `product`, `collection`. */
  noun: string;
  /** What happens to the links: `removed from its collections`. */
  links: string;
  remove: (id: string) => Promise<void>;
  /** Called with the ids deleted (after a refusal part-way, those before it). */
  onDeleted: (ids: string[]) => void;
};

/** A record's "Delete …" with its confirmation; the one-line note where the service cannot delete. */
export function DeleteRecordButton({ id, name, canWrite, noun, links, remove, onDeleted }: Common & { id: string; name: string; canWrite: boolean }) {
  const extensions = useExtensions();
  const [confirming, setConfirming] = useState(false);
  if (!extensions.known) return null;
  if (!extensions.has('catalog-delete')) {
    return (
      <Text size="xs" c="dimmed">
        {t.deleteNotAllowed(noun)}
      </Text>
    );
  }
  if (!canWrite) return null;
  return (
    <>
      <Button size="xs" variant="light" color="red" w="fit-content" onClick={() => setConfirming(true)}>
        {t.deleteOne(noun)}
      </Button>
      {confirming ? (
        <DeleteDialog
          title={t.deleteTitle(1, noun, name)}
          text={t.deleteText(1, noun, links)}
          confirmLabel={t.deleteConfirm(1, noun)}
          ids={[id]}
          remove={remove}
          onCancel={() => setConfirming(false)}
          onDone={(ids) => {
            setConfirming(false);
            showSaved(t.deleted(ids.length, noun));
            onDeleted(ids);
          }}
        />
      ) : null}
    </>
  );
}

/** The bar over a selection: the count, "Delete N …" with its confirmation, and Clear selection. */
export function DeleteSelectionBar({ ids, noun, links, remove, onDeleted, onClear }: Common & { ids: string[]; onClear: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <Group gap="xs" role="region" aria-label={t.selectionRegion}>
      <Text size="sm">{t.selected(ids.length)}</Text>
      <Button size="xs" variant="light" color="red" onClick={() => setConfirming(true)}>
        {t.deleteSelected(ids.length, noun)}
      </Button>
      <Button size="xs" variant="subtle" onClick={onClear}>
        {t.clearSelection}
      </Button>
      {confirming ? (
        <DeleteDialog
          title={t.deleteTitle(ids.length, noun)}
          text={t.deleteText(ids.length, noun, links)}
          confirmLabel={t.deleteConfirm(ids.length, noun)}
          ids={ids}
          remove={remove}
          onCancel={() => setConfirming(false)}
          onDone={(deleted) => {
            setConfirming(false);
            showSaved(t.deleted(deleted.length, noun));
            onDeleted(deleted);
          }}
        />
      ) : null}
    </Group>
  );
}
