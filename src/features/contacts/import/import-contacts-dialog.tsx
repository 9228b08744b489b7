/**
 * The "Import contacts" dialog of the contacts page (issue 20 points 1 to 3), a lazy chunk (nothing of it is on the
 * page's first screen). Three steps, nothing written before the last:
 * 1. a CSV (any delimiter, UTF-8 with or without BOM, Windows-1252) or xlsx file, read in a Web Worker
 *    (read-file.ts); an xlsx file's sheet is chosen;
 * 2. the columns mapped to contact fields (recognised by contact-import.ts `autoMap`, or the mapping remembered for
 *    the workspace and these headers), a tag for the whole import, the default source (the file name) and the
 *    phones' default country, with a preview of the first rows as they will be sent;
 * 3. the plan: rows cleaned and merged (in slices, so the page stays responsive), existing contacts looked up, the
 *    counts, the requests the job will send and their time at the key's rate limit, the refused rows with their
 *    reasons (downloadable as CSV, to fix and import again). "Start import" hands the plan as a `JobSpec` to
 *    `onStart` (jobs-interface.md: the contacts page wires it to the job runner).
 */
import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import { memo, startTransition, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/api';
import { readLocal, writeLocal } from '@/lib/local-state';
import { saveFile } from '@/lib/save-file';
import {
  type ContactFieldKey,
  type ContactMapping,
  IMPORT_FIELDS,
  type ImportPlan,
  autoMap,
  buildPlanInSlices,
  canImport,
  cleanRow,
  cleanTable,
  defaultCountry,
  entryLookupsInSlices,
  fitMapping,
  mappingStorageKey,
  minutesAtRate,
  recogniseFormat,
  refusedCsv,
  toJobSpec,
} from './contact-import';
import { findExisting } from './find-existing';
import { messages } from './messages';
import { type ReadResult, isReadable, readImportFile } from './read-file';

/** The mapping's fields that take several columns (a name in parts, tags from several cells). */
const COLUMN_LISTS = ['name', 'tags'] as const;

/** The job handed to the runner: the `JobSpec` of jobs-interface.md with the steps an import makes. */
export type ContactsImportJobSpec = ReturnType<typeof toJobSpec>;

const PREVIEW_ROWS = 5;
const SHOWN_REFUSED = 100;

type Loaded = ReadResult & { file: File; sheet?: string };
type Options = { importTag: string; source: string; country: CountryCode | '' };
type Planned = { plan: ImportPlan; lookups: number; rateLimit: number | null; options: Options; mapping: ContactMapping };
type Work = { label: string; done: number; total: number };

/** Lets the browser paint and handle input between slices of work. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Today's date as the import's tag: `import-2026-11-25`. */
function todayTag(): string {
  return `import-${new Date().toISOString().slice(0, 10)}`;
}

export function ImportContactsDialog({ onClose, onStart }: { onClose: () => void; onStart?: (spec: ContactsImportJobSpec) => Promise<void> }) {
  const { api, workspaceId } = useWorkspaceApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [reading, setReading] = useState<{ name: string; rows: number } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ContactMapping>({});
  const [options, setOptions] = useState<Options>(() => ({ importTag: todayTag(), source: '', country: defaultCountry(navigator.languages ?? [navigator.language]) ?? '' }));
  const [work, setWork] = useState<Work | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  // Stable (it reads only the workspace, state setters and the controller), so `chooseSheet` below can be too.
  const read = useCallback(async (file: File | undefined, sheet?: string) => {
    setFileError(null);
    if (!file) return;
    if (!isReadable(file)) return setFileError(messages.couldNotRead(file.name, messages.notSpreadsheet));
    controller.current?.abort();
    controller.current = new AbortController();
    setReading({ name: file.name, rows: 0 });
    try {
      const result = await readImportFile(file, { sheet, signal: controller.current.signal, onRows: (rows) => setReading({ name: file.name, rows }) });
      if (!result.table.headers.some(Boolean)) throw new Error(messages.noHeader);
      if (!result.table.rows.length && !result.sheets?.length) throw new Error(messages.noRows);
      const remembered = readLocal<ContactMapping | null>(mappingStorageKey(workspaceId, result.table.headers), null);
      // A transition: React renders the mapping step in slices of a few milliseconds, never one long task (issue 20 point 6).
      startTransition(() => {
        setMapping(remembered ? fitMapping(remembered, result.table.headers.length) : autoMap(result.table.headers));
        setOptions((previous) => ({ ...previous, source: file.name }));
        setLoaded({ ...result, file, ...(sheet === undefined ? {} : { sheet }) });
      });
    } catch (error) {
      if ((error as Error).name !== 'AbortError') setFileError(messages.couldNotRead(file.name, error instanceof Error ? error.message : String(error)));
    } finally {
      setReading(null);
    }
  }, [workspaceId]);

  const plan = async (current: Loaded) => {
    controller.current?.abort();
    const abort = (controller.current = new AbortController());
    setPlanError(null);
    // Progress shows at most 5 times a second: each update renders the step again.
    let shownAt = 0;
    const progress = (label: string, done: number, total: number) => {
      const now = performance.now();
      if (done < total && now - shownAt < 200) return;
      shownAt = now;
      setWork({ label, done, total });
    };
    writeLocal(mappingStorageKey(workspaceId, current.table.headers), mapping);
    const clean = { country: options.country || null, importTag: options.importTag, source: options.source };
    try {
      setWork({ label: 'clean', done: 0, total: current.table.rows.length });
      const cleaned = await cleanTable(current.table, mapping, clean, {
        pause: yieldToBrowser,
        signal: abort.signal,
        onProgress: (done, total) => progress('clean', done, total),
      });
      // Every step in slices (issue 20 point 6: no main-thread task over 200 ms on a 100,000-row file).
      const slicing = { pause: yieldToBrowser, signal: abort.signal };
      const lookups = await entryLookupsInSlices(cleaned.entries, slicing);
      setWork({ label: 'lookup', done: 0, total: lookups.length });
      const found = await findExisting(api, lookups, { signal: abort.signal, onProgress: (done, total) => progress('lookup', done, total) });
      const built = await buildPlanInSlices(cleaned, found.existing, slicing);
      startTransition(() => setPlanned({ plan: built, lookups: found.requests, rateLimit: found.rateLimit, options, mapping }));
    } catch (error) {
      if (!abort.signal.aborted) setPlanError(error instanceof Error ? error.message : String(error));
    } finally {
      if (!abort.signal.aborted) setWork(null);
    }
  };

  const restart = () => {
    controller.current?.abort();
    setLoaded(null);
    setPlanned(null);
    setWork(null);
    setPlanError(null);
  };

  const file = loaded?.file;
  // Stable, so the memoized mapping form is not rendered again by the plan's progress.
  const chooseSheet = useCallback((sheet: string) => file && void read(file, sheet), [file, read]);
  const step = planned ? 'plan' : loaded ? 'map' : 'file';
  return (
    <Modal opened onClose={onClose} title={messages.dialogTitle} size="xl" closeButtonProps={{ 'aria-label': messages.closeImport }}>
      {step === 'file' ? <FileStep error={fileError} reading={reading} onFile={(file) => void read(file)} /> : null}
      {step === 'map' && loaded ? (
        <MapStep
          loaded={loaded}
          mapping={mapping}
          onMapping={setMapping}
          options={options}
          onOptions={setOptions}
          onSheet={chooseSheet}
          reading={reading !== null}
          work={work}
          error={planError}
          onBack={restart}
          onPlan={() => void plan(loaded)}
        />
      ) : null}
      {step === 'plan' && loaded && planned ? (
        <PlanStep loaded={loaded} planned={planned} onBack={() => setPlanned(null)} onStart={onStart} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function FileStep({ error, reading, onFile }: { error: string | null; reading: { name: string; rows: number } | null; onFile: (file: File | undefined) => void }) {
  const id = useId();
  return (
    <Stack>
      <Title order={3} size="h4">
        {messages.fileStep}
      </Title>
      <Text size="sm">{messages.fileIntro}</Text>
      <Stack gap={4}>
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          {messages.fileLabel}
        </Text>
        <input
          id={id}
          type="file"
          accept=".csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          disabled={reading !== null}
          onChange={(event) => onFile(event.currentTarget.files?.[0])}
        />
      </Stack>
      {reading ? (
        <Text size="sm" role="status">
          {messages.reading(reading.name)} {reading.rows ? messages.readRows(reading.rows) : ''}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" role="alert" title={messages.cannotImport}>
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** Countries for the phones' default country, by name in the browser's language: `Norway (+47)`. */
function useCountryOptions() {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames(undefined, { type: 'region' });
    } catch {
      names = null;
    }
    const countries = getCountries().map((code) => ({ value: code, label: `${names?.of(code) ?? code} (+${getCountryCallingCode(code)})` }));
    const collator = new Intl.Collator();
    countries.sort((a, b) => collator.compare(a.label, b.label));
    return [{ value: '', label: messages.notMapped }, ...countries];
  }, []);
}

type MapStepProps = {
  loaded: Loaded;
  mapping: ContactMapping;
  onMapping: (next: ContactMapping) => void;
  options: Options;
  onOptions: (next: Options) => void;
  onSheet: (sheet: string) => void;
  reading: boolean;
  work: Work | null;
  error: string | null;
  onBack: () => void;
  onPlan: () => void;
};

function MapStep(props: MapStepProps) {
  const { loaded, mapping, work } = props;
  const busy = work !== null || props.reading;
  return (
    <Stack>
      <MappingForm loaded={loaded} mapping={mapping} onMapping={props.onMapping} options={props.options} onOptions={props.onOptions} onSheet={props.onSheet} busy={busy} />
      {work ? (
        <Stack gap={4}>
          <Progress value={(work.done / Math.max(1, work.total)) * 100} aria-label={messages.checking} />
          <Text size="sm" role="status">
            {work.label === 'clean' ? messages.cleaningProgress(work.done, work.total) : messages.checkingProgress(work.done, work.total)}
          </Text>
        </Stack>
      ) : null}
      {props.error ? (
        <Alert color="red" role="alert" title={messages.lookupFailed}>
          {props.error}
        </Alert>
      ) : null}
      {!canImport(mapping) ? (
        <Text size="sm" c="red">
          {messages.needsKey}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onBack}>
          {messages.chooseAnother}
        </Button>
        <Button onClick={props.onPlan} disabled={!canImport(mapping) || busy} loading={work !== null}>
          {messages.makePlan(loaded.table.rows.length)}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The mapping form and the preview, memoized: the plan's progress renders the step again several times a second,
 * and this part (18 selects, the country list, the preview's cleaning) only changes with its own props.
 */
const MappingForm = memo(function MappingForm(props: Pick<MapStepProps, 'loaded' | 'mapping' | 'onMapping' | 'options' | 'onOptions' | 'onSheet'> & { busy: boolean }) {
  const { loaded, mapping, onMapping, options, onOptions, busy } = props;
  const { table } = loaded;
  const columnName = (index: number) => table.headers[index] || `Column ${index + 1}`;
  const columnOptions = [{ value: '', label: messages.notMapped }, ...table.headers.map((_, index) => ({ value: String(index), label: columnName(index) }))];
  const countries = useCountryOptions();
  const used = new Set(Object.values(mapping).flat());
  const unused = table.headers.filter((header, index) => header && !used.has(index));
  const format = recogniseFormat(table.headers);
  const clean = { country: options.country || null, importTag: options.importTag, source: options.source };
  const preview = table.rows.slice(0, PREVIEW_ROWS).map(({ row, cells }) => ({ row, cleaned: cleanRow(cells, mapping, clean) }));
  const shown: ContactFieldKey[] = IMPORT_FIELDS.map((field) => field.key).filter((key) => mapping[key]?.length || (key === 'tags' && options.importTag) || (key === 'source' && options.source));
  const captionId = useId();
  const setSingle = (key: ContactFieldKey, value: string) => {
    const next = { ...mapping };
    if (value === '') delete next[key];
    else next[key] = [Number(value)];
    onMapping(next);
  };
  const setMany = (key: ContactFieldKey, values: string[]) => {
    const next = { ...mapping };
    if (!values.length) delete next[key];
    else next[key] = values.map(Number).sort((a, b) => a - b);
    onMapping(next);
  };

  return (
    <>
      <Title order={3} size="h4">
        {messages.mapStep}
      </Title>
      <Text size="sm">
        {messages.fileSummary(loaded.file.name, table.rows.length, table.headers.length)} {loaded.encoding ? messages.encodingNote(loaded.encoding) : ''}{' '}
        {format ? messages.recognised(format) : ''} {unused.length ? messages.notImported(unused) : ''}
      </Text>
      {loaded.sheets && loaded.sheets.length > 1 ? (
        <NativeSelect
          label={messages.sheetLabel}
          data={loaded.sheets.map((sheet) => ({ value: sheet.name, label: messages.sheetRows(sheet.name, Math.max(0, sheet.rows - 1)) }))}
          value={loaded.sheet ?? loaded.sheets[0]!.name}
          onChange={(event) => props.onSheet(event.currentTarget.value)}
          disabled={busy}
        />
      ) : null}
      {loaded.warnings.length ? (
        <Alert color="yellow" title={messages.parseWarnings}>
          {loaded.warnings.join(' · ')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {IMPORT_FIELDS.filter((field) => !field.multiple).map((field) => (
          <NativeSelect
            key={field.key}
            label={messages.fieldLabels[field.key] ?? field.key}
            description={[messages.fieldHints[field.kind], messages.fieldHint(field.key)].filter(Boolean).join(' · ')}
            data={columnOptions}
            value={mapping[field.key]?.[0] === undefined ? '' : String(mapping[field.key]![0])}
            onChange={(event) => setSingle(field.key, event.currentTarget.value)}
            size="xs"
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {COLUMN_LISTS.map((key) => (
          <Checkbox.Group
            key={key}
            label={key === 'name' ? messages.nameColumns : messages.tagColumns}
            description={key === 'name' ? messages.nameColumnsHint : messages.tagColumnsHint}
            value={(mapping[key] ?? []).map(String)}
            onChange={(values) => setMany(key, values)}
          >
            <Group gap="xs" mt={4}>
              {table.headers.map((_, index) => (
                <Checkbox key={index} value={String(index)} label={columnName(index)} size="xs" />
              ))}
            </Group>
          </Checkbox.Group>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput label={messages.importTag} description={messages.importTagHint} value={options.importTag} onChange={(event) => onOptions({ ...options, importTag: event.currentTarget.value })} size="xs" />
        <TextInput label={messages.sourceDefault} description={messages.sourceDefaultHint} value={options.source} onChange={(event) => onOptions({ ...options, source: event.currentTarget.value })} size="xs" />
        <NativeSelect
          label={messages.country}
          description={messages.countryHint}
          data={countries}
          value={options.country}
          onChange={(event) => onOptions({ ...options, country: event.currentTarget.value as CountryCode | '' })}
          size="xs"
        />
      </SimpleGrid>
      <Text size="sm" fw={500} id={captionId}>
        {messages.previewCaption(preview.length)}
      </Text>
      <SimpleTable aria-labelledby={captionId} compact striped>
        <thead>
          <tr>
            <th scope="col">{messages.previewRow}</th>
            {shown.map((key) => (
              <th scope="col" key={key}>
                {messages.fieldLabels[key] ?? key}
              </th>
            ))}
            <th scope="col">{messages.previewCheck}</th>
          </tr>
        </thead>
        <tbody>
          {preview.map(({ row, cleaned }) => (
            <tr key={row}>
              <td>{row}</td>
              {shown.map((key) => (
                <td key={key}>{cleaned.ok ? previewText(cleaned.body[key]) : ''}</td>
              ))}
              <td>{cleaned.ok ? messages.ok : cleaned.reason}</td>
            </tr>
          ))}
        </tbody>
      </SimpleTable>
    </>
  );
});

/** A body value as preview text: lists joined by `, `, objects as JSON, absent as empty. */
function previewText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Minutes as the browser's language says them: `38 minutes`, `2.5 hours`. */
function durationWords(minutes: number): string {
  const [value, unit] = minutes < 1 ? [Math.max(1, Math.ceil(minutes * 60)), 'second'] : minutes < 120 ? [Math.ceil(minutes), 'minute'] : [Math.round(minutes / 6) / 10, 'hour'];
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 1 }).format(value);
}

function PlanStep({ loaded, planned, onBack, onStart, onClose }: { loaded: Loaded; planned: Planned; onBack: () => void; onStart?: (spec: ContactsImportJobSpec) => Promise<void>; onClose: () => void }) {
  const { plan, lookups, rateLimit } = planned;
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const captionId = useId();
  const minutes = minutesAtRate(plan.steps.length, rateLimit);
  const phoneColumns = new Set(planned.mapping.phone ?? []);
  const download = () => {
    const name = `${loaded.file.name.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}-refused.csv`;
    // A BOM so spreadsheet programs read the file as UTF-8.
    saveFile(new Blob([`\uFEFF${refusedCsv(loaded.table.headers, plan.refused, phoneColumns)}`], { type: 'text/csv;charset=utf-8' }), name);
  };
  const start = async () => {
    if (!onStart) return;
    setStarting(true);
    setStartError(null);
    try {
      const { importTag, source } = planned.options;
      await onStart(toJobSpec(plan, { fileName: loaded.file.name, ...(importTag ? { importTag } : {}), ...(source ? { source } : {}) }));
      onClose();
    } catch (error) {
      setStartError(error instanceof Error ? error.message : String(error));
      setStarting(false);
    }
  };
  return (
    <Stack>
      <Title order={3} size="h4">
        {messages.planStep}
      </Title>
      <Stack gap={2} role="group" aria-label={messages.planCounts}>
        <Text fw={500}>{messages.planNew(plan.counts.new)}</Text>
        <Text fw={500}>{messages.planExists(plan.counts.exists, plan.counts.tagged)}</Text>
        <Text fw={500}>{messages.planRefused(plan.counts.refused)}</Text>
        {plan.counts.merged ? <Text size="sm">{messages.planMerged(plan.counts.merged)}</Text> : null}
      </Stack>
      <Text size="sm">
        {messages.planRequests(plan.steps.length)} {minutes === null ? messages.planNoLimit : messages.planTime(durationWords(minutes), rateLimit!)} {messages.planLookups(lookups)}
      </Text>
      {plan.refused.length ? (
        <>
          <Text size="sm" fw={500} id={captionId}>
            {messages.refusedCaption}
          </Text>
          <SimpleTable aria-labelledby={captionId} compact striped>
            <thead>
              <tr>
                <th scope="col">{messages.previewRow}</th>
                <th scope="col">{messages.refusedReason}</th>
              </tr>
            </thead>
            <tbody>
              {plan.refused.slice(0, SHOWN_REFUSED).map((row) => (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td>{row.reason}</td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
          {plan.refused.length > SHOWN_REFUSED ? (
            <Text size="sm" c="dimmed">
              {messages.refusedMore(plan.refused.length - SHOWN_REFUSED)}
            </Text>
          ) : null}
        </>
      ) : null}
      {!plan.steps.length ? <Text size="sm">{messages.nothingToDo}</Text> : null}
      {startError ? (
        <Alert color="red" role="alert" title={messages.startFailed}>
          {startError}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        {plan.refused.length ? (
          <Button variant="default" onClick={download}>
            {messages.downloadRefused}
          </Button>
        ) : null}
        <Button variant="default" onClick={onBack}>
          {messages.back}
        </Button>
        <Button onClick={() => void start()} disabled={!onStart || !plan.steps.length} loading={starting}>
          {messages.start(plan.steps.length)}
        </Button>
      </Group>
      {!onStart ? (
        <Text size="sm" c="dimmed">
          {messages.noRunner}
        </Text>
      ) : null}
    </Stack>
  );
}
