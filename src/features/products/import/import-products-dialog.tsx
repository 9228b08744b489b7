/**
 * The "Import CSV" dialog of the products page (issue 6), in four steps:
 * 1. choose a file (read with papaparse, loaded on demand); a sample CSV is linked;
 * 2. map columns to product fields (auto-matched by name; externalId required) with a preview of the first
 *    5 rows as they will be sent, and the decimal separator detected for each number column (issue 14 point 6);
 * 3. upsert row by row keyed by externalId, 4 at a time (`runPool`), with progress, a notice while the service
 *    asks to wait (429, Retry-After), and Cancel (rows already sent stay sent; the rest are reported not sent);
 * 4. a report of created, updated and failed rows with each failure's reason, downloadable as CSV.
 * Rows that fail the cell rules or the contract's schema are reported without a request (see product-csv.ts).
 */
import Papa from 'papaparse';
import { Alert, Anchor, Button, Group, Modal, NativeSelect, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/api';
import { runPool } from '@/lib/run-pool';
import { productQueries } from '../queries';
import {
  type ColumnMapping,
  IMPORT_FIELDS,
  type ImportFieldKey,
  KIND_HINTS,
  type ReportRow,
  type SentRow,
  autoMap,
  buildReport,
  convertRow,
  countOutcomes,
  describeStyle,
  detectNumberStyles,
  planImport,
  previewText,
  reportCsv,
} from './product-csv';
import { saveFile } from '@/lib/save-file';
import { type CsvTable, toTable } from '@/lib/csv-table';

const SAMPLE_URL = `${import.meta.env.BASE_URL}samples/products.csv`;
const PREVIEW_ROWS = 5;
const SHOWN_FAILURES = 100;

type Loaded = { fileName: string; table: CsvTable; warnings: string[] };
type RunProgress = { done: number; total: number; failed: number; waitSeconds: number | null };
type Report = { rows: ReportRow[]; cancelled: boolean };

/** Reads a CSV file into a table with papaparse (in this dialog's lazy chunk: no screen's first bundle carries it). */
async function readCsv(file: File): Promise<Loaded> {
  const parsed = Papa.parse<string[]>(await file.text(), { skipEmptyLines: false });
  const warnings = parsed.errors.slice(0, 3).map((error) => `Row ${(error.row ?? 0) + 1}: ${error.message}`);
  return { fileName: file.name, table: toTable(parsed.data), warnings };
}

export function ImportProductsDialog({ onClose }: { onClose: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const controller = useRef<AbortController | null>(null);
  const running = progress !== null && report === null;

  // Leaving the page mid-run stops sending further rows.
  useEffect(() => () => controller.current?.abort(), []);

  const choose = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    try {
      const next = await readCsv(file);
      if (!next.table.headers.some(Boolean)) throw new Error('The file has no header row.');
      if (!next.table.rows.length) throw new Error('The file has no rows under its header.');
      setLoaded(next);
      setMapping(autoMap(next.table.headers));
    } catch (error) {
      setFileError(`Could not read ${file.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const run = async (table: CsvTable) => {
    const plan = planImport(table, mapping, detectNumberStyles(table, mapping));
    const toSend = plan.flatMap((planned, index) => (planned.body ? [{ index, body: planned.body }] : []));
    const localFailures = plan.length - toSend.length;
    controller.current = new AbortController();
    setProgress({ done: localFailures, total: plan.length, failed: localFailures, waitSeconds: null });
    const result = await runPool(toSend, ({ body }) => api.upsertProduct(body), {
      concurrency: 4,
      signal: controller.current.signal,
      onProgress: ({ done, failed, waitingUntil }) =>
        setProgress({ done: localFailures + done, total: plan.length, failed: localFailures + failed, waitSeconds: waitingUntil ? Math.max(1, Math.ceil((waitingUntil - Date.now()) / 1000)) : null }),
    });
    const sent: SentRow[] = new Array(plan.length);
    toSend.forEach(({ index }, i) => {
      const answer = result.results[i];
      if (answer) sent[index] = { id: answer.id, created: answer.created };
    });
    for (const failure of result.failures) sent[failure.item.index] = { reason: failure.reason };
    setReport({ rows: buildReport(plan, sent), cancelled: result.aborted });
    await productQueries.refreshAfterJob(queryClient, workspaceId);
  };

  const restart = () => {
    setLoaded(null);
    setMapping({});
    setProgress(null);
    setReport(null);
  };

  const step = report ? 'report' : progress ? 'run' : loaded ? 'map' : 'file';
  return (
    <Modal
      opened
      onClose={() => (running ? undefined : onClose())}
      title="Import products from CSV"
      size="xl"
      closeOnEscape={!running}
      closeOnClickOutside={!running}
      withCloseButton={!running}
      closeButtonProps={{ 'aria-label': 'Close import' }}
    >
      {step === 'file' ? <FileStep error={fileError} onFile={(file) => void choose(file)} /> : null}
      {step === 'map' && loaded ? <MapStep loaded={loaded} mapping={mapping} onChange={setMapping} onBack={restart} onRun={() => void run(loaded.table)} /> : null}
      {step === 'run' && progress ? <RunStep progress={progress} onCancel={() => controller.current?.abort()} /> : null}
      {step === 'report' && report && loaded ? <ReportStep report={report} fileName={loaded.fileName} onAgain={restart} onClose={onClose} /> : null}
    </Modal>
  );
}

function FileStep({ error, onFile }: { error: string | null; onFile: (file: File | undefined) => void }) {
  const id = useId();
  return (
    <Stack>
      <Title order={3} size="h4">
        1. Choose a file
      </Title>
      <Text size="sm">
        One product per row, with a header row. Rows are matched by externalId: an existing externalId updates that product, a new one creates a
        product. Empty cells leave a field as it is.
      </Text>
      <Stack gap={4}>
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          CSV file
        </Text>
        <input id={id} type="file" accept=".csv,text/csv" onChange={(event) => onFile(event.currentTarget.files?.[0])} />
      </Stack>
      <Text size="sm">
        <Anchor href={SAMPLE_URL} download="products-sample.csv">
          Download a sample CSV
        </Anchor>{' '}
        with every column the import understands.
      </Text>
      {error ? (
        <Alert color="red" role="alert" title="Cannot import this file">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

function MapStep({ loaded, mapping, onChange, onBack, onRun }: { loaded: Loaded; mapping: ColumnMapping; onChange: (next: ColumnMapping) => void; onBack: () => void; onRun: () => void }) {
  const { table } = loaded;
  const options = useMemo(
    () => [{ value: '', label: '— not imported —' }, ...table.headers.map((header, index) => ({ value: String(index), label: header || `Column ${index + 1}` }))],
    [table.headers],
  );
  const mapped = IMPORT_FIELDS.filter((field) => mapping[field.key] !== undefined);
  const used = new Set(Object.values(mapping));
  const unused = table.headers.filter((header, index) => !used.has(index) && header);
  const styles = useMemo(() => detectNumberStyles(table, mapping), [table, mapping]);
  const numberColumns = IMPORT_FIELDS.filter((field) => styles[field.key]);
  const preview = table.rows.slice(0, PREVIEW_ROWS).map(({ row, cells }) => ({ row, cells, converted: convertRow(cells, mapping, styles) }));
  const set = (key: ImportFieldKey, value: string) => {
    const next = { ...mapping };
    if (value === '') delete next[key];
    else next[key] = Number(value);
    onChange(next);
  };
  const missingKey = mapping.externalId === undefined;
  const captionId = useId();

  return (
    <Stack>
      <Title order={3} size="h4">
        2. Map columns
      </Title>
      <Text size="sm">
        {loaded.fileName}: {table.rows.length.toLocaleString()} rows, {table.headers.length} columns.
        {unused.length ? ` Not imported: ${unused.join(', ')}.` : ''}
      </Text>
      {loaded.warnings.length ? (
        <Alert color="yellow" title="The file has formatting problems">
          {loaded.warnings.join(' · ')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {IMPORT_FIELDS.map((field) => (
          <NativeSelect
            key={field.key}
            label={field.key}
            description={field.hint ?? (KIND_HINTS[field.kind] || undefined)}
            required={field.required}
            error={field.required && missingKey ? 'Choose the column of each product’s externalId' : undefined}
            data={options}
            value={mapping[field.key] === undefined ? '' : String(mapping[field.key])}
            onChange={(event) => set(field.key, event.currentTarget.value)}
            size="xs"
          />
        ))}
      </SimpleGrid>
      <Text size="sm" fw={500} id={captionId}>
        Preview of the first {preview.length} rows as they will be sent
      </Text>
      <SimpleTable aria-labelledby={captionId} compact striped>
        <thead>
          <tr>
            <th scope="col">Row</th>
            {mapped.map((field) => (
              <th scope="col" key={field.key}>
                {field.key}
              </th>
            ))}
            <th scope="col">Check</th>
          </tr>
        </thead>
        <tbody>
          {preview.map(({ row, cells, converted }) => (
            <tr key={row}>
              <td>{row}</td>
              {mapped.map((field) => (
                <td key={field.key}>{converted.ok ? previewText(converted.body[field.key]) : (cells[mapping[field.key]!] ?? '').trim()}</td>
              ))}
              <td>{converted.ok ? 'ok' : converted.reason}</td>
            </tr>
          ))}
        </tbody>
      </SimpleTable>
      {numberColumns.length ? (
        <Stack gap={2} role="group" aria-label="Number formats">
          {numberColumns.map((field) => (
            <Text size="sm" key={field.key}>
              {field.key}: {describeStyle(styles[field.key]!)}
            </Text>
          ))}
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          Choose another file
        </Button>
        <Button onClick={onRun} disabled={missingKey}>
          Import {table.rows.length.toLocaleString()} rows
        </Button>
      </Group>
    </Stack>
  );
}

function RunStep({ progress, onCancel }: { progress: RunProgress; onCancel: () => void }) {
  const [cancelling, setCancelling] = useState(false);
  return (
    <Stack>
      <Title order={3} size="h4">
        3. Importing
      </Title>
      <Progress value={(progress.done / Math.max(1, progress.total)) * 100} aria-label="Import progress" />
      <Text size="sm" aria-live="polite">
        {progress.done.toLocaleString()} of {progress.total.toLocaleString()} rows done{progress.failed ? `, ${progress.failed.toLocaleString()} failed` : ''}
      </Text>
      {progress.waitSeconds !== null ? (
        <Alert color="yellow" role="status" title="Paused">
          Paused — the server asked to wait {progress.waitSeconds} s. The import goes on by itself.
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button
          variant="default"
          loading={cancelling}
          onClick={() => {
            setCancelling(true);
            onCancel();
          }}
        >
          Cancel import
        </Button>
      </Group>
    </Stack>
  );
}

function ReportStep({ report, fileName, onAgain, onClose }: { report: Report; fileName: string; onAgain: () => void; onClose: () => void }) {
  const counts = countOutcomes(report.rows);
  const failures = report.rows.filter((row) => row.outcome === 'failed');
  const captionId = useId();
  const download = () => {
    const name = `${fileName.replace(/\.csv$/i, '')}-import-report.csv`;
    // A BOM so spreadsheet programs read the report as UTF-8.
    saveFile(new Blob([`\uFEFF${reportCsv(report.rows)}`], { type: 'text/csv;charset=utf-8' }), name);
  };
  return (
    <Stack>
      <Title order={3} size="h4">
        4. Report
      </Title>
      <Text role="status" fw={500}>
        {counts.created.toLocaleString()} created, {counts.updated.toLocaleString()} updated, {counts.failed.toLocaleString()} failed
      </Text>
      {report.cancelled ? (
        <Alert color="yellow" title="Import cancelled">
          Rows after the cancel were not sent; they are listed as failed.
        </Alert>
      ) : null}
      {failures.length ? (
        <>
          <Text size="sm" fw={500} id={captionId}>
            Failed rows
          </Text>
          <SimpleTable aria-labelledby={captionId} compact striped>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">externalId</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {failures.slice(0, SHOWN_FAILURES).map((row) => (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td>{row.externalId}</td>
                  <td>{row.reason}</td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
          {failures.length > SHOWN_FAILURES ? (
            <Text size="sm" c="dimmed">
              And {(failures.length - SHOWN_FAILURES).toLocaleString()} more in the report.
            </Text>
          ) : null}
        </>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={download}>
          Download report (CSV)
        </Button>
        <Button variant="default" onClick={onAgain}>
          Import another file
        </Button>
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Stack>
  );
}
