/**
 * The "Import contacts" dialog of the contacts page (issue 20 points 1 to 3), a lazy chunk (nothing of it is on the
 * page's first screen). Three steps, nothing written before the last:
 * 1. a CSV (any delimiter, UTF-8 with or without BOM, Windows-1252) or xlsx file, read in a Web Worker
 *    (src/lib/import/read-file.ts) for its headers, first rows and row count; an xlsx file's sheet is chosen;
 * 2. the columns mapped to contact fields (recognised by contact-import.ts `autoMap`, or the mapping remembered for
 *    the workspace and these headers), a tag for the whole import, the default source (the file name) and the
 *    phones' default country, with a preview of the first rows as they will be sent;
 * 3. the plan, made in a worker (plan-client.ts): the file read again and its rows cleaned and merged as it streams,
 *    existing contacts looked up from the first chunk's keys on while the rest is cleaned, then the plan built; the
 *    page gets the plan without its steps (issue 20 point 6). It shows the counts, the requests the job will send
 *    and their time at the key's rate limit, the refused rows with their reasons (downloadable as CSV, to fix and
 *    import again). "Start import" hands the job to `onStart` (an
 *    `ImportJob`: the contacts page hands it to the runner's `enqueueStoredJob`, and the plan worker stores it).
 * Texts: the `contacts-import` catalog, loaded with this chunk (import-button.tsx); numbers, durations, country
 * names and their order through Intl in the language shown (issue 23).
 */
