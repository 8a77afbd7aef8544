// `npm start` as a supervisor runs it: it builds, then the server is the very process npm
// started (no wrapper between them), it serves the build's precompressed assets, after a
// kill -9 of npm or of the server nothing is left running or holding the port, and a signal to
// its process group always stops it gracefully (below).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../browser/helpers.js';
import { raceBots, type Bot } from '../support/bots.js';

const ROOT = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started: ChildProcess[] = [];
const dirs: string[] = [];

/** Every live process whose parent is `pid`, with its command line. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) === pid && state !== 'Z') {
        found.push({ pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

async function until(what: string, condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const portFree = async (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** `npm start` on a free port and a fresh data folder; resolves once the server answers, with its pid. */
async function npmStart(): Promise<{ npm: ChildProcess; server: number; base: string; port: number; log: () => string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-start-'));
  dirs.push(dataDir);
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(npm);
  let log = '';
  npm.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  await until('the server answers /api/health', () => fetch(`${base}/api/health`).then((answer) => answer.ok, () => false), 120_000);
  const children = childrenOf(npm.pid!);
  // The shell of the script replaced itself with the server (exec): one child, and it is node.
  expect(children.map((child) => child.command)).toEqual(['node dist/app/server/main.js']);
  return { npm, server: children[0]!.pid, base, port, log: () => log };
}

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('builds, runs the compiled server as npm’s own child, serves precompressed immutable assets, and dies with npm on kill -9', async () => {
    // Built afresh here, under the test runner's NODE_ENV=test: what ships is the production build
    // all the same (a development build registers no service worker).
    rmSync(join(ROOT, 'dist', 'client.sources-digest'), { force: true });
    const { npm, server, base, port, log } = await npmStart();
    const assets = join(ROOT, 'dist', 'app', 'dist', 'client', 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.filter((name) => /register\(.\/sw\.js.\)/.test(readFileSync(join(assets, name), 'utf8'))), 'the script that registers the worker').toHaveLength(1);
    const page = await fetch(`${base}/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect([asset.status, asset.headers.get('content-encoding'), asset.headers.get('cache-control')]).toEqual([
      200,
      'br',
      'public, max-age=31536000, immutable',
    ]);

    // The compiled server finds every file it needs (worker scripts, migrations): no error logged.
    expect(log()).not.toMatch(/"level":(50|60)/);

    process.kill(npm.pid!, 'SIGKILL');
    await until('the server exits after npm was killed', () => !alive(server), 10_000);
    await until('the port is free again', () => portFree(port), 5_000);
  }, 120_000);

  it('leaves nothing behind when the server itself is killed: npm exits with it', async () => {
    const { npm, server, port } = await npmStart();
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    process.kill(server, 'SIGKILL');
    expect(await exited).not.toBe(0);
    expect(alive(server)).toBe(false);
    expect(await portFree(port)).toBe(true);
  }, 120_000);

  it('stops cleanly on SIGTERM sent to npm, the way a supervisor stops it', async () => {
    const { npm, server } = await npmStart();
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    process.kill(npm.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    await until('the server exits', () => !alive(server), 10_000);
  }, 120_000);
});

// In the same file as the tests above, so that no two `npm start` builds of dist/ run at once.
// A stop is graceful however it is asked: `npm start` in its own process group, stopped ten
// times in a row by a signal to the whole group (as systemd's KillMode=control-group and
// `kill -TERM -- -PGID` do, so npm and node both hear it, and npm forwards it once more), half of
// the times while a few hundred players reconnect and play. Every stop must exit 0 having
// closed the database (the WAL checkpointed into it and removed), with every acknowledged move stored.
const ROUNDS = 10;
const BOTS = 200;


/** How each round asks: the signal, and whether it is sent to the group a second time within the grace period. */
function askOf(round: number): { signal: NodeJS.Signals; twice: boolean } {
  return { signal: round % 3 === 2 ? 'SIGINT' : 'SIGTERM', twice: round % 4 >= 2 };
}

describe('stopping npm start with a signal to its process group', () => {
  let bots: Bot[] = [];
  afterAll(async () => Promise.all(bots.map((bot) => bot.stop())));

  it(`is graceful ${ROUNDS} times in a row, half of them under load: exit 0, database closed, WAL checkpointed, no acknowledged move lost`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lucie-stop-'));
    dirs.push(dataDir);
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
        // 'close', not 'exit': the server's last log lines may still be in the pipe when npm exits.
        npm.once('close', (code, killedBy) => resolve({ code, killedBy })),
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
          bots = await raceBots(base, BOTS, 250);
          for (const bot of bots) bot.start();
        }
        // The bots left from the last loaded round reconnect by themselves and play on (until
        // half as many acks as bots came in this round); then a network blip drops every socket
        // at once, and the stop comes in the middle of their reconnecting.
        const acks = () => bots.reduce((sum, bot) => sum + bot.acks, 0);
        const playing = Date.now() + 60_000;
        while (acks() < acksBefore + BOTS / 2 && Date.now() < playing) await sleep(100);
        for (const bot of bots) bot.drop();
        await sleep(50 + 50 * round);
      }
      const { signal, twice } = askOf(round);
      process.kill(-npm.pid!, signal);
      if (twice) {
        await sleep(150);
        try {
          process.kill(-npm.pid!, signal);
        } catch {
          // The group has already exited: nothing left to ask twice.
        }
      }
      const { code, killedBy } = await exited;

      const why = `round ${round} (${signal}${twice ? ' twice' : ''}${loaded ? ', under load' : ''}):\n${log.slice(-3000)}`;
      // The server's own exit: 0, after closing the database.
      expect(log, why).toMatch(/"msg":"database closed"/);
      expect(log, why).toMatch(/"exitCode":0,"msg":"stopped"/);
      // npm's: 0, or the second signal itself when it came after the server had exited, as npm
      // stops forwarding signals once its script is over (then a further one ends npm at once).
      if (code !== 0) expect({ code, killedBy }, why).toEqual({ code: null, killedBy: twice ? signal : 'none' });
      expect(log, why).not.toMatch(/"level":(50|60)/);
      const wal = join(dataDir, 'lucie.db-wal');
      expect(existsSync(wal) ? statSync(wal).size : 0, why).toBe(0);
      if (loaded) expect(bots.reduce((sum, bot) => sum + bot.acks, 0), `${why}\ntoo few moves acknowledged in this round`).toBeGreaterThanOrEqual(acksBefore + BOTS / 2);
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
