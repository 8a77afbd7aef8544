// Backups (server/backup.ts): names, the retention rule, and a restore that never overwrites a live database.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupAgeSeconds, backupDatabase, backupName, backupStart, databaseInUse, listBackups, prune, removePartials, restoreBackup } from '../../server/backup.js';
import { closeDatabase, openDatabase } from '../../server/db/index.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-backup-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const T0 = Date.parse('2026-12-01T00:00:00.000Z');

describe('backup files', () => {
  it('are named by the time they began, to the millisecond, and only those names count as backups', () => {
    const at = Date.parse('2026-12-03T10:15:42.123Z');
    expect(backupName(at)).toBe('lucie-2026-12-03T10-15-42-123Z.db');
    expect(backupStart(backupName(at))).toBe(at);
    expect(backupStart('lucie-2026-12-03T10-15-42-123Z.db.partial-77')).toBeUndefined();
    expect(backupStart('lucie.db')).toBeUndefined();
  });

  it('keep the newest N and one per day for D days; temporary leftovers go, finished backups never', () => {
    const dir = tempDir();
    // Every 6 hours for 10 days, plus a cut one.
    for (let at = T0; at < T0 + 10 * 24 * HOUR; at += 6 * HOUR) writeFileSync(join(dir, backupName(at)), 'x');
    writeFileSync(join(dir, `${backupName(T0)}.partial-12`), 'half');
    const now = T0 + 10 * 24 * HOUR;
    prune(dir, 3, 4, now);
    const kept = listBackups(dir).map((file) => new Date(file.startedAt).toISOString());
    expect(kept).toEqual([
      '2026-12-10T18:00:00.000Z',
      '2026-12-10T12:00:00.000Z',
      '2026-12-10T06:00:00.000Z',
      '2026-12-09T18:00:00.000Z', // the newest of each of the 4 days before now
      '2026-12-08T18:00:00.000Z',
      '2026-12-07T18:00:00.000Z',
    ]);
    expect(backupAgeSeconds(dir, now)).toBe(6 * 3600);
    expect(removePartials(dir)).toBe(1);
    expect(readdirSync(dir)).toHaveLength(6);
  });
});

describe('restore', () => {
  it('refuses while a server has the database open, changing nothing; once it is closed, restores and keeps the old one aside', async () => {
    const live = tempDir();
    const db = openDatabase(live);
    db.$client.exec("INSERT INTO secrets (name, value, created_at) VALUES ('marker', 'before', 1)");
    const backup = join(tempDir(), 'copy.db');
    await backupDatabase(db.$client, backup);
    db.$client.exec("UPDATE secrets SET value = 'after' WHERE name = 'marker'");

    expect(databaseInUse(join(live, 'lucie.db'))).toBe(true);
    await expect(restoreBackup(backup, live, T0)).rejects.toThrow(/in use \(a server is running on it\): stop it first; nothing was changed/);
    expect(db.$client.prepare("SELECT value FROM secrets WHERE name = 'marker'").pluck().get()).toBe('after');
    expect(readdirSync(live).filter((name) => name.includes('restore'))).toEqual([]);

    await closeDatabase(db);
    expect(databaseInUse(join(live, 'lucie.db'))).toBe(false);
    const keptAside = await restoreBackup(backup, live, T0);
    expect(keptAside).toBe(join(live, 'lucie.db.before-restore-2026-12-01T00-00-00-000Z'));
    expect(existsSync(keptAside!)).toBe(true);
    const restored = openDatabase(live);
    expect(restored.$client.prepare("SELECT value FROM secrets WHERE name = 'marker'").pluck().get()).toBe('before');
    await closeDatabase(restored);
  });
});
