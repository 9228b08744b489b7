/**
 * The contacts import's words for the shared file reader (src/lib/import/read-file.ts, issue 38 point 4): the
 * `contacts-import` catalog's sentences for a stopped reader, a file that could not be read and a parse problem,
 * for the dialog's first look (import-contacts-dialog.tsx) and the plan worker's failures (plan-client.ts).
 */
import { t } from '@/i18n/i18n';
import type { ParseProblem } from '@/lib/import/file-rows';
import type { ReadTexts } from '@/lib/import/read-file';

/** A worker's failure to read a file, in words in the language shown (the shared read-worker.ts and plan-worker.ts send it). */
export function readFailure({ format, detail }: { format: 'csv' | 'xlsx'; detail: string }): Error {
  return new Error(failureText(format, detail));
}

function failureText(format: 'csv' | 'xlsx', detail: string): string {
  return t(format === 'xlsx' ? 'contacts-import.notWorkbook' : 'contacts-import.fileUnreadable', { detail });
}

/** A Papa Parse problem in words (the codes of Papa Parse 5's `ParseError`); an unknown code gets a general sentence. */
function problemText({ code, row }: ParseProblem): string {
  return t('contacts-import.parseProblem', { code, row: row ?? 0, hasRow: row === null ? 'no' : 'yes' });
}

/** The `ReadTexts` of the contacts import. */
export const contactReadTexts: ReadTexts = { stopped: () => t('contacts-import.readerStopped'), failure: failureText, problem: problemText };
