// Backups of the SQLite database, online: SQLite's backup API copies a consistent snapshot page
// by page while the server keeps committing moves. A backup is written under a temporary name
// and renamed once complete and checked, so a crash (kill -9 included) never leaves a file that
// looks like a backup but is not one; temporary leftovers are removed at the next start.
// No HTTP here: the server schedules backups (plugins/backups.ts), the CLI takes and restores them.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from './db/index.js';

/** A finished backup's name: `lucie-` and the UTC time it began, to the millisecond. */
const BACKUP_NAME = /^lucie-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)\.db$/;
const PARTIAL = '.partial';

export const backupName = (startedAt: number): string => `lucie-${new Date(startedAt).toISOString().replace(/[:.]/g, '-')}.db`;

/** When a backup named by `backupName` began, or undefined for any other file. */
export function backupStart(name: string): number | undefined {
  const stamp = BACKUP_NAME.exec(name)?.[1];
  if (stamp === undefined) return undefined;
  const [day, time] = stamp.split('T') as [string, string];
  const [h, m, s, ms] = time.slice(0, -1).split('-');
  return Date.parse(`${day}T${h}:${m}:${s}.${ms}Z`);
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the database `source` (an open connection, or a file) to `target`: a consistent
 * snapshot of what was committed when the copy began, checked, synced, then renamed into place.
 */
export async function backupDatabase(source: Database.Database | string, target: string): Promise<void> {
  const partial = `${target}${PARTIAL}-${process.pid}`;
  const db = typeof source === 'string' ? new Database(source, { readonly: true, fileMustExist: true }) : source;
  try {
    await db.backup(partial);
    const copy = new Database(partial, { fileMustExist: true });
    try {
      // The copy keeps the source's WAL mode: one file is easier to keep, move and restore.
      copy.pragma('journal_mode = DELETE');
      const [check] = copy.pragma('quick_check') as { quick_check: string }[];
      if (check?.quick_check !== 'ok') throw new Error(`the copy failed its check: ${check?.quick_check}`);
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncPath(dirname(target));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    if (typeof source === 'string') db.close();
  }
}

export interface BackupFile {
  path: string;
  startedAt: number;
}

/** The finished backups in `dir`, newest first. */
export function listBackups(dir: string): BackupFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ path: join(dir, name), startedAt: backupStart(name) }))
    .filter((file): file is BackupFile => file.startedAt !== undefined)
    .sort((a, b) => b.startedAt - a.startedAt);
}

/** Removes what a backup cut short left in `dir` (never a finished backup). */
export function removePartials(dir: string): number {
  if (!existsSync(dir)) return 0;
  const partials = readdirSync(dir).filter((name) => name.includes(`.db${PARTIAL}-`));
  for (const name of partials) rmSync(join(dir, name), { force: true });
  return partials.length;
}

/**
 * The retention rule: the newest `keep` backups stay, and among older ones one per UTC day for
 * `days` days (a bad change noticed late can still be undone); the rest are deleted.
 */
export function prune(dir: string, keep: number, days: number, now: number): string[] {
  const removed: string[] = [];
  const daysKept = new Set<string>();
  for (const [rank, file] of listBackups(dir).entries()) {
    const day = new Date(file.startedAt).toISOString().slice(0, 10);
    const recentDay = now - file.startedAt < days * 86_400_000;
    if (rank < keep) {
      daysKept.add(day);
      continue;
    }
    if (recentDay && !daysKept.has(day)) {
      daysKept.add(day);
      continue;
    }
    rmSync(file.path, { force: true });
    removed.push(basename(file.path));
  }
  return removed;
}

/** Whether some process has the database open (a running server): it then holds a lock no exclusive reader can take. */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const probe = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    probe.close();
  }
}

/**
 * Puts the backup `file` in place as `dataDir`'s database. Refused while a server has the
 * database open; a stopped database already there is kept beside it, renamed
 * `lucie.db.before-restore-TIME`, never overwritten. Resolves to that name, if any.
 */
export async function restoreBackup(file: string, dataDir: string, now: number): Promise<string | undefined> {
  const target = join(dataDir, DB_FILE);
  if (databaseInUse(target)) throw new Error(`${target} is in use (a server is running on it): stop it first; nothing was changed`);
  const source = new Database(file, { readonly: true, fileMustExist: true });
  const partial = `${target}${PARTIAL}-${process.pid}`;
  try {
    const [result] = source.pragma('quick_check') as { quick_check: string }[];
    if (result?.quick_check !== 'ok') throw new Error(`${file} is not a sound database (${result?.quick_check}); nothing was changed`);
    // SQLite's backup again: a consistent copy even if the file came with a journal.
    await source.backup(partial);
    fsyncPath(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
  let keptAside: string | undefined;
  if (existsSync(target)) {
    // A stopped database: a last open and close checkpoints its log into it, then it is kept aside whole.
    new Database(target).close();
    keptAside = `${target}.before-restore-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, keptAside);
  }
  for (const extra of ['-wal', '-shm']) rmSync(`${target}${extra}`, { force: true });
  renameSync(partial, target);
  fsyncPath(dataDir);
  return keptAside;
}

/** Seconds since the newest finished backup in `dir` began, or undefined when there is none. */
export function backupAgeSeconds(dir: string, now: number): number | undefined {
  const newest = listBackups(dir)[0];
  return newest === undefined ? undefined : Math.max(0, (now - newest.startedAt) / 1000);
}

