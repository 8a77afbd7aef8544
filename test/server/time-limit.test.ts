import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAction } from '../../shared/index.js';
import { games } from '../../server/db/schema.js';
import { api, Client, createPlayer, createRace, ManualClock, Mirror, play, setSeed, startServer, type TestServer } from './helpers.js';

const LIMIT_MS = 60_000;
let server: TestServer;
let clock: ManualClock;
let code: string;
let a: Client;
let b: Client;
let mirrorA: Mirror;
let startsAt: number;

beforeEach(async () => {
  clock = new ManualClock();
  server = await startServer({ clock, countdownMs: 3000 });
  const { app, wsBase } = server;
  const ana = await createPlayer(app, 'Ana');
  const bob = await createPlayer(app, 'Bob');
  code = (await createRace(app, ana, { seats: 2, timeLimitSeconds: LIMIT_MS / 1000 })).code;
  setSeed(app, code, 's2');
  await api(app, 'POST', `/api/races/${code}/join`, bob);
  [a, b] = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob)];
  a.send({ type: 'watch', code });
  b.send({ type: 'watch', code });
  const started = (await api(app, 'POST', `/api/races/${code}/start`, ana)).body.race;
  startsAt = clock.now() + 3000;
  expect(started).toMatchObject({ state: 'countdown', startsAt, endsAt: startsAt + LIMIT_MS });
  clock.advance(2999);
  await a.settle();
  expect(a.all('game')).toEqual([]);
  clock.advance(1);
  const game = await a.next('game');
  expect(game.startedAt).toBe(startsAt);
  mirrorA = Mirror.of(game);
  await b.next('game');
});
afterEach(async () => server.app.close());

describe('a race with a time limit', () => {
  it('stops every game still playing when the limit passes and ranks by cards home', async () => {
    while (mirrorA.position.foundationCount() < 2) await play(a, mirrorA, mirrorA.choose()!);
    clock.advance(LIMIT_MS - 3000);
    expect(a.all('game-over')).toEqual([]);
    clock.advance(3000);
    const overA = await a.next('game-over');
    expect(overA.status).toMatchObject({ state: 'timed-out', finishedAt: startsAt + LIMIT_MS });
    expect((await b.next('game-over')).status.state).toBe('timed-out');
    const finished = (await b.next('race', (message) => message.race.state === 'finished')).race;
    expect(finished.finishedAt).toBe(startsAt + LIMIT_MS);
    expect(finished.standings!.map(({ rank, name, state, foundations }) => ({ rank, name, state, foundations }))).toEqual([
      { rank: 1, name: 'Ana', state: 'timed-out', foundations: mirrorA.position.foundationCount() },
      { rank: 2, name: 'Bob', state: 'timed-out', foundations: 0 },
    ]);
    a.send({ type: 'action', gameId: mirrorA.gameId, index: mirrorA.actions.length, action: makeAction(mirrorA.choose()!) });
    expect((await a.next('error')).code).toBe('game-over');
  });

  it('refuses a move that arrives after the limit even before the timer has fired', async () => {
    clock.jump(LIMIT_MS);
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 0, action: makeAction(mirrorA.choose()!) });
    expect(await a.next('error')).toMatchObject({ code: 'game-over', nextIndex: 0 });
    const row = server.app.db.select().from(games).where(eq(games.id, mirrorA.gameId)).get()!;
    expect(row).toMatchObject({ status: 'timed-out', finishedAt: startsAt + LIMIT_MS, moves: 0 });
    // The game ends first (game-over), then the late move is refused.
    expect(a.all('game-over').map((message) => message.status.state)).toEqual(['timed-out']);
    // Bob's timer has not fired either: the race waits for it.
    expect((await api(server.app, 'GET', `/api/races/${code}`)).body.race.state).toBe('running');
    clock.advance(0);
    expect((await a.next('race', (message) => message.race.state === 'finished')).race.standings).toHaveLength(2);
  });
});
