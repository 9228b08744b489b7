/**
 * Export (issues 5 and 13): xlsx or csv of everything the current filter and sort match (not just the page),
 * showing progress while the server streams it, a cancel button, and saving under the server's file name.
 * Progress against `meta.maxResults`: rows and percent for CSV, bytes and an estimate for xlsx (export-progress.ts).
 * A service busy with other exports (503 with `Retry-After`, issue 12 point 10) is waited out and asked again by
 * itself, with a countdown in the same dialog, which Cancel stops (issue 16; export-retry.ts); our service's
 * queue keeps the export's place through its ticket, and the dialog shows the position (issue 21 point 2).
 *
 * Issue 23 point 10: with rows selected the export holds exactly those rows (by id), and it offers the visible
 * columns or all fields. The requests are planned in export-plan.ts (the selection as `id in (…)` filters within
 * the filter limits, or the list fetched whole once when that is fewer requests); when the file is more than the
 * service's answer as it is (several parts, rows or columns dropped) it is read, joined and written again in the
 * browser (export-rewrite.ts, loaded only then).
 *
 * Texts: the `contacts-export` catalog, loaded with this component (contacts-page.tsx).
 */
import { Button, Group, Menu, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { isAbortError } from '@/api/api-error';
import { csvRecordCounter } from '@/api/csv-records';
import type { DownloadFormat, DownloadResult } from '@/api/download';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';
import { notifyError } from '@/components/notify-error';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { saveFile } from '@/lib/save-file';
import { exportColumns, missingFilters, planExport } from './export-plan';
import { exportProgress, type ExportJob } from './export-progress';
import { busyText, withBusyRetries } from './export-retry';
import { useT } from '@/i18n/react';
import { currentLocale } from '@/i18n/i18n';

type Props = {
  filter: FilterNode | undefined;
  orderBy: OrderByItem[] | undefined;
  total: number | undefined;
  /** The selected rows' ids; none: export every matching contact. */
  selectedIds?: readonly string[];
  /** The table's column ids, and those hidden (for "Visible columns"). */
  tableColumns?: readonly string[];
  hiddenColumns?: readonly string[];
};

const NONE: readonly string[] = [];

export function ExportButton({ filter, orderBy, total, selectedIds = NONE, tableColumns = NONE, hiddenColumns = NONE }: Props) {
  const { api } = useWorkspaceApi();
  const t = useT();
  const [job, setJob] = useState<(ExportJob & { part: number; parts: number; expected: number }) | null>(null);
  const controller = useRef<AbortController | null>(null);
  const [rowsChoice, setRowsChoice] = useState<'selected' | 'matching'>('selected');
  const [columnsChoice, setColumnsChoice] = useState<'visible' | 'all'>('all');
  const selecting = selectedIds.length > 0;
  const exportSelection = selecting && rowsChoice === 'selected';

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
    const ids = exportSelection ? [...selectedIds] : [];
    const expected = exportSelection ? ids.length : (total ?? 0);
    const plan = planExport({ selectedIds: ids, filter, total, columns: exportColumns(columnsChoice, hiddenColumns, tableColumns) });
    try {
      /** One part: the download with busy retries, its progress shown as part `part` of `parts`. */
      const fetchPart = (partFilter: FilterNode | undefined, part: number, parts: number, rows: number) =>
        withBusyRetries((ticket) => download(format, partFilter, signal, ticket, { part, parts, expected: rows }), signal, (wait) => {
          setNow(Date.now());
          setRetryAt(wait === null ? null : Date.now() + wait.seconds * 1000);
          if (wait) setPosition(wait.position);
        });
      let file: { blob: Blob; filename: string; rows: number | null };
      if (!plan.rewrite) {
        const only = await fetchPart(plan.filters[0], 1, 1, expected);
        file = only;
      } else {
        const results: DownloadResult[] = [];
        const partRows = plan.keepIds ? (total ?? expected) : Math.min(expected, 49);
        for (const [index, partFilter] of plan.filters.entries()) results.push(await fetchPart(partFilter, index + 1, plan.filters.length, partRows));
        const { readTable, combineTables, writeTable } = await import('./export-rewrite');
        const tables = [];
        for (const result of results) tables.push(await readTable(result.blob, format));
        let { rows, ids: seen } = combineTables(tables, { keepIds: plan.keepIds, columns: plan.columns });
        if (plan.keepIds) {
          // Selected rows the list did not hold (selected under another filter): asked for by id.
          const missing = missingFilters(ids, seen);
          for (const [index, partFilter] of missing.entries()) {
            const result = await fetchPart(partFilter, index + 2, missing.length + 1, 49);
            tables.push(await readTable(result.blob, format));
          }
          if (missing.length) ({ rows, ids: seen } = combineTables(tables, { keepIds: plan.keepIds, columns: plan.columns }));
        }
        signal.throwIfAborted();
        file = { blob: await writeTable(rows, format), filename: results[0]!.filename, rows: rows.length - 1 };
      }
      saveFile(file.blob, file.filename);
      notifications.show({ color: 'green', message: t('contacts-export.exported', { count: file.rows ?? expected, filename: file.filename }) });
    } catch (error) {
      if (isAbortError(error)) notifications.show({ message: t('contacts-export.cancelled') });
      else notifyError(t('contacts-export.failed'), error);
    } finally {
      setRetryAt(null);
      setPosition(null);
      setJob(null);
    }
  };

  /**
   * One try of the download of `partFilter`, its progress shown; the data rows counted for CSV (null for xlsx).
   * `exportTicket`: the queue ticket of the last busy answer, sent back to keep the export's place.
   */
  const download = async (format: DownloadFormat, partFilter: FilterNode | undefined, signal: AbortSignal, exportTicket: string | undefined, part: { part: number; parts: number; expected: number }) => {
    const startedAt = Date.now();
    setJob({ format, bytes: 0, rows: format === 'csv' ? 0 : null, startedAt, ...part });
    const counter = format === 'csv' ? csvRecordCounter() : null;
    const dataRows = (records: number) => Math.max(0, records - 1);
    const result = await api.downloadContacts({
      format,
      filter: partFilter,
      orderBy,
      signal,
      exportTicket,
      // The spreadsheet for people in the console's language (issue 34 point 10); the CSV keeps the contract's columns.
      language: currentLocale(),
      onProgress: ({ receivedBytes, chunk }) => {
        counter?.push(chunk);
        setJob({ format, bytes: receivedBytes, rows: counter ? dataRows(counter.records) : null, startedAt, ...part });
      },
    });
    return { ...result, rows: counter ? dataRows(counter.finish()) : null };
  };

  const shown = job ? exportProgress(job, job.expected, Date.now()) : null;
  const partText = job && job.parts > 1 ? t('contacts-export.part', { part: job.part, parts: job.parts }) : '';
  const status = retryAt !== null ? busyText((retryAt - now) / 1000, position) : shown ? partText + shown.text : undefined;
  const count = exportSelection ? selectedIds.length : (total ?? 0);
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="default" disabled={!total && !selecting}>
            {t('contacts.export')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {selecting ? (
            <>
              <Menu.Label>{t('contacts-export.rows')}</Menu.Label>
              <Menu.RadioGroup value={rowsChoice} onChange={(value) => setRowsChoice(value as 'selected' | 'matching')}>
                <Menu.RadioItem value="selected">{t('contacts-export.selected', { count: selectedIds.length })}</Menu.RadioItem>
                <Menu.RadioItem value="matching">{t('contacts-export.matching', { count: total ?? 0 })}</Menu.RadioItem>
              </Menu.RadioGroup>
            </>
          ) : (
            <Menu.Label>{t('contacts-export.matchingLabel', { count: total ?? 0 })}</Menu.Label>
          )}
          <Menu.Label>{t('contacts-export.columns')}</Menu.Label>
          <Menu.RadioGroup value={columnsChoice} onChange={(value) => setColumnsChoice(value as 'visible' | 'all')}>
            <Menu.RadioItem value="visible">{t('contacts-export.visible')}</Menu.RadioItem>
            <Menu.RadioItem value="all">{t('contacts-export.allFields')}</Menu.RadioItem>
          </Menu.RadioGroup>
          <Menu.Divider />
          <Menu.Label>{t('contacts-export.format')}</Menu.Label>
          <Menu.Item onClick={() => void start('xlsx')}>{t('contacts-export.formatXlsx')}</Menu.Item>
          <Menu.Item onClick={() => void start('csv')}>{t('contacts-export.formatCsv')}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={job !== null} onClose={() => controller.current?.abort()} title={t('contacts-export.title', { count })} closeButtonProps={{ 'aria-label': t('contacts-export.closeLabel') }}>
        <Stack>
          <Progress value={shown?.percent ?? 0} striped={shown?.estimated} animated={shown?.estimated} aria-label={t('contacts-export.progressLabel')} />
          <Text size="sm" aria-live="polite">
            {status}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => controller.current?.abort()}>
              {t('contacts-export.cancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
