/**
 * Backups of the SQLite database (issue 37 point 1; docs/deploy.md "Backups", where PostgreSQL's pg_dump is
 * described). Used by the command line (`cli backup --to FILE`, `cli restore --from FILE`).
 * - `backupSqlite(source, to)`: `VACUUM INTO` through better-sqlite3 on a connection of its own: one read
 *   transaction, so the copy is the database as it was at one instant (every write committed before it began,
 *   none after), and in WAL mode (connection.ts) a reader never blocks writers, so the service keeps writing.
 *   Refuses an existing `to` (SQLite would too). Returns the copy's size in bytes and the time taken in ms.
 * - `restoreSqlite(from, target)`: runs `PRAGMA integrity_check` on `from` first (throws, touching nothing,
 *   unless it answers `ok`), then copies it beside `target` and renames it over `target`, removing `target`'s
 *   `-wal` and `-shm` files. The service must be stopped: a process holding `target` open would keep writing
 *   to the old file.
 * Errors are `Error`s with a sentence for the operator (the command line prints it, exit code 1).
 */
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';

/** Copies the live SQLite database at `source` into the new file `to`. */
export function backupSqlite(source: string, to: string): { file: string; bytes: number; ms: number } {
  const file = resolve(to);
  if (existsSync(file)) throw new Error(`${file} already exists: backup writes a new file`);
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  const started = performance.now();
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    database.prepare('vacuum into ?').run(file);
  } finally {
    database.close();
  }
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - started) };
}

/** Puts the backup `from` in place of the SQLite database `target` after checking its integrity. */
export function restoreSqlite(from: string, target: string): { restored: string; from: string; integrity: 'ok' } {
  const source = resolve(from);
  if (!existsSync(source)) throw new Error(`no backup at ${source}`);
  const check = new SQLite(source, { readonly: true, fileMustExist: true });
  let integrity: unknown;
  try {
    integrity = check.pragma('integrity_check', { simple: true });
  } catch (error) {
    throw new Error(`${source} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    check.close();
  }
  if (integrity !== 'ok') throw new Error(`${source} failed its integrity check (${String(integrity)}): nothing restored`);
  const destination = resolve(target);
  const staging = `${destination}.restoring`;
  copyFileSync(source, staging);
  for (const suffix of ['-wal', '-shm']) rmSync(`${destination}${suffix}`, { force: true });
  renameSync(staging, destination);
  return { restored: destination, from: source, integrity: 'ok' };
}
