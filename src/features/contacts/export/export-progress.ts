/**
 * The export's progress against `meta.maxResults` (issue 13), as a percent and a line of text:
 * - CSV: rows are counted as the stream arrives (line ends outside quotes, `csvRecordCounter` in
 *   src/api/csv-records.ts): rows of total, the percent, the bytes, and the time left at the rate so far;
 * - xlsx: the workbook is a zip, compressed as it streams, so its rows cannot be counted before it is complete. It
 *   shows the bytes received and a percent estimated from them at `XLSX_BYTES_PER_ROW` (measured: 157 bytes a row
 *   for 500 to 20,000 generated contacts), labelled as an estimate and held below 100% until the file is complete.
 * Texts: the `contacts-export` catalog, numbers and percents through Intl in the language shown (issue 23).
 */
import type { DownloadFormat } from '@/api/download';
import { formatNumber } from '@/i18n/format';
import { t } from '@/i18n/i18n';
import { durationText } from '@/lib/duration';

/** Bytes an xlsx export takes per contact, for the estimate (see the module's comment). */
export const XLSX_BYTES_PER_ROW = 160;

export type ExportJob = { format: DownloadFormat; bytes: number; rows: number | null; startedAt: number };

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024
    ? t('contacts-export.sizeKb', { size: formatNumber(Math.round(bytes / 1024)) })
    : t('contacts-export.sizeMb', { size: formatNumber(bytes / 1024 / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
/** A fraction (0..1) as a whole percent rounded down: `25%` (`25 %` in nb-NO). */
const percentText = (fraction: number) => formatNumber(Math.floor(fraction * 100) / 100, { style: 'percent', maximumFractionDigits: 0 });

/** The progress line and the bar's percent for a job of `total` rows, at `now`. */
export function exportProgress(job: ExportJob, total: number, now: number): { percent: number; text: string; estimated: boolean } {
  const elapsed = (now - job.startedAt) / 1000;
  const left = (fraction: number) => (fraction > 0.02 && elapsed >= 1 && fraction < 1 ? t('contacts-export.left', { duration: durationText((elapsed / fraction) * (1 - fraction)) }) : '');
  if (job.rows !== null) {
    const fraction = total ? Math.min(1, job.rows / total) : 0;
    return {
      percent: fraction * 100,
      text: t('contacts-export.csvProgress', { rows: job.rows, total, percent: percentText(fraction), size: sizeText(job.bytes), left: left(fraction) }),
      estimated: false,
    };
  }
  const fraction = total ? Math.min(0.99, job.bytes / (total * XLSX_BYTES_PER_ROW)) : 0;
  return {
    percent: fraction * 100,
    text: t('contacts-export.xlsxProgress', { size: sizeText(job.bytes), percent: percentText(fraction), left: left(fraction) }),
    estimated: true,
  };
}
