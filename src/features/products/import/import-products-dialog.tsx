/**
 * The "Import CSV" dialog of the products page (issues 6 and 20), in two steps:
 * 1. choose a file: a CSV (any delimiter, UTF-8 or Windows-1252) or an xlsx workbook's first sheet, streamed in a
 *    Web Worker by the imports' shared reader (src/lib/import/read-file.ts, issue 38 point 4; docs/import.md
 *    section 1), which hands back every row (a catalogue is small); a sample CSV is linked;
 * 2. map columns to product fields (auto-matched by name; externalId required) with a preview of the first
 *    5 rows as they will be sent, and the decimal separator detected for each number column (issue 14 point 6).
 * "Import" hands the rows to the durable job runner (src/lib/jobs/, loaded only then) as one upsert per row keyed
 * by externalId, and closes: the import goes on in the background (its progress in the header; pause, cancel and
 * its report, created, updated, refused and failed rows each downloadable as CSV, on the Jobs page), and a reload
 * or a closed tab resumes it (issue 20 point 6). Rows that fail the cell rules or the contract's schema are
 * refused without a request and listed in the job's report with their reason (see product-csv.ts).
 *
 * Texts (issue 23): the `catalog-import` catalog area, loaded with this lazy chunk (import-products-button.tsx);
 * numbers through Intl in the language shown (ICU plurals).
 */
import { Alert, Anchor, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useMemo, useState } from 'react';
import { SimpleTable } from '@/components/simple-table';
import { currentLocale, t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import type { RefusedRow } from '@/lib/jobs/job-types';
import type { ProductJobKind } from './product-jobs';
import type { UpsertProductStep } from './product-steps';
import {
  type ColumnMapping,
  IMPORT_FIELDS,
  type ImportFieldKey,
  autoMap,
  convertRow,
  describeStyle,
  detectNumberStyles,
  fieldLabel,
  kindHint,
  planImport,
  previewText,
} from './product-csv';
import type { CsvTable } from '@/lib/csv-table';
import type { ParseProblem } from '@/lib/import/file-rows';
import { READABLE_FILES, type ReadTexts, readImportFile } from '@/lib/import/read-file';

const SAMPLE_URL = `${import.meta.env.BASE_URL}samples/products.csv`;
const PREVIEW_ROWS = 5;

type Loaded = { fileName: string; table: CsvTable; warnings: string[] };

/** The shared reader's sentences, from this dialog's `catalog-import` catalog. */
const readTexts: ReadTexts = {
  stopped: () => t('catalog-import.readerStopped'),
  failure: (format, detail) => t(format === 'xlsx' ? 'catalog-import.notWorkbook' : 'catalog-import.fileUnreadable', { detail }),
  problem: ({ code, row }: ParseProblem) => t('catalog-import.parseProblem', { code, row: row ?? 0, hasRow: row === null ? 'no' : 'yes' }),
};

/**
 * Reads a CSV or xlsx file into a table in the shared reader's worker (every row: `preview: Infinity`), rows as
 * src/lib/csv-table.ts `toTable` makes them (header row first, blank rows skipped, the file's row numbers). A file
 * not named `.xlsx` is read as CSV, whatever its name, as this dialog always read it. Rejects with the reader's
 * failure in words (`readTexts`).
 */
async function readProducts(file: File): Promise<Loaded> {
  const read = await readImportFile(file, { preview: Number.POSITIVE_INFINITY, texts: readTexts });
  return { fileName: file.name, table: { headers: read.headers, rows: read.preview }, warnings: read.warnings };
}

/**
 * The job of an import (kind `products-import`): one `upsert-product` step per row that converts, the others
 * refused with their cells (by header) and reason.
 */
function importSpec(loaded: Loaded, mapping: ColumnMapping) {
  const { table } = loaded;
  const plan = planImport(table, mapping, detectNumberStyles(table, mapping));
  const cells = new Map(table.rows.map(({ row, cells: values }) => [row, values]));
  const steps: UpsertProductStep[] = [];
  const refused: RefusedRow[] = [];
  for (const planned of plan) {
    if (planned.body) steps.push({ kind: 'upsert-product', body: planned.body, rows: [planned.row], label: planned.externalId ?? '' });
    else {
      const values = Object.fromEntries(table.headers.map((header, index) => [header || t('catalog-import.column', { index: index + 1 }), cells.get(planned.row)?.[index] ?? '']));
      refused.push({ row: planned.row, values, reason: planned.reason });
    }
  }
  return { kind: 'products-import' as const satisfies ProductJobKind, steps, report: { refused }, meta: { fileName: loaded.fileName } };
}

export function ImportProductsDialog({ onClose }: { onClose: () => void }) {
  useT();
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
      const next = await readProducts(file);
      if (!next.table.headers.some(Boolean)) throw new Error(t('catalog-import.noHeader'));
      if (!next.table.rows.length) throw new Error(t('catalog-import.noRows'));
      setLoaded(next);
      setMapping(autoMap(next.table.headers));
    } catch (error) {
      setFileError(t('catalog-import.couldNotRead', { file: file.name, reason: error instanceof Error ? error.message : String(error) }));
    }
  };

  const run = async (current: Loaded) => {
    setStarting(true);
    setStartError(null);
    const spec = importSpec(current, mapping);
    try {
      const { enqueueJob } = await import('@/lib/jobs/workspace-runner');
      await enqueueJob(connection, spec);
    } catch {
      setStarting(false);
      setStartError(t('catalog-import.couldNotStart'));
      return;
    }
    const refused = spec.report.refused.length;
    const message =
      t('catalog-import.started', { count: spec.steps.length, file: current.fileName }) +
      (refused ? t('catalog-import.startedRefused', { count: refused }) : '') +
      t('catalog-import.startedEnd');
    notifications.show({ color: 'blue', message });
    onClose();
  };

  const restart = () => {
    setLoaded(null);
    setMapping({});
  };

  return (
    <Modal opened onClose={onClose} title={t('catalog-import.title')} size="xl" closeButtonProps={{ 'aria-label': t('catalog-import.close') }}>
      {loaded ? (
        <MapStep loaded={loaded} mapping={mapping} onChange={setMapping} onBack={restart} onRun={() => void run(loaded)} starting={starting} error={startError} />
      ) : (
        <FileStep error={fileError} onFile={(file) => void choose(file)} />
      )}
    </Modal>
  );
}

