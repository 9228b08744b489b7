/**
 * The exports of bench:api against their floor (issue 16): `bench/export-floor.mjs`, a bare `node:http` server
 * over the same database running the same SQL, started as a child process beside the service. Runs interleaved
 * rounds (floor CSV, our CSV, our xlsx; at least 3 rounds, so A B A B), checks every CSV body of ours is
 * byte-identical to the floor's (SHA-256), and reports the medians: ours / floor for CSV and xlsx (goals 1.2 and
 * 2.5) and the serving process's peak RSS during a single export (goal under 200 MB; for CSV the first round's).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { CompiledQuery } from 'kysely';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../src/api/contacts';
import { type ExportResult, measureExport } from './measure';

/** Goals of issue 16 for an export of 1,000,000 contacts. */
export const EXPORT_GOALS = { csvRatio: 1.2, xlsxRatio: 2.5, peakRssBytes: 200e6 } as const;

export type ExportFloor = { origin: string; pid: number; stop(): Promise<void> };

/**
 * Starts `bench/export-floor.mjs` (in `cwd`) over `databaseUrl` (an SQLite file or a `postgres://` URL) with
 * `query` (the service's export SQL and parameters) on a free loopback port; resolves once it listens. Rejects
 * when it exits first or does not listen within 30 s.
 */
export function startExportFloor(options: { cwd: string; databaseUrl: string; query: CompiledQuery }): Promise<ExportFloor> {
  const child: ChildProcess = spawn(process.execPath, ['bench/export-floor.mjs'], {
    cwd: options.cwd,
    env: {
      ...process.env,
      EXPORT_FLOOR_DATABASE: options.databaseUrl,
      EXPORT_FLOOR_SQL: options.query.sql,
      EXPORT_FLOOR_PARAMS: JSON.stringify(options.query.parameters),
      EXPORT_FLOOR_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`the export floor did not listen in time:\n${output}`))), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({ origin: `http://127.0.0.1:${port}`, pid: child.pid as number, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the export floor exited (code ${code}):\n${output}`));
    });
  });
}

export type ExportRound = { floor: ExportResult; csv: ExportResult; xlsx: ExportResult };

export type ExportComparison = {
  rounds: ExportRound[];
  /**
   * Medians over the rounds: seconds of each, ours / floor of each round, and peak RSS of the serving processes
   * (for our CSV, the first round's: an xlsx export leaves the process larger for the exports after it).
   */
  floorSeconds: number;
  csvSeconds: number;
  xlsxSeconds: number;
  csvRatio: number;
  xlsxRatio: number;
  csvPeakRssBytes: number;
  xlsxPeakRssBytes: number;
  floorPeakRssBytes: number;
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * `runs` interleaved rounds of: the floor's CSV, our CSV (`serviceUrl` with `apiKey`), our xlsx (written to
 * `xlsxFile`, its rows counted, then removed), each downloaded by `measureExport` while the RSS of its serving
 * process is sampled. Throws when our CSV differs from the floor's by a byte, or any answer is not a 200.
 */
export async function compareExports(options: {
  floor: ExportFloor;
  serviceUrl: string;
  apiKey: string;
  servicePid: number;
  runs: number;
  xlsxFile: string;
  log: (line: string) => void;
}): Promise<ExportComparison> {
  const { floor, serviceUrl, apiKey, servicePid, runs, xlsxFile, log } = options;
  const rounds: ExportRound[] = [];
  const show = (name: string, result: ExportResult) =>
    log(`  ${name}: ${result.seconds.toFixed(1)} s, ${result.bytes.toLocaleString('en-US')} bytes, ${result.rows.toLocaleString('en-US')} rows, peak RSS ${(result.peakRssBytes / 1e6).toFixed(0)} MB`);
  for (let run = 1; run <= runs; run++) {
    log(`export round ${run} of ${runs}:`);
    const floorResult = await measureExport(`${floor.origin}/`, '', CSV_MEDIA_TYPE, floor.pid);
    show('floor CSV', floorResult);
    const csv = await measureExport(serviceUrl, apiKey, CSV_MEDIA_TYPE, servicePid);
    show('our CSV  ', csv);
    if (csv.sha256 !== floorResult.sha256 || csv.bytes !== floorResult.bytes) {
      throw new Error(`our CSV (${csv.bytes} bytes, sha256 ${csv.sha256}) differs from the floor's (${floorResult.bytes} bytes, sha256 ${floorResult.sha256}): the comparison would not be fair`);
    }
    const xlsx = await measureExport(serviceUrl, apiKey, XLSX_MEDIA_TYPE, servicePid, xlsxFile);
    rmSync(xlsxFile, { force: true });
    show('our xlsx ', xlsx);
    rounds.push({ floor: floorResult, csv, xlsx });
  }
  const floorSeconds = median(rounds.map((round) => round.floor.seconds));
  const csvSeconds = median(rounds.map((round) => round.csv.seconds));
  const xlsxSeconds = median(rounds.map((round) => round.xlsx.seconds));
  return {
    rounds,
    floorSeconds,
    csvSeconds,
    xlsxSeconds,
    // Each round's own ratio (its floor ran just before it), then the median: a slow moment of the shared machine
    // during one download skews one round, not every ratio.
    csvRatio: median(rounds.map((round) => round.csv.seconds / round.floor.seconds)),
    xlsxRatio: median(rounds.map((round) => round.xlsx.seconds / round.floor.seconds)),
    // One CSV export in a process: the first round's, before any xlsx export (which leaves the process larger).
    csvPeakRssBytes: rounds[0]?.csv.peakRssBytes ?? 0,
    xlsxPeakRssBytes: median(rounds.map((round) => round.xlsx.peakRssBytes)),
    floorPeakRssBytes: median(rounds.map((round) => round.floor.peakRssBytes)),
  };
}