import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, startTransition, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { rateLimitOf } from '@/lib/budgeted-client';
import { readLocal, writeLocal } from '@/lib/local-state';
import { saveFile } from '@/lib/save-file';
import {
  type ContactFieldKey,
  type ContactMapping,
  IMPORT_FIELDS,
  autoMap,
  canImport,
  cleanRow,
  chooseCountry,
  defaultCountry,
  fitMapping,
  mappingStorageKey,
  importRequests,
  minutesAtRate,
  recogniseFormat,
  refusedCsv,
  importJobHead,
  splitAddress,
} from './contact-import';
import { contactQueries } from '@/features/contacts/queries';
import { type PlannedImport, planInWorker } from './plan-client';
import type { JobTitles } from '@/lib/jobs/workspace-runner';
import { compareNames, formatLocale, formatNumber } from '@/i18n/format';
import { currentLocale, t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { READABLE_FILES, type ReadResult, isReadable, readImportFile } from '@/lib/import/read-file';
import { contactReadTexts } from './read-texts';

/** The catalog key of each contact field's plain name (issue 23 point 11); the API's name is the hint. */
const FIELD_LABELS: Record<string, string> = {
  email: 'contacts-import.fieldEmail',
  phone: 'contacts-import.fieldPhone',
  name: 'contacts-import.fieldName',
  tags: 'contacts-import.fieldTags',
  source: 'contacts-import.fieldSource',
  address: 'contacts-import.fieldAddress',
  city: 'contacts-import.fieldCity',
  postalCode: 'contacts-import.fieldPostalCode',
  region: 'contacts-import.fieldRegion',
  bio: 'contacts-import.fieldBio',
  image: 'contacts-import.fieldImage',
  customMessage: 'contacts-import.fieldCustomMessage',
  systemSource: 'contacts-import.fieldSystemSource',
  notificationSettings: 'contacts-import.fieldNotificationSettings',
  addDirectly: 'contacts-import.fieldAddDirectly',
  useEmailByDefault: 'contacts-import.fieldUseEmailByDefault',
  statusTags: 'contacts-import.fieldStatusTags',
  follows: 'contacts-import.fieldFollows',
};
/** The catalog key of the hint for each kind of cell (none for text). */
const KIND_HINTS: Record<string, string> = { boolean: 'contacts-import.hintBoolean', json: 'contacts-import.hintJson', list: 'contacts-import.hintList' };
/** A field's plain name in the language shown, else its API name. */
const fieldLabel = (key: string) => (FIELD_LABELS[key] ? translate(FIELD_LABELS[key]) : key);

/** The mapping's fields that take several columns (a name in parts, tags from several cells). */
const COLUMN_LISTS = ['name', 'tags'] as const;

/**
 * The import handed to the job runner (`enqueueStoredJob`, docs/jobs.md): its kind and meta (what its title is
 * made of), how many steps, and `add`, which has the plan worker store the job with its steps and resolves to its id.
 */
export type ImportJob = ReturnType<typeof importJobHead> & { steps: number; add(titles: JobTitles): Promise<string> };

const PREVIEW_ROWS = 5;
const SHOWN_REFUSED = 100;

type Loaded = ReadResult & { file: File; sheet?: string };
/** `countryFrom`: what chose the phones' default country (`chooseCountry`), until the person chooses it. */
type Options = { importTag: string; source: string; country: CountryCode | ''; countryFrom?: 'file' | 'workspace' | 'browser' };
/** `batched`: the plan was made for a service that takes batches (`contact-batch`): nothing looked up. */
type Planned = PlannedImport & { options: Options; mapping: ContactMapping; batched: boolean };
type Work = { label: string; done: number; total: number };

/** Today's date as the import's tag: `import-2026-11-25`. */
function todayTag(): string {
  return `import-${new Date().toISOString().slice(0, 10)}`;
}

export function ImportContactsDialog({ onClose, onStart }: { onClose: () => void; onStart?: (job: ImportJob) => Promise<void> }) {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const t = useT();
  // Creates in batches of 1,000 where the service names `contact-batch` (issue 35 point 7); one request each elsewhere.
  const batched = useExtensions().has('contact-batch');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [reading, setReading] = useState<{ name: string; rows: number } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ContactMapping>({});
  const [options, setOptions] = useState<Options>(() => ({ importTag: todayTag(), source: '', country: defaultCountry(navigator.languages ?? [navigator.language]) ?? '' }));
  const [work, setWork] = useState<Work | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);
  const [planned, setPlannedState] = useState<Planned | null>(null);
  const controller = useRef<AbortController | null>(null);
  // The plan shown holds its worker (and the steps in it) until it is stored or let go.
  const plannedRef = useRef<Planned | null>(null);
  const setPlanned = useCallback((next: Planned | null) => {
    if (plannedRef.current !== next) plannedRef.current?.close();
    plannedRef.current = next;
    setPlannedState(next);
  }, []);

  useEffect(
    () => () => {
      controller.current?.abort();
      plannedRef.current?.close();
    },
    [],
  );

  // Stable (it reads only the workspace, state setters and the controller), so `chooseSheet` below can be too.
  const read = useCallback(async (file: File | undefined, sheet?: string) => {
    setFileError(null);
    if (!file) return;
    if (!isReadable(file)) return setFileError(translate('contacts-import.couldNotRead', { name: file.name, reason: translate('contacts-import.notSpreadsheet') }));
    controller.current?.abort();
    controller.current = new AbortController();
    setReading({ name: file.name, rows: 0 });
    try {
      const result = await readImportFile(file, { sheet, preview: PREVIEW_ROWS, signal: controller.current.signal, onRows: (rows) => setReading({ name: file.name, rows }), texts: contactReadTexts });
      if (!result.headers.some(Boolean)) throw new Error(translate('contacts-import.noHeader'));
      if (!result.rows && !result.sheets?.length) throw new Error(translate('contacts-import.noRows'));
      const remembered = readLocal<ContactMapping | null>(mappingStorageKey(workspaceId, result.headers), null);
      // A transition: React renders the mapping step in slices of a few milliseconds, never one long task (issue 20 point 6).
      const mapped = remembered ? fitMapping(remembered, result.headers.length) : autoMap(result.headers);
      // The phones' default country from the file's own numbers, else the workspace's contacts', else the browser's
      // (issue 34 point 2). The workspace's phones are one cached request; without them, the file and the browser decide.
      const fileNumbers = (mapped.phone ?? []).flatMap((column) => result.phoneLike[column] ?? []);
      const workspacePhones = await queryClient.fetchQuery(contactQueries.phones(api, workspaceId)).catch(() => []);
      // The countries the first rows' addresses name (Mailchimp's end with one: `... 4006  NO`) break a tie of the numbers.
      const fileCountries = (mapped.address ?? []).flatMap((column) => result.preview.flatMap(({ cells }) => splitAddress(cells[column] ?? '').country ?? []));
      const chosen = chooseCountry({ fileNumbers, fileCountries, workspacePhones, languages: navigator.languages ?? [navigator.language] });
      startTransition(() => {
        setMapping(mapped);
        setOptions((previous) => ({ ...previous, source: file.name, country: chosen.country ?? '', countryFrom: chosen.from }));
        setLoaded({ ...result, file, ...(sheet === undefined ? {} : { sheet }) });
      });
    } catch (error) {
      if ((error as Error).name !== 'AbortError') setFileError(translate('contacts-import.couldNotRead', { name: file.name, reason: error instanceof Error ? error.message : String(error) }));
    } finally {
      setReading(null);
    }
  }, [api, queryClient, workspaceId]);

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
    writeLocal(mappingStorageKey(workspaceId, current.headers), mapping);
    // The workspace's tags, onto which the file's are mapped whatever their case (issue 34 point 4); cached 30 s.
    const existingTags = (await queryClient.fetchQuery(contactQueries.tags(api, workspaceId)).catch(() => [])).map((tag) => tag.name);
    const clean = { country: options.country || null, importTag: options.importTag, source: options.source, existingTags };
    try {
      setWork({ label: 'clean', done: 0, total: current.rows });
      const source = { file: current.file, rows: current.rows, ...(current.sheet === undefined ? {} : { sheet: current.sheet }) };
      const made = await planInWorker(source, mapping, clean, connection, { signal: abort.signal, onProgress: progress, batched });
      startTransition(() => setPlanned({ ...made, options, mapping, batched }));
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
    <Modal opened onClose={onClose} title={t('contacts-import.dialogTitle')} size="xl" closeButtonProps={{ 'aria-label': t('contacts-import.closeImport') }}>
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
  const t = useT();
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('contacts-import.fileStep')}
      </Title>
      <Text size="sm">{t('contacts-import.fileIntro')}</Text>
      <Stack gap={4}>
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          {t('contacts-import.fileLabel')}
        </Text>
        <input
          id={id}
          type="file"
          accept={READABLE_FILES}
          disabled={reading !== null}
          onChange={(event) => onFile(event.currentTarget.files?.[0])}
        />
      </Stack>
      {reading ? (
        <Text size="sm" role="status">
          {t('contacts-import.reading', { name: reading.name })} {reading.rows ? t('contacts-import.readRows', { count: reading.rows }) : ''}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" role="alert" title={t('contacts-import.cannotImport')}>
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** Countries for the phones' default country, by name in the browser's language: `Norway (+47)`. */
function useCountryOptions() {
  useT();
  const locale = currentLocale();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames(formatLocale(), { type: 'region' });
    } catch {
      names = null;
    }
    const countries = getCountries().map((code) => ({ value: code, label: `${names?.of(code) ?? code} (+${getCountryCallingCode(code)})` }));
    countries.sort((a, b) => compareNames(a.label, b.label));
    return [{ value: '', label: translate('contacts-import.notMapped') }, ...countries];
    // The language shown is a dependency: the names and their order follow it (read through formatLocale above).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale]);
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
  const t = useT();
  return (
    <Stack>
      <MappingForm loaded={loaded} mapping={mapping} onMapping={props.onMapping} options={props.options} onOptions={props.onOptions} onSheet={props.onSheet} busy={busy} />
      {work ? (
        <Stack gap={4}>
          <Progress value={(work.done / Math.max(1, work.total)) * 100} aria-label={t('contacts-import.checking')} transitionDuration={0} />
          <Text size="sm" role="status">
            {work.label === 'clean' ? t('contacts-import.cleaningProgress', { done: work.done, total: work.total }) : t('contacts-import.checkingProgress', { done: work.done, total: work.total })}
          </Text>
        </Stack>
      ) : null}
      {props.error ? (
        <Alert color="red" role="alert" title={t('contacts-import.lookupFailed')}>
          {props.error}
        </Alert>
      ) : null}
      {!canImport(mapping) ? (
        <Text size="sm" c="red">
          {t('contacts-import.needsKey')}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onBack}>
          {t('contacts-import.chooseAnother')}
        </Button>
        <Button onClick={props.onPlan} disabled={!canImport(mapping) || busy}>
          {t('contacts-import.makePlan', { count: loaded.rows })}
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
  const { headers } = loaded;
  const t = useT();
  const columnName = (index: number) => headers[index] || t('contacts-import.column', { number: index + 1 });
  const columnOptions = [{ value: '', label: t('contacts-import.notMapped') }, ...headers.map((_, index) => ({ value: String(index), label: columnName(index) }))];
  const countries = useCountryOptions();
  const used = new Set(Object.values(mapping).flat());
  const unused = headers.filter((header, index) => header && !used.has(index));
  const format = recogniseFormat(headers);
  const { api, workspaceId } = useWorkspaceApi();
  const existingTags = useQuery(contactQueries.tags(api, workspaceId)).data;
  const clean = { country: options.country || null, importTag: options.importTag, source: options.source, existingTags: existingTags?.map((tag) => tag.name) ?? [] };
  const preview = loaded.preview.map(({ row, cells }) => ({ row, cleaned: cleanRow(cells, mapping, clean) }));
  // The fields an address column may split into (Mailchimp's one-cell form, `splitAddress`) show beside it.
  const fromAddress = (key: ContactFieldKey) => Boolean(mapping.address?.length) && (key === 'city' || key === 'postalCode' || key === 'region');
  const shown: ContactFieldKey[] = IMPORT_FIELDS.map((field) => field.key).filter((key) => mapping[key]?.length || (key === 'tags' && options.importTag) || (key === 'source' && options.source) || fromAddress(key));
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
        {t('contacts-import.mapStep')}
      </Title>
      <Text size="sm">
        {t('contacts-import.fileSummary', { name: loaded.file.name, rows: loaded.rows, columns: headers.length })}{' '}
        {loaded.encoding ? t('contacts-import.encodingNote', { encoding: loaded.encoding }) : ''} {format ? t('contacts-import.recognised', { format }) : ''}{' '}
        {unused.length ? t('contacts-import.notImported', { headers: unused.join(', ') }) : ''}
      </Text>
      {loaded.sheets && loaded.sheets.length > 1 ? (
        <NativeSelect
          label={t('contacts-import.sheetLabel')}
          data={loaded.sheets.map((sheet) => ({ value: sheet.name, label: t('contacts-import.sheetRows', { name: sheet.name, count: Math.max(0, sheet.rows - 1) }) }))}
          value={loaded.sheet ?? loaded.sheets[0]!.name}
          onChange={(event) => props.onSheet(event.currentTarget.value)}
          disabled={busy}
        />
      ) : null}
      {loaded.warnings.length ? (
        <Alert color="yellow" title={t('contacts-import.parseWarnings')}>
          {loaded.warnings.join(' · ')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {IMPORT_FIELDS.filter((field) => !field.multiple).map((field) => (
          <NativeSelect
            key={field.key}
            label={fieldLabel(field.key)}
            description={KIND_HINTS[field.kind] ? t(KIND_HINTS[field.kind]!) : undefined}
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
            label={key === 'name' ? t('contacts-import.nameColumns') : t('contacts-import.tagColumns')}
            description={key === 'name' ? t('contacts-import.nameColumnsHint') : t('contacts-import.tagColumnsHint')}
            value={(mapping[key] ?? []).map(String)}
            onChange={(values) => setMany(key, values)}
          >
            <Group gap="xs" mt={4}>
              {headers.map((_, index) => (
                <Checkbox key={index} value={String(index)} label={columnName(index)} size="xs" />
              ))}
            </Group>
          </Checkbox.Group>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput label={t('contacts-import.importTag')} description={t('contacts-import.importTagHint')} value={options.importTag} onChange={(event) => onOptions({ ...options, importTag: event.currentTarget.value })} size="xs" />
        <TextInput label={t('contacts-import.sourceDefault')} description={t('contacts-import.sourceDefaultHint')} value={options.source} onChange={(event) => onOptions({ ...options, source: event.currentTarget.value })} size="xs" />
        <NativeSelect
          label={t('contacts-import.country')}
          description={options.countryFrom ? `${t('contacts-import.countryHint')}. ${t('contacts-import.countryFrom', { from: options.countryFrom })}` : t('contacts-import.countryHint')}
          data={countries}
          value={options.country}
          onChange={(event) => onOptions({ importTag: options.importTag, source: options.source, country: event.currentTarget.value as CountryCode | '' })}
          size="xs"
        />
      </SimpleGrid>
      <Text size="sm" fw={500} id={captionId}>
        {t('contacts-import.previewCaption', { count: preview.length })}
      </Text>
      <SimpleTable aria-labelledby={captionId} compact striped>
        <thead>
          <tr>
            <th scope="col">{t('contacts-import.previewRow')}</th>
            {shown.map((key) => (
              <th scope="col" key={key}>
                {fieldLabel(key)}
              </th>
            ))}
            <th scope="col">{t('contacts-import.previewCheck')}</th>
          </tr>
        </thead>
        <tbody>
          {preview.map(({ row, cleaned }) => (
            <tr key={row}>
              <td>{row}</td>
              {shown.map((key) => (
                <td key={key}>{cleaned.ok ? previewText(cleaned.body[key]) : ''}</td>
              ))}
              <td>{cleaned.ok ? t('contacts-import.ok') : cleaned.reason}</td>
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

/** Minutes as the language shown says them (Intl units): `38 minutes`, `2.5 hours` (`38 minutter`, `2,5 timer`). */
function durationWords(minutes: number): string {
  const [value, unit] = minutes < 1 ? [Math.max(1, Math.ceil(minutes * 60)), 'second'] : minutes < 120 ? [Math.ceil(minutes), 'minute'] : [Math.round(minutes / 6) / 10, 'hour'];
  return formatNumber(value as number, { style: 'unit', unit: unit as string, unitDisplay: 'long', maximumFractionDigits: 1 });
}

function PlanStep({ loaded, planned, onBack, onStart, onClose }: { loaded: Loaded; planned: Planned; onBack: () => void; onStart?: (job: ImportJob) => Promise<void>; onClose: () => void }) {
  const { plan, lookups, batched } = planned;
  const { workspaceId, connection } = useWorkspaceApi();
  const t = useT();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const captionId = useId();
  // Without look-ups (in batches) the limit is the one the page's own requests read.
  const rateLimit = planned.rateLimit ?? rateLimitOf(connection);
  const requests = importRequests(plan.counts, batched);
  const minutes = minutesAtRate(requests, rateLimit);
  const phoneColumns = new Set(planned.mapping.phone ?? []);
  const download = () => {
    const name = `${loaded.file.name.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}-refused.csv`;
    // A BOM so spreadsheet programs read the file as UTF-8.
    saveFile(new Blob([`\uFEFF${refusedCsv(loaded.headers, plan.refused, phoneColumns)}`], { type: 'text/csv;charset=utf-8' }), name);
  };
  const start = async () => {
    if (!onStart) return;
    setStarting(true);
    setStartError(null);
    try {
      const { importTag, source } = planned.options;
      const meta = { fileName: loaded.file.name, ...(importTag ? { importTag } : {}), ...(source ? { source } : {}) };
      await onStart({ ...importJobHead(plan.counts, meta), steps: plan.stepCount, add: (titles) => planned.store(workspaceId, meta, titles, batched) });
      onClose();
    } catch (error) {
      setStartError(error instanceof Error ? error.message : String(error));
      setStarting(false);
    }
  };
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('contacts-import.planStep')}
      </Title>
      <Stack gap={2} role="group" aria-label={t('contacts-import.planCounts')}>
        {batched ? (
          <Text fw={500}>{t('contacts-import.planBatched', { count: plan.counts.new })}</Text>
        ) : (
          <>
            <Text fw={500}>{t('contacts-import.planNew', { count: plan.counts.new })}</Text>
            <Text fw={500}>{t('contacts-import.planExists', { count: plan.counts.exists, tagged: plan.counts.tagged })}</Text>
          </>
        )}
        <Text fw={500}>{t('contacts-import.planRefused', { count: plan.counts.refused })}</Text>
        {plan.counts.merged ? <Text size="sm">{t('contacts-import.planMerged', { count: plan.counts.merged })}</Text> : null}
        {plan.retagged?.length ? <Text size="sm">{t('contacts-import.planRetagged', { count: plan.retagged.length, tags: plan.retagged.map(([from, to]) => t('contacts-import.retaggedPair', { from, to })).join(', ') })}</Text> : null}
        {plan.withoutPhone?.length ? (
          <Text size="sm" title={plan.withoutPhone.slice(0, 5).map((row) => `${row.row}: ${row.reason}`).join('\n')}>
            {t('contacts-import.planWithoutPhone', { count: plan.withoutPhone.length })}
          </Text>
        ) : null}
      </Stack>
      <Text size="sm">
        {t('contacts-import.planRequests', { count: requests })}{' '}
        {minutes === null ? t('contacts-import.planNoLimit') : t('contacts-import.planTime', { duration: durationWords(minutes), limit: rateLimit! })}{' '}
        {batched ? t('contacts-import.planNoLookups') : t('contacts-import.planLookups', { count: lookups })}
      </Text>
      {plan.refused.length ? (
        <>
          <Text size="sm" fw={500} id={captionId}>
            {t('contacts-import.refusedCaption')}
          </Text>
          <SimpleTable aria-labelledby={captionId} compact striped>
            <thead>
              <tr>
                <th scope="col">{t('contacts-import.previewRow')}</th>
                <th scope="col">{t('contacts-import.refusedReason')}</th>
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
              {t('contacts-import.refusedMore', { count: plan.refused.length - SHOWN_REFUSED })}
            </Text>
          ) : null}
        </>
      ) : null}
      {!plan.stepCount ? <Text size="sm">{t('contacts-import.nothingToDo')}</Text> : null}
      {startError ? (
        <Alert color="red" role="alert" title={t('contacts-import.startFailed')}>
          {startError}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        {plan.refused.length ? (
          <Button variant="default" onClick={download}>
            {t('contacts-import.downloadRefused')}
          </Button>
        ) : null}
        <Button variant="default" onClick={onBack}>
          {t('contacts-import.back')}
        </Button>
        <Button onClick={() => void start()} disabled={!onStart || !plan.stepCount} loading={starting}>
          {t('contacts-import.start', { count: requests })}
        </Button>
      </Group>
      {!onStart ? (
        <Text size="sm" c="dimmed">
          {t('contacts-import.noRunner')}
        </Text>
      ) : null}
    </Stack>
  );
}
