/**
 * Export (issues 5 and 13): xlsx or csv of everything the current filter and sort match (not just the page),
 * showing progress while the server streams it, a cancel button, and saving under the server's file name.
 * Progress against `meta.maxResults`: rows and percent for CSV, bytes and an estimate for xlsx (export-progress.ts).
 * A service busy with other exports (503 with `Retry-After`, issue 12 point 10) is waited out and asked again by
 * itself, with a countdown in the same dialog, which Cancel stops (issue 16; export-retry.ts); our service's
 * queue keeps the export's place through its ticket, and the dialog shows the position (issue 21 point 2).
 */
import { Button, Group, Menu, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { isAbortError } from '@/api/api-error';
import { csvRecordCounter } from '@/api/csv-records';
import type { DownloadFormat } from '@/api/download';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';
import { notifyError } from '@/components/notify-error';
import { useWorkspaceApi } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { exportProgress, type ExportJob } from './export-progress';
import { busyText, withBusyRetries } from './export-retry';

type Props = { filter: FilterNode | undefined; orderBy: OrderByItem[] | undefined; total: number | undefined };

export function ExportButton({ filter, orderBy, total }: Props) {
  const { api } = useWorkspaceApi();
  const [job, setJob] = useState<ExportJob | null>(null);
  const controller = useRef<AbortController | null>(null);

  // While the service is busy: when the next try starts (ms since the epoch), and a clock for the countdown.
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [position, setPosition] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [retryAt]);

  const start = async (format: DownloadFormat) => {
    const signal = (controller.current = new AbortController()).signal;
    try {
      const { blob, filename, rows } = await withBusyRetries((ticket) => download(format, signal, ticket), signal, (wait) => {
        setNow(Date.now());
        setRetryAt(wait === null ? null : Date.now() + wait.seconds * 1000);
        if (wait) setPosition(wait.position);
      });
      saveFile(blob, filename);
      notifications.show({ color: 'green', message: `Exported ${(rows ?? total)?.toLocaleString() ?? ''} contacts to ${filename}.` });
    } catch (error) {
      if (isAbortError(error)) notifications.show({ message: 'Export cancelled.' });
      else notifyError('Export failed', error);
    } finally {
      setRetryAt(null);
      setPosition(null);
      setJob(null);
    }
  };

  /**
   * One try of the download, its progress shown; the data rows counted for CSV (null for xlsx). `exportTicket`:
   * the queue ticket of the last busy answer, sent back to keep the export's place.
   */
  const download = async (format: DownloadFormat, signal: AbortSignal, exportTicket: string | undefined) => {
    const startedAt = Date.now();
    setJob({ format, bytes: 0, rows: format === 'csv' ? 0 : null, startedAt });
    const counter = format === 'csv' ? csvRecordCounter() : null;
    const dataRows = (records: number) => Math.max(0, records - 1);
    const result = await api.downloadContacts({
      format,
      filter,
      orderBy,
      signal,
      exportTicket,
      onProgress: ({ receivedBytes, chunk }) => {
        counter?.push(chunk);
        setJob({ format, bytes: receivedBytes, rows: counter ? dataRows(counter.records) : null, startedAt });
      },
    });
    return { ...result, rows: counter ? dataRows(counter.finish()) : null };
  };

  const shown = job ? exportProgress(job, total ?? 0, Date.now()) : null;
  const status = retryAt !== null ? busyText((retryAt - now) / 1000, position) : shown?.text;
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
            {status}
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
