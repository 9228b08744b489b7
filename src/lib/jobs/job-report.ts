/**
 * A job's report (issue 20 point 5): every step's outcome and every row decided before any write, sorted into
 * the report's parts (created, updated, tags changed, erased, already erased, unchanged, refused, failed, not sent),
 * each a table that downloads as CSV. A bulk erasure's rows hold the contact's id only (issue 22 point 7: no
 * personal data kept). Framework-free (unit-tested); papaparse writes the CSV, loaded with the jobs page only.
 *
 * The notes a person reads (a recovered answer, "already as asked", "already erased") are in the language shown when
 * the report is built, from the `jobs` catalog (loaded with the jobs page); the column names are the records' field
 * names, as the import files and the interface spell them. A step's `reason` is stored as it was written.
 *
 * An import's rows sent without their phone (`JobSpec.report.withoutPhone`: the phone could not be read, issue 34
 * point 2) carry the reason in a `withoutPhone` column on whichever row of the report names them (created, tags
 * changed, unchanged, failed or not sent; a row merged with others names each reason, joined with `; `).
 *
 * CSV: a header row, CRLF lines, RFC 4180 quoting, and `'` before a cell a spreadsheet would read as a formula
 * (OWASP "CSV injection"), by the service's export rule (docs/decisions.md section 7, revised; src/lib/csv-table.ts
 * `guardCsvCell`): a phone number in international form in the `phone` column stays as it is (`+47 912 34 567`, not
 * `'+47 912 34 567`).
 */
import Papa from 'papaparse';
import { guardCsvCell } from '@/lib/csv-table';
import type { JobStore } from './job-store';
import { t } from '@/i18n/i18n';
import type { JobRecord, JobSpec, RowNote, StepRecord } from './job-types';
import { type ReportedStep, stepHandler } from './step-kinds';
import { kindsReady } from './job-names';

export type ReportPart = 'created' | 'updated' | 'tagged' | 'erased' | 'alreadyErased' | 'unchanged' | 'refused' | 'failed' | 'notSent';
export const REPORT_PARTS: readonly ReportPart[] = ['created', 'updated', 'tagged', 'erased', 'alreadyErased', 'unchanged', 'refused', 'failed', 'notSent'];

/** One table per part: its column names and rows of cells. */
export type ReportTable = { columns: string[]; rows: Record<string, string>[] };
export type JobReport = Record<ReportPart, ReportTable>;

const rowsText = (rows: number[] | undefined) => (rows ?? []).join(' ');

/**
 * The report's parts from a job's steps (in order) and the rows it was handed (`JobSpec.report`). Each step's kind
 * says how it reads (step-kinds.ts: `expand` for a step standing for several records, `describe` for the fields that
 * name its record, `recordId` for its id before an outcome names one); a kind without `describe` shows its rows.
 * @throws UnknownStepKindError for a step whose kind has no handler registered (`loadReport` waits for them).
 */
export function buildReport(steps: Iterable<StepRecord>, handed: NonNullable<JobSpec['report']>): JobReport {
  const parts = Object.fromEntries(REPORT_PARTS.map((part) => [part, [] as Record<string, string>[]])) as Record<ReportPart, Record<string, string>[]>;
  const expand = (record: StepRecord): ReportedStep[] => {
    const handler = stepHandler(record.step.kind);
    return handler.expand ? handler.expand(record.step, record.outcome) : [{ step: record.step, outcome: record.outcome }];
  };
  for (const record of [...steps].flatMap(expand)) {
    const handler = stepHandler(record.step.kind);
    const fields = handler.describe ? handler.describe(record.step) : { rows: rowsText(record.step.rows) };
    const id = handler.recordId?.(record.step) ?? '';
    const outcome = record.outcome;
    if (!outcome) parts.notSent.push({ id, ...fields });
    else if (outcome.kind === 'created') parts.created.push({ ...fields, id: outcome.id, ...(outcome.recovered ? { note: t('jobs.noteRecovered') } : {}) });
    else if (outcome.kind === 'updated') parts.updated.push({ ...fields, id: outcome.id });
    else if (outcome.kind === 'tagged') parts.tagged.push({ id, ...fields, ...(outcome.matched !== undefined ? { matched: String(outcome.matched), changed: String(outcome.changed ?? 0) } : {}) });
    else if (outcome.kind === 'erased') {
      if (outcome.already) parts.alreadyErased.push({ id, note: t('jobs.noteAlreadyErased') });
      else parts.erased.push({ id });
    }
    else if (outcome.kind === 'batch') continue; // expanded above
    else if (outcome.kind === 'exists') parts.unchanged.push({ ...fields, id: outcome.id ?? '', reason: outcome.reason });
    else parts.failed.push({ id, ...fields, status: String(outcome.status), reason: outcome.reason });
  }
  const asAsked = t('jobs.noteAsAsked');
  for (const row of handed.unchanged ?? []) parts.unchanged.push({ rows: String(row), reason: asAsked });
  for (const record of handed.unchangedRecords ?? []) parts.unchanged.push({ id: record.id, contact: record.label, reason: asAsked });
  for (const refused of handed.refused ?? []) parts.refused.push({ rows: String(refused.row), reason: refused.reason, ...refused.values });
  noteWithoutPhone(parts, handed.withoutPhone ?? []);
  const table = (rows: Record<string, string>[]): ReportTable => {
    const columns: string[] = [];
    for (const row of rows) for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column);
    return { columns, rows };
  };
  return Object.fromEntries(REPORT_PARTS.map((part) => [part, table(parts[part])])) as JobReport;
}

/** Adds the `withoutPhone` reason to every report row whose `rows` (file rows, space-separated) hold a row of `notes`. */
function noteWithoutPhone(parts: Record<ReportPart, Record<string, string>[]>, notes: readonly RowNote[]) {
  if (!notes.length) return;
  const reasons = new Map(notes.map((note) => [note.row, note.reason]));
  for (const part of REPORT_PARTS) {
    if (part === 'refused') continue;
    for (const row of parts[part]) {
      const found = (row.rows ?? '').split(' ').flatMap((text) => reasons.get(Number(text)) ?? []);
      if (found.length) row.withoutPhone = found.join('; ');
    }
  }
}

/** Reads job `job`'s steps and handed rows from the store and builds its report. */
export async function loadReport(store: JobStore, job: Pick<JobRecord, 'id'>): Promise<JobReport> {
  await kindsReady();
  const steps: StepRecord[] = [];
  await store.eachStep(job.id, (step) => steps.push(step));
  return buildReport(steps, await store.getReport(job.id));
}

/** A report table as CSV text (see the module's comment); a leading BOM so spreadsheets read it as UTF-8. */
export function reportTableCsv(table: ReportTable): string {
  const data = table.rows.map((row) => table.columns.map((column) => guardCsvCell(row[column] ?? '', column === 'phone')));
  const text = Papa.unparse({ fields: table.columns.map((column) => guardCsvCell(column)), data }, { newline: '\r\n', escapeFormulae: false });
  return `\uFEFF${text.endsWith('\r\n') || !text ? text : `${text}\r\n`}`;
}
