/**
 * An inline confirmation under a job's entry (the jobs page's Undo of a tag job, a job's Undo in one request): a
 * yellow `alertdialog` named `label` with `message`, a button `confirmLabel` that calls `onConfirm` (loading while
 * `busy`) and Cancel, which calls `onCancel`. Texts: the caller's, and the `jobs` catalog's Cancel.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useT } from '@/i18n/react';

export function InlineConfirm({ label, message, confirmLabel, busy, onConfirm, onCancel }: { label: string; message: string; confirmLabel: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const t = useT();
  return (
    <Alert color="yellow" p="xs" role="alertdialog" aria-label={label}>
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Group gap="xs">
          <Button size="xs" color="yellow" autoContrast loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          <Button size="xs" variant="default" onClick={onCancel}>
            {t('jobs.cancel')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