function FileStep({ error, onFile }: { error: string | null; onFile: (file: File | undefined) => void }) {
  useT();
  const id = useId();
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('catalog-import.step1')}
      </Title>
      <Text size="sm">{t('catalog-import.fileHelp')}</Text>
      <Stack gap={4}>
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          {t('catalog-import.fileLabel')}
        </Text>
        <input id={id} type="file" accept={READABLE_FILES} onChange={(event) => onFile(event.currentTarget.files?.[0])} />
      </Stack>
      <Text size="sm">
        <Anchor href={SAMPLE_URL} download="products-sample.csv" underline="always">
          {t('catalog-import.sample')}
        </Anchor>{' '}
        {t('catalog-import.sampleRest')}
      </Text>
      {error ? (
        <Alert color="red" role="alert" title={t('catalog-import.cannotImport')}>
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
  useT();
  const { table } = loaded;
  const locale = currentLocale();
  const options = useMemo(
    () => [
      { value: '', label: t('catalog-import.notImportedOption') },
      ...table.headers.map((header, index) => ({ value: String(index), label: header || t('catalog-import.column', { index: index + 1 }) })),
    ],
    // The labels are read in the language shown: a change of language builds them again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `locale` is what the texts depend on
    [table.headers, locale],
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
        {t('catalog-import.step2')}
      </Title>
      <Text size="sm">
        {t('catalog-import.summary', { file: loaded.fileName, rows: table.rows.length, columns: table.headers.length })}
        {unused.length ? t('catalog-import.notImported', { columns: unused.join(', ') }) : ''}
      </Text>
      {loaded.warnings.length ? (
        <Alert color="yellow" title={t('catalog-import.formatProblems')}>
          {loaded.warnings.join(' · ')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {IMPORT_FIELDS.map((field) => (
          <NativeSelect
            key={field.key}
            label={fieldLabel(field.key)}
            description={field.hint?.() || kindHint(field.kind) || undefined}
            required={field.required}
            error={field.required && missingKey ? t('catalog-import.missingKey') : undefined}
            data={options}
            value={mapping[field.key] === undefined ? '' : String(mapping[field.key])}
            onChange={(event) => set(field.key, event.currentTarget.value)}
            size="xs"
          />
        ))}
      </SimpleGrid>
      <Text size="sm" fw={500} id={captionId}>
        {t('catalog-import.previewCaption', { count: preview.length })}
      </Text>
      <SimpleTable aria-labelledby={captionId} compact striped>
        <thead>
          <tr>
            <th scope="col">{t('catalog-import.colRow')}</th>
            {mapped.map((field) => (
              <th scope="col" key={field.key}>
                {fieldLabel(field.key)}
              </th>
            ))}
            <th scope="col">{t('catalog-import.colCheck')}</th>
          </tr>
        </thead>
        <tbody>
          {preview.map(({ row, cells, converted }) => (
            <tr key={row}>
              <td>{row}</td>
              {mapped.map((field) => (
                <td key={field.key}>{converted.ok ? previewText(converted.body[field.key]) : (cells[mapping[field.key]!] ?? '').trim()}</td>
              ))}
              <td>{converted.ok ? t('catalog-import.ok') : converted.reason}</td>
            </tr>
          ))}
        </tbody>
      </SimpleTable>
      {numberColumns.length ? (
        <Stack gap={2} role="group" aria-label={t('catalog-import.numberFormats')}>
          {numberColumns.map((field) => (
            <Text size="sm" key={field.key}>
              {fieldLabel(field.key)}: {describeStyle(styles[field.key]!)}
            </Text>
          ))}
        </Stack>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('catalog-import.howItRuns')}
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          {t('catalog-import.back')}
        </Button>
        <Button onClick={onRun} disabled={missingKey} loading={starting}>
          {t('catalog-import.run', { count: table.rows.length })}
        </Button>
      </Group>
    </Stack>
  );
}
