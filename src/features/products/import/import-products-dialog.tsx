/**
 * The "Import CSV" dialog of the products page (issues 6 and 20), in two steps:
 * 1. choose a file (read with papaparse, loaded on demand); a sample CSV is linked;
 * 2. map columns to product fields (auto-matched by name; externalId required) with a preview of the first
 *    5 rows as they will be sent, and the decimal separator detected for each number column (issue 14 point 6).
 * "Import" hands the rows to the durable job runner (src/lib/jobs/, loaded only then) as one upsert per row keyed
 * by externalId, and closes: the import goes on in the background (its progress in the header; pause, cancel and
 * its report, created, updated, refused and failed rows each downloadable as CSV, on the Jobs page), and a reload
 * or a closed tab resumes it (issue 20 point 6). Rows that fail the cell rules or the contract's schema are
 * refused without a request and listed in the job's report with their reason (see product-csv.ts).
 */
import Papa from 'papaparse';
import { Alert, Anchor, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useMemo, useState } from 'react';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/api';
import type { JobStep, RefusedRow } from '@/lib/jobs/job-types';
import { importMessages as im } from './messages';
import {
  type ColumnMapping,
  IMPORT_FIELDS,
  type ImportFieldKey,
  KIND_HINTS,
  autoMap,
  convertRow,
  describeStyle,
  detectNumberStyles,
  planImport,
  previewText,
} from './product-csv';
import { type CsvTable, toTable } from '@/lib/csv-table';

const SAMPLE_URL = `${import.meta.env.BASE_URL}samples/products.csv`;
const PREVIEW_ROWS = 5;

type Loaded = { fileName: string; table: CsvTable; warnings: string[] };

/** Reads a CSV file into a table with papaparse (in this dialog's lazy chunk: no screen's first bundle carries it). */
async function readCsv(file: File): Promise<Loaded> {
  const parsed = Papa.parse<string[]>(await file.text(), { skipEmptyLines: false });
  const warnings = parsed.errors.slice(0, 3).map((error) => `Row ${(error.row ?? 0) + 1}: ${error.message}`);
  return { fileName: file.name, table: toTable(parsed.data), warnings };
}

/**
 * The job of an import (kind `products-import`): one `upsert-product` step per row that converts, the others
 * refused with their cells (by header) and reason.
 */
function importSpec(loaded: Loaded, mapping: ColumnMapping) {
  const { table } = loaded;
  const plan = planImport(table, mapping, detectNumberStyles(table, mapping));
  const cells = new Map(table.rows.map(({ row, cells: values }) => [row, values]));
  const steps: JobStep[] = [];
  const refused: RefusedRow[] = [];
  for (const planned of plan) {
    if (planned.body) steps.push({ kind: 'upsert-product', body: planned.body, rows: [planned.row], label: planned.externalId ?? '' });
    else {
      const values = Object.fromEntries(table.headers.map((header, index) => [header || `Column ${index + 1}`, cells.get(planned.row)?.[index] ?? '']));
      refused.push({ row: planned.row, values, reason: planned.reason });
    }
  }
  return { kind: 'products-import' as const, title: im.jobTitle(loaded.fileName), steps, report: { refused }, meta: { fileName: loaded.fileName } };
}

export function ImportProductsDialog({ onClose }: { onClose: () => void }) {
  const { connection } = useWorkspaceApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

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

  const run = async (current: Loaded) => {
    setStarting(true);
    setStartError(null);
    const spec = importSpec(current, mapping);
    try {
      const { enqueueJob } = await import('@/lib/jobs/job-runner');
      await enqueueJob(connection, spec);
    } catch {
      setStarting(false);
      setStartError(im.couldNotStart);
      return;
    }
    notifications.show({ color: 'blue', message: im.started(current.fileName, spec.steps.length, spec.report.refused.length) });
    onClose();
  };

  const restart = () => {
    setLoaded(null);
    setMapping({});
  };

  return (
    <Modal opened onClose={onClose} title="Import products from CSV" size="xl" closeButtonProps={{ 'aria-label': 'Close import' }}>
      {loaded ? (
        <MapStep loaded={loaded} mapping={mapping} onChange={setMapping} onBack={restart} onRun={() => void run(loaded)} starting={starting} error={startError} />
      ) : (
        <FileStep error={fileError} onFile={(file) => void choose(file)} />
      )}
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

function MapStep({
  loaded,
  mapping,
  onChange,
  onBack,
  onRun,
  starting,
  error,
}: {
  loaded: Loaded;
  mapping: ColumnMapping;
  onChange: (next: ColumnMapping) => void;
  onBack: () => void;
  onRun: () => void;
  starting: boolean;
  error: string | null;
}) {
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
            label={im.fieldLabels[field.key] ?? field.key}
            description={im.fieldHint(field.hint ?? (KIND_HINTS[field.kind] || undefined), field.key)}
            required={field.required}
            error={field.required && missingKey ? im.missingKey : undefined}
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
                {im.fieldLabels[field.key] ?? field.key}
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
              {im.fieldLabels[field.key] ?? field.key}: {describeStyle(styles[field.key]!)}
            </Text>
          ))}
        </Stack>
      ) : null}
      <Text size="sm" c="dimmed">
        {im.howItRuns}
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          Choose another file
        </Button>
        <Button onClick={onRun} disabled={missingKey} loading={starting}>
          Import {table.rows.length.toLocaleString()} rows
        </Button>
      </Group>
    </Stack>
  );
}