/** The comparison as markdown: one row per round, then the medians against the goals of issue 16. */
export function exportComparisonLines(comparison: ExportComparison): string[] {
  const s = (seconds: number) => seconds.toFixed(1);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  const { rounds } = comparison;
  const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
  return [
    `Exports against the floor (bench/export-floor.mjs: a bare node:http loop over the same database and SQL; our CSV byte-identical to its, checked every round), ${rounds.length} interleaved rounds:`,
    '',
    '| round | floor CSV s | our CSV s | our xlsx s | CSV / floor | xlsx / floor | peak RSS MB: floor / CSV / xlsx |',
    '|---:|---:|---:|---:|---:|---:|---|',
    ...rounds.map(
      ({ floor, csv, xlsx }, index) =>
        `| ${index + 1} | ${s(floor.seconds)} | ${s(csv.seconds)} | ${s(xlsx.seconds)} | ${(csv.seconds / floor.seconds).toFixed(2)} | ${(xlsx.seconds / floor.seconds).toFixed(2)} | ${mb(floor.peakRssBytes)} / ${mb(csv.peakRssBytes)} / ${mb(xlsx.peakRssBytes)} |`,
    ),
    '',
    '| median | value | goal | result |',
    '|---|---:|---|---|',
    `| CSV / floor (median of the rounds' ratios; median seconds ours / floor) | ${comparison.csvRatio.toFixed(2)} (${s(comparison.csvSeconds)} s / ${s(comparison.floorSeconds)} s) | <= ${EXPORT_GOALS.csvRatio} | ${verdict(comparison.csvRatio <= EXPORT_GOALS.csvRatio)} |`,
    `| xlsx / floor (same) | ${comparison.xlsxRatio.toFixed(2)} (${s(comparison.xlsxSeconds)} s / ${s(comparison.floorSeconds)} s) | <= ${EXPORT_GOALS.xlsxRatio} | ${verdict(comparison.xlsxRatio <= EXPORT_GOALS.xlsxRatio)} |`,
    `| server peak RSS, one CSV export (round 1: before any xlsx export in the process) | ${mb(comparison.csvPeakRssBytes)} MB | < ${mb(EXPORT_GOALS.peakRssBytes)} MB | ${verdict(comparison.csvPeakRssBytes < EXPORT_GOALS.peakRssBytes)} |`,
    `| server peak RSS, one xlsx export (median) | ${mb(comparison.xlsxPeakRssBytes)} MB | < ${mb(EXPORT_GOALS.peakRssBytes)} MB | ${verdict(comparison.xlsxPeakRssBytes < EXPORT_GOALS.peakRssBytes)} |`,
    `| floor peak RSS | ${mb(comparison.floorPeakRssBytes)} MB | — | — |`,
    '',
  ];
}
