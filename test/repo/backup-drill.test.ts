// The restore drill: a server takes its scheduled online backups while players' moves are being
// acknowledged; a kill -9 in the middle of one leaves only complete backups (the cut one is a
// temporary file, removed at the next start); the newest restored into a fresh DATA_DIR with
// `lucie restore` gives a database whose every game verifies with the engine and which holds
// every move acknowledged before that backup began.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../chaos/process.js';
import { backupStart, listBackups } from '../../server/backup.js';
import { closeDatabase, openDatabase } from '../../server/db/index.js';
import { makeRecord, verifyRecord, type VariantId } from '../../shared/index.js';
import { raceBots, type Bot } from '../support/bots.js';
import { layoutOf } from '../support/mirror.js';

const ROOT = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `lucie-${name}-`));
  dirs.push(dir);
  return dir;
};
let server: ServerProcess | undefined;
let bots: Bot[] = [];
afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop()));
  await server?.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Whether the SQLite file at `path` opens and passes its integrity check. */
function sound(path: string): boolean {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) === 'ok';
  } finally {
    db.close();
  }
}

describe('backups and a restore drill', () => {
  it('backs up while moves are acknowledged, survives kill -9 mid-backup, and restores every move acknowledged before the backup began', async () => {
    const dataDir = tempDir('drill-data');
    const backupDir = tempDir('drill-backups');
    // Ballast (20 MB) makes each backup take long enough for a kill to land inside one.
    const db = openDatabase(dataDir, { checkpoints: 'auto' });
    db.$client.exec('CREATE TABLE drill_ballast (b BLOB)');
    const insert = db.$client.prepare('INSERT INTO drill_ballast VALUES (randomblob(10000))');
    db.$client.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run();
    })();
    await closeDatabase(db);

    const env = { BACKUP_DIR: backupDir, BACKUP_INTERVAL_MIN: '0.01', BACKUP_KEEP: '50' };
    server = await startServer(dataDir, env);
    bots = await raceBots(server.base, 40, 20);
    for (const bot of bots) bot.start();
    // Enough moves acknowledged, then a backup begun after them and finished.
    const acks = () => bots.reduce((sum, bot) => sum + bot.acks, 0);
    while (acks() < 300) await sleep(50);
    const playedBy = Date.now();
    while (!listBackups(backupDir).some((file) => file.startedAt > playedBy)) await sleep(50);

    // kill -9 as soon as the next backup's temporary file appears, while the bots still play.
    const watcher = watch(backupDir);
    const cut = new Promise<string>((resolve) => watcher.on('change', (_event, name) => String(name).includes('.partial') && resolve(String(name))));
    const partialName = await cut;
    await server.kill('SIGKILL');
    watcher.close();
    await Promise.all(bots.map((bot) => bot.stop()));

    // Only complete backups carry a backup's name, each sound; the cut one is still a temporary file.
    const finished = listBackups(backupDir);
    expect(finished.length).toBeGreaterThanOrEqual(2);
    for (const file of finished) expect(sound(file.path), file.path).toBe(true);
    const names = readdirSync(backupDir);
    // The cut copy (and its rollback journal, when the kill came as it was being checked).
    const leftovers = names.filter((name) => backupStart(name) === undefined);
    expect(leftovers).toContain(partialName);
    for (const name of leftovers) expect(name.startsWith(partialName), name).toBe(true);
    expect(finished.map((file) => file.path)).not.toContain(join(backupDir, partialName));

    // The next start removes the leftover.
    server = await startServer(dataDir, env);
    for (const name of leftovers) expect(existsSync(join(backupDir, name)), name).toBe(false);
    await server.kill('SIGTERM');
    server = undefined;

    // Restore the newest finished backup taken before the kill into a fresh folder, with the CLI.
    const newest = finished[0]!;
    const fresh = tempDir('drill-restored');
    const restored = spawnSync(process.execPath, ['--import', 'tsx', 'cli/lucie.ts', 'restore', newest.path, fresh], { cwd: ROOT, encoding: 'utf8' });
    expect(restored.status, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ ok: true, restored: join(fresh, 'lucie.db'), keptAside: null });

    const copy = new Database(join(fresh, 'lucie.db'), { readonly: true, fileMustExist: true });
    const games = copy.prepare('SELECT id, variant, seed FROM games').all() as { id: number; variant: VariantId; seed: string }[];
    const dealsOf = copy.prepare('SELECT layout FROM game_deals WHERE game_id = ? ORDER BY k');
    const actionsOf = copy.prepare('SELECT action FROM game_actions WHERE game_id = ? ORDER BY action_index');
    expect(games.length).toBe(bots.length);
    let moves = 0;
    for (const game of games) {
      const deals = (dealsOf.all(game.id) as { layout: string }[]).map((row) => layoutOf(JSON.parse(row.layout) as string[]));
      const actions = (actionsOf.all(game.id) as { action: string }[]).map((row) => row.action);
      moves += actions.length;
      expect(verifyRecord(makeRecord({ variant: game.variant, seed: game.seed, deals, actions })), `game ${game.id}`).toMatchObject({ ok: true });
    }

    // Every move a player saw acknowledged before the backup began is in it; some came after (moves kept flowing).
    let before = 0;
    let after = 0;
    for (const bot of bots) {
      const stored = (actionsOf.all(bot.mirror.gameId) as { action: string }[]).map((row) => row.action);
      bot.ackedAt.forEach((at, index) => {
        if (at < newest.startedAt) {
          before++;
          expect(stored[index], `game ${bot.mirror.gameId} action ${index}`).toBe(bot.mirror.actions[index]);
        } else after++;
      });
    }
    copy.close();
    expect(before).toBeGreaterThanOrEqual(300);
    expect(after).toBeGreaterThan(0);
    expect(moves).toBeGreaterThanOrEqual(before);
  }, 240_000);
});
