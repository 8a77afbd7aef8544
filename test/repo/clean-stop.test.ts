// A stop is graceful however it is asked: `npm start` in its own process group, stopped ten
// times in a row by a signal to the whole group (as systemd's KillMode=control-group and
// `kill -TERM -- -PGID` do, so npm and node both hear it, and npm forwards it once more), half of
// the times while a few hundred players reconnect and play. Every stop must exit 0 having
// closed the database (the WAL checkpointed into it and removed), with every acknowledged move stored.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { raceBots, type Bot } from '../support/bots.js';
import { freePort } from '../browser/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ROUNDS = 10;
const BOTS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'lucie-stop-'));
let bots: Bot[] = [];

afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** How each round asks: the signal, and whether it is sent to the group a second time within the grace period. */
function askOf(round: number): { signal: NodeJS.Signals; twice: boolean } {
  return { signal: round % 3 === 2 ? 'SIGINT' : 'SIGTERM', twice: round % 4 >= 2 };
}

describe('stopping npm start with a signal to its process group', () => {
  it(`is graceful ${ROUNDS} times in a row, half of them under load: exit 0, database closed, WAL checkpointed, no acknowledged move lost`, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    for (let round = 0; round < ROUNDS; round++) {
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        detached: true, // its own process group, whose id is npm's pid
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMITS: 'off', COUNTDOWN_MS: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      npm.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      npm.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise<{ code: number | null; killedBy: NodeJS.Signals | null }>((resolve) =>
        npm.once('exit', (code, killedBy) => resolve({ code, killedBy })),
      );
      const deadline = Date.now() + 120_000;
      while (!(await fetch(`${base}/api/health`).then((answer) => answer.ok, () => false))) {
        if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`round ${round}: the server did not start\n${log}`);
        await sleep(100);
      }

      const loaded = round % 2 === 1;
      const acksBefore = bots.reduce((sum, bot) => sum + bot.acks, 0);
      if (loaded) {
        if (bots.length === 0) {
          bots = await raceBots(base, BOTS, 100);
          for (const bot of bots) bot.start();
        }
        // The bots left from the last loaded round reconnect by themselves; then a network blip
        // drops every socket at once, and the stop comes in the middle of their reconnecting.
        await sleep(1500);
        for (const bot of bots) bot.drop();
        await sleep(50 + 50 * round);
      }
      const { signal, twice } = askOf(round);
      process.kill(-npm.pid!, signal);
      if (twice) {
        await sleep(150);
        if (npm.exitCode === null) process.kill(-npm.pid!, signal);
      }
      const { code, killedBy } = await exited;

      const why = `round ${round} (${signal}${twice ? ' twice' : ''}${loaded ? ', under load' : ''}):\n${log.slice(-3000)}`;
      // The server's own exit: 0, after closing the database.
      expect(log, why).toMatch(/"msg":"database closed"[^]*"exitCode":0,"msg":"stopped"/);
      // npm's: 0, or the second signal itself when it came after the server had exited, as npm
      // stops forwarding signals once its script is over (then a further one ends npm at once).
      if (code !== 0) expect({ code, killedBy }, why).toEqual({ code: null, killedBy: twice ? signal : 'none' });
      expect(log, why).not.toMatch(/"level":(50|60)/);
      const wal = join(dataDir, 'lucie.db-wal');
      expect(existsSync(wal) ? statSync(wal).size : 0, why).toBe(0);
      if (loaded) expect(bots.reduce((sum, bot) => sum + bot.acks, 0), `${why}\nno move was acknowledged in this round`).toBeGreaterThan(acksBefore);
    }

    // Every move a bot saw acknowledged, over all the stops, is stored at its index.
    await Promise.all(bots.map((bot) => bot.stop()));
    const db = new Database(join(dataDir, 'lucie.db'), { readonly: true });
    const stored = db.prepare('SELECT action FROM game_actions WHERE game_id = ? ORDER BY action_index');
    let acked = 0;
    for (const bot of bots) {
      const actions = (stored.all(bot.mirror.gameId) as { action: string }[]).map((row) => row.action);
      expect(actions.slice(0, bot.mirror.actions.length)).toEqual(bot.mirror.actions);
      acked += bot.mirror.actions.length;
    }
    db.close();
    expect(acked).toBeGreaterThan(BOTS);
  }, 600_000);
});
