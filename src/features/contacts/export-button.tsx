/**
 * Export (issue 5): xlsx or csv of everything the current filter and sort match (not just the page), showing the
 * row count, the bytes received while the server streams it, a cancel button, and saving under the server's
 * file name.
 */
import { Button, Group, Menu, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { isAbortError, isApiError } from '@/api/api-error';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';
import { useWorkspaceApi } from '@/lib/api';
import { saveFile } from '@/lib/save-file';

type Props = { filter: FilterNode | undefined; orderBy: OrderByItem[] | undefined; total: number | undefined };

export function ExportButton({ filter, orderBy, total }: Props) {
  const { api } = useWorkspaceApi();
  const [job, setJob] = useState<{ format: 'csv' | 'xlsx'; received: number } | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async (format: 'csv' | 'xlsx') => {
    controller.current = new AbortController();
    setJob({ format, received: 0 });
    try {
      const { blob, filename } = await api.downloadContacts({
        format,
        filter,
        orderBy,
        signal: controller.current.signal,
        onProgress: ({ receivedBytes }) => setJob({ format, received: receivedBytes }),
      });
      saveFile(blob, filename);
      notifications.show({ color: 'green', message: `Exported ${total?.toLocaleString() ?? ''} contacts to ${filename}.` });
    } catch (error) {
      if (isAbortError(error)) notifications.show({ message: 'Export cancelled.' });
      else notifications.show({ color: 'red', title: 'Export failed', message: isApiError(error) ? `${error.status}: ${error.message}` : String(error) });
    } finally {
      setJob(null);
    }
  };

  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="default" disabled={!total}>
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{total?.toLocaleString() ?? 0} matching contacts</Menu.Label>
          <Menu.Item onClick={() => void start('xlsx')}>Excel (.xlsx)</Menu.Item>
          <Menu.Item onClick={() => void start('csv')}>CSV (.csv)</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={job !== null} onClose={() => controller.current?.abort()} title={`Exporting ${total?.toLocaleString() ?? ''} contacts`} closeButtonProps={{ 'aria-label': 'Cancel export' }}>
        <Stack>
          <Progress value={100} animated striped aria-label="Export in progress" />
          <Text size="sm" aria-live="polite">
            {job ? `${(job.received / 1024).toFixed(0)} KB received (${job.format})` : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
