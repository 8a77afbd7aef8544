// Durability: a real server process killed with SIGKILL loses no acknowledged action, and the
// race carries on after a restart; SIGTERM shuts down cleanly. In-process restarts cover the
// timers (countdown, time limit) that must survive too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import type { RaceView } from '../../contract/index.js';
import { Client, ManualClock, Mirror, play, api, createPlayer, createRace, type TestPlayer } from './helpers.js';

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-restart-'));
  dirs.push(dir);
  return dir;
}

interface Running {
  child: ChildProcess;
  base: string;
  wsBase: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node --import tsx server/main.ts` on a free port and waits until it listens. */
async function startProcess(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, COUNTDOWN_MS: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, wsBase: `ws://127.0.0.1:${port}`, output: () => output, exited };
}

async function http(base: string, method: string, path: string, player?: TestPlayer, body?: object) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(player && { authorization: `Bearer ${player.token}` }), ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  return response.json();
}

async function newPlayer(base: string, name: string): Promise<TestPlayer> {
  const { player, token } = await http(base, 'POST', '/api/players', undefined, { name });
  return { ...player, token };
}

describe('restart durability with a real process', () => {
  it('keeps every acknowledged action through kill -9, carries the race on, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    let server = await startProcess(dataDir);
    const ana = await newPlayer(server.base, 'Ana');
    const bob = await newPlayer(server.base, 'Bob');
    const { race } = (await http(server.base, 'POST', '/api/races', ana, { seats: 2 })) as { race: RaceView };
    await http(server.base, 'POST', `/api/races/${race.code}/join`, bob);
    // A known deal, so the moves below are the same on every run (WAL lets us write beside the server).
    const seeding = new Database(join(dataDir, 'lucie.db'));
    seeding.prepare('update races set seed = ? where code = ?').run('s0', race.code);
    seeding.close();
    let a = await Client.connect(server.wsBase, ana);
    a.send({ type: 'watch', code: race.code });
    await http(server.base, 'POST', `/api/races/${race.code}/start`, ana);
    const game = await a.next('game');
    const mirror = Mirror.of(game);
    const acks = [];
    for (let i = 0; i < 8; i++) acks.push(await play(a, mirror, mirror.choose()!));
    // A redeal too, so its layout must survive as well.
    acks.push(await play(a, mirror, { type: 'redeal' }));
    acks.push(await play(a, mirror, mirror.choose()!));

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    expect(server.output()).not.toContain(ana.token);
    expect(server.output()).toContain('token=[redacted]');

    server = await startProcess(dataDir);
    a = await Client.connect(server.wsBase, ana);
    a.send({ type: 'resync', gameId: game.gameId, lastIndex: 3 });
    const resynced = await a.next('resynced');
    expect(resynced.acks).toEqual(acks.slice(4).map(({ type: _type, ...ack }) => ack));
    expect(resynced.status).toMatchObject({ state: 'playing', nextIndex: acks.length, redealsUsed: mirror.position.redealsUsed });
    expect(resynced.acks.filter((ack) => ack.layout)).toHaveLength(1);
    a.send({ type: 'watch', code: race.code });
    expect((await a.next('race')).race.state).toBe('running');
    expect((await a.next('game')).actions).toEqual(mirror.actions);
    // Resending the last action before the crash gets the same ack; the race goes on.
    const last = acks[acks.length - 1]!;
    a.send({ type: 'action', gameId: game.gameId, index: last.index, action: last.action });
    expect(await a.next('ack')).toEqual(last);
    await play(a, mirror, mirror.choose()!);

    server.child.kill('SIGTERM');
    expect(await a.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('database closed');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
    // Closed cleanly: the write-ahead log was checkpointed into the database file.
    const wal = join(dataDir, 'lucie.db-wal');
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const db = new Database(join(dataDir, 'lucie.db'), { readonly: true });
    const stored = db.prepare('select action from game_actions where game_id = ? order by action_index').all(game.gameId);
    db.close();
    expect(stored.map((row) => (row as { action: string }).action)).toEqual(mirror.actions);
  });
});

describe('timers across an in-process restart', () => {
  it('deals a race whose countdown was running when the server stopped, and keeps its time limit', async () => {
    const dataDir = tempDir();
    const clock = new ManualClock();
    let app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, clock, countdownMs: 3000 });
    await app.ready();
    const ana = await createPlayer(app, 'Ana');
    const bob = await createPlayer(app, 'Bob');
    const { code } = await createRace(app, ana, { seats: 2, timeLimitSeconds: 60 });
    await api(app, 'POST', `/api/races/${code}/join`, bob);
    const startsAt = (await api(app, 'POST', `/api/races/${code}/start`, ana)).body.race.startsAt;
    await app.close();

    clock.jump(10_000);
    app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, clock, countdownMs: 3000 });
    await app.ready();
    clock.advance(0);
    const running = (await api(app, 'GET', `/api/races/${code}`)).body.race as RaceView;
    expect(running).toMatchObject({ state: 'running', startsAt, endsAt: startsAt + 60_000 });
    expect(running.progress.map((entry) => entry.status)).toEqual(['disconnected', 'disconnected']);
    await app.close();

    // Down past the time limit: the games end at the limit and the race finishes on start.
    clock.jump(120_000);
    app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, clock, countdownMs: 3000 });
    await app.ready();
    clock.advance(0);
    const finished = (await api(app, 'GET', `/api/races/${code}`)).body.race as RaceView;
    expect(finished).toMatchObject({ state: 'finished', finishedAt: startsAt + 60_000 });
    expect(finished.standings!.map((standing) => [standing.rank, standing.state])).toEqual([
      [1, 'timed-out'],
      [1, 'timed-out'],
    ]);
    await app.close();
  });
});
