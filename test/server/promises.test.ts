// The promises players rely on most: an action is applied at exactly its index, and no ack goes
// out for a move that is not stored. Storage failures are real ones: another connection holds
// the write lock, so the server's commits fail SQLITE_BUSY after its short busy timeout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAction } from '../../shared/index.js';
import { DB_FILE } from '../../server/db/index.js';
import { api, Client, createPlayer, createRace, ManualClock, Mirror, play, startServer, type TestPlayer, type TestServer , now } from './helpers.js';

const LIMIT_MS = 60_000;
let dir: string;
let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let a: Client;
let mirror: Mirror;
let locker: Database.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lucie-promises-'));
  clock = new ManualClock();
  server = await startServer({ dataDir: dir, clock });
  ana = await createPlayer(server.app, 'Ana');
  const bob = await createPlayer(server.app, 'Bob');
  const { code } = await createRace(server.app, ana, { seats: 2, timeLimitSeconds: LIMIT_MS / 1000 });
  await api(server.app, 'POST', `/api/races/${code}/join`, bob);
  a = await Client.connect(server.wsBase, ana);
  a.send({ type: 'watch', code });
  await a.next('race');
  await api(server.app, 'POST', `/api/races/${code}/start`, ana);
  clock.advance(0);
  mirror = Mirror.of(await a.next('game'));
  locker = new Database(join(dir, DB_FILE));
});
afterEach(async () => {
  if (locker.inTransaction) locker.exec('ROLLBACK');
  locker.close();
  await server.app.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = () =>
  (locker.prepare('select action_index as i, action from game_actions where game_id = ? order by action_index').all(mirror.gameId) as { i: number; action: string }[]).map(
    (row) => `${row.i}:${row.action}`,
  );
const lock = () => locker.exec('BEGIN IMMEDIATE');
const unlock = () => locker.exec('ROLLBACK');

describe('action indexes', () => {
  it('refuses an action exactly one ahead, stores nothing, then takes it at its own index', async () => {
    await play(a, mirror, mirror.choose()!);
    await play(a, mirror, mirror.choose()!);
    const next = makeAction(mirror.choose()!);
    a.send({ type: 'action', gameId: mirror.gameId, index: 3, action: next });
    expect(await a.next('error')).toMatchObject({ code: 'index-ahead', field: 'index', nextIndex: 2, index: 3 });
    expect(stored()).toEqual(mirror.actions.map((action, i) => `${i}:${action}`));
    const ack = await play(a, mirror, mirror.choose()!);
    expect(ack.index).toBe(2);
    expect(stored()).toEqual(mirror.actions.map((action, i) => `${i}:${action}`));
  });

  it('acknowledges exactly one behind again when it is the same action, refuses it when it differs', async () => {
    await play(a, mirror, mirror.choose()!);
    const last = await play(a, mirror, mirror.choose()!);
    const before = stored();
    a.send({ type: 'action', gameId: mirror.gameId, index: 1, action: last.action });
    expect(await a.next('ack')).toEqual(last);
    const other = mirror.position.legalActions().map(makeAction).find((action) => action !== last.action) ?? 'R';
    a.send({ type: 'action', gameId: mirror.gameId, index: 1, action: other });
    expect(await a.next('error')).toMatchObject({ code: 'index-conflict', field: 'index', nextIndex: 2, index: 1 });
    expect(stored()).toEqual(before);
  });
});

describe('storage failures', () => {
  it('sends no ack for a move whose commit fails, changes nothing, and takes it once storage is back', async () => {
    await play(a, mirror, mirror.choose()!);
    const action = makeAction(mirror.choose()!);
    const before = stored();
    lock();
    a.send({ type: 'action', gameId: mirror.gameId, index: 1, action });
    expect(await a.next('error')).toMatchObject({ code: 'storage-unavailable', request: 'action', gameId: mirror.gameId, index: 1, nextIndex: 1 });
    await a.settle();
    expect(a.all('ack').map((ack) => ack.index)).toEqual([0]);
    expect(now(server.app.games.get(mirror.gameId))!.actions).toHaveLength(1);
    unlock();
    expect(stored()).toEqual(before);
    // Right after a lock the server refuses moves untried for a moment (no busy wait per move),
    // a moment of its own clock.
    a.send({ type: 'action', gameId: mirror.gameId, index: 1, action });
    expect(await a.next('error')).toMatchObject({ code: 'storage-unavailable', message: 'the database is locked: nothing changed, send the move again in a moment', nextIndex: 1 });
    clock.jump(250);
    const ack = await play(a, mirror, mirror.choose()!);
    expect(ack).toMatchObject({ index: 1, action });
    expect(stored()).toEqual([...before, `1:${action}`]);
  });

  it('keeps a game playing when its resignation cannot be stored', async () => {
    lock();
    a.send({ type: 'resign', gameId: mirror.gameId });
    expect(await a.next('error')).toMatchObject({ code: 'storage-unavailable', request: 'resign' });
    unlock();
    expect(now(server.app.games.get(mirror.gameId))!.state).toBe('playing');
    await play(a, mirror, mirror.choose()!);
  });

  it('ends a game whose time limit falls due while storage is down once it is back, without dying', async () => {
    lock();
    clock.advance(LIMIT_MS);
    expect(now(server.app.games.get(mirror.gameId))!.state).toBe('playing');
    unlock();
    clock.advance(5_000);
    expect(await a.next('game-over')).toMatchObject({ gameId: mirror.gameId, status: { state: 'timed-out' } });
  });

  it('answers HTTP changes with 503 storage-unavailable and retry-after while storage is down; health says not ready', async () => {
    lock();
    const response = await server.app.inject({ method: 'POST', url: '/api/races', headers: { authorization: `Bearer ${ana.token}` }, payload: { seats: 2 } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ statusCode: 503, code: 'storage-unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(503);
    unlock();
    expect((locker.prepare('select count(*) as n from races').get() as { n: number }).n).toBe(1);
    await api(server.app, 'POST', '/api/races', ana, { seats: 2 });
    expect((await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });
});
