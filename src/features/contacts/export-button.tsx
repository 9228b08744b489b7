/**
 * Export (issues 5 and 13): xlsx or csv of everything the current filter and sort match (not just the page),
 * showing progress while the server streams it, a cancel button, and saving under the server's file name.
 * Progress against `meta.maxResults`: rows and percent for CSV, bytes and an estimate for xlsx (export-progress.ts).
 */
import { Button, Group, Menu, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { isAbortError } from '@/api/api-error';
import { csvRecordCounter } from '@/api/csv-records';
import type { DownloadFormat } from '@/api/download';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';
import { notifyError } from '@/components/notify-error';
import { useWorkspaceApi } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { exportProgress, type ExportJob } from './export-progress';

type Props = { filter: FilterNode | undefined; orderBy: OrderByItem[] | undefined; total: number | undefined };

export function ExportButton({ filter, orderBy, total }: Props) {
  const { api } = useWorkspaceApi();
  const [job, setJob] = useState<ExportJob | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async (format: DownloadFormat) => {
    controller.current = new AbortController();
    const startedAt = Date.now();
    setJob({ format, bytes: 0, rows: format === 'csv' ? 0 : null, startedAt });
    try {
      const counter = format === 'csv' ? csvRecordCounter() : null;
      const dataRows = (records: number) => Math.max(0, records - 1);
      const { blob, filename } = await api.downloadContacts({
        format,
        filter,
        orderBy,
        signal: controller.current.signal,
        onProgress: ({ receivedBytes, chunk }) => {
          counter?.push(chunk);
          setJob({ format, bytes: receivedBytes, rows: counter ? dataRows(counter.records) : null, startedAt });
        },
      });
      saveFile(blob, filename);
      const rows = counter ? dataRows(counter.finish()) : total;
      notifications.show({ color: 'green', message: `Exported ${rows?.toLocaleString() ?? ''} contacts to ${filename}.` });
    } catch (error) {
      if (isAbortError(error)) notifications.show({ message: 'Export cancelled.' });
      else notifyError('Export failed', error);
    } finally {
      setJob(null);
    }
  };

  const shown = job ? exportProgress(job, total ?? 0, Date.now()) : null;
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
          <Progress value={shown?.percent ?? 0} striped={shown?.estimated} animated={shown?.estimated} aria-label="Export progress" />
          <Text size="sm" aria-live="polite">
            {shown?.text}
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
