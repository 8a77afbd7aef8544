import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { dealLayout, makeLayout, parseRecord, recordOf, verifyRecord, makeRecord, parseLayout } from '../../shared/index.js';
import { gameActions, gameDeals, raceEntries } from '../../server/db/schema.js';
import {
  api,
  Client,
  createPlayer,
  createRace,
  ManualClock,
  Mirror,
  play,
  playToEnd,
  racerIn,
  setSeed,
  startServer,
  unwrap,
  type TestServer,
} from './helpers.js';

/** `s2` is a strict deal the helpers' simple strategy wins; `s0` one it loses. */
const WINNABLE = 's2';
const LOSING = 's0';

let server: TestServer;
afterEach(async () => server?.app.close());

/** Ana creates, Bob joins, both watch; returns the race code and the connected clients. */
async function lobby(seed: string, options: object = {}) {
  const { app, wsBase } = server;
  const ana = await createPlayer(app, 'Ana');
  const bob = await createPlayer(app, 'Bob');
  const race = await createRace(app, ana, { seats: 2, ...options });
  setSeed(app, race.code, seed);
  const joined = await api(app, 'POST', `/api/races/${race.code}/join`, bob);
  expect(joined.status).toBe(200);
  const a = await Client.connect(wsBase, ana);
  const b = await Client.connect(wsBase, bob);
  for (const client of [a, b]) {
    client.send({ type: 'watch', code: race.code });
    expect((await client.next('race')).race.racers.map((racer) => racer.name)).toEqual(['Ana', 'Bob']);
  }
  return { code: race.code, ana, bob, a, b };
}

describe('a race over real websockets', () => {
  it('deals one layout to every racer at once, shows progress to racers and spectators, and ranks the finish', async () => {
    server = await startServer({ countdownMs: 30 });
    const { app, wsBase } = server;
    const { code, ana, bob, a, b } = await lobby(WINNABLE);
    const eve = await createPlayer(app, 'Eve');
    expect((await api(app, 'POST', `/api/races/${code}/join`, eve)).body).toMatchObject({ statusCode: 409, code: 'race-full' });
    const e = await Client.connect(wsBase, eve);
    const anonymous = await Client.connect(wsBase);
    for (const spectator of [e, anonymous]) {
      spectator.send({ type: 'watch', code: code.toLowerCase() });
      expect((await spectator.next('race')).race.state).toBe('lobby');
    }

    expect((await api(app, 'POST', `/api/races/${code}/start`, bob)).body.code).toBe('not-creator');
    const started = await api(app, 'POST', `/api/races/${code}/start`, ana);
    expect(started.body.race).toMatchObject({ state: 'countdown', seed: null });
    for (const client of [a, b, e]) expect((await client.next('race')).race.state).toBe('countdown');

    const [gameA, gameB] = [await a.next('game'), await b.next('game')];
    const first = makeLayout(dealLayout(WINNABLE, 'strict'));
    expect(gameA.deals).toEqual([first]);
    expect(gameB.deals).toEqual([first]);
    expect(gameA.gameId).not.toBe(gameB.gameId);
    expect(gameA).toMatchObject({ raceCode: code, variant: 'strict', actions: [], status: { state: 'playing', nextIndex: 0 } });
    expect(JSON.stringify(gameA)).not.toContain('seed');
    const running = (await e.next('race')).race;
    expect(running).toMatchObject({ state: 'running', seed: null });
    expect(running.progress.map((entry) => entry.status)).toEqual(['playing', 'playing']);
    expect((await api(app, 'GET', `/api/races/${code}`)).body.race.seed).toBeNull();
    // Late comers cannot take a seat: they watch.
    expect((await api(app, 'POST', `/api/races/${code}/join`, eve)).body.code).toBe('race-started');

    const mirrorA = Mirror.of(gameA);
    const firstMove = await play(a, mirrorA, mirrorA.choose()!);
    expect(firstMove).toMatchObject({ gameId: gameA.gameId, index: 0 });
    for (const watcher of [b, e, anonymous]) {
      const progress = await watcher.next('progress', (message) => racerIn(message, ana.id) !== undefined);
      expect(racerIn(progress, ana.id)).toMatchObject({ name: 'Ana', gameId: gameA.gameId, moves: 1, status: 'playing' });
    }

    b.send({ type: 'resign', gameId: gameB.gameId });
    expect((await b.next('game-over')).status).toMatchObject({ state: 'resigned', nextIndex: 0 });
    expect(racerIn(await e.next('progress', (message) => racerIn(message, bob.id) !== undefined), bob.id)!.status).toBe('resigned');

    await playToEnd(a, mirrorA);
    const over = await a.next('game-over');
    expect(over.status).toMatchObject({ state: 'won', foundations: 52, nextIndex: mirrorA.actions.length });

    for (const client of [a, b, e, anonymous]) {
      const finished = (await client.next('race', (message) => message.race.state === 'finished')).race;
      expect(finished.seed).toBe(WINNABLE);
      expect(finished.standings).toMatchObject([
        { rank: 1, name: 'Ana', state: 'won', foundations: 52 },
        { rank: 2, name: 'Bob', state: 'resigned', foundations: 0 },
      ]);
      expect(finished.finishedAt).toBe(over.status.finishedAt);
    }
    // Spectators never saw a layout or an ack.
    for (const spectator of [e, anonymous]) {
      expect(spectator.all('game')).toEqual([]);
      expect(spectator.all('ack')).toEqual([]);
    }

    // The stored move log is a legal lucie-record/1 of exactly the acknowledged actions.
    const stored = app.db.select().from(gameActions).where(eq(gameActions.gameId, gameA.gameId)).orderBy(gameActions.index).all();
    expect(stored.map((row) => row.action)).toEqual(mirrorA.actions);
    const deals = app.db.select().from(gameDeals).where(eq(gameDeals.gameId, gameA.gameId)).orderBy(gameDeals.k).all();
    const record = recordOf('strict', deals.map((deal) => unwrap(parseLayout(deal.layout))), []);
    const outcome = verifyRecord(makeRecord({ ...record, actions: mirrorA.actions }));
    expect(outcome).toEqual({ ok: true, foundations: 52, won: true, over: true, redealsUsed: mirrorA.actions.filter((x) => x === 'R').length });
    expect(unwrap(parseRecord(makeRecord(record))).deals[0]).toEqual(dealLayout(WINNABLE, 'strict'));
    const ranks = app.db.select().from(raceEntries).all().map((entry) => [entry.playerId, entry.rank]);
    expect(ranks).toEqual([
      [ana.id, 1],
      [bob.id, 2],
    ]);
  });

  it('ranks losses by cards on foundations: equal cards home tie (a shared rank, seat order within it), whichever ended first', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock });
    const { app } = server;
    const { code, ana, a, b } = await lobby(LOSING, { seats: 3 });
    const cid = await createPlayer(app, 'Cid');
    await api(app, 'POST', `/api/races/${code}/join`, cid);
    const c = await Client.connect(server.wsBase, cid);
    c.send({ type: 'watch', code });
    await c.next('race');
    expect((await api(app, 'POST', `/api/races/${code}/start`, ana)).status).toBe(200);
    clock.advance(0);
    const [mirrorA, mirrorB, mirrorC] = [Mirror.of(await a.next('game')), Mirror.of(await b.next('game')), Mirror.of(await c.next('game'))];

    // Cid resigns first with nothing home; Bob and Ana play the same way to the same end, Bob first.
    await play(c, mirrorC, mirrorC.choose()!);
    c.send({ type: 'resign', gameId: mirrorC.gameId });
    await c.next('game-over');
    clock.jump(1000);
    await playToEnd(b, mirrorB);
    expect((await b.next('game-over')).status.state).toBe('out-of-moves');
    clock.jump(1000);
    await playToEnd(a, mirrorA);
    const overA = await a.next('game-over');
    expect(overA.status.state).toBe('out-of-moves');
    const foundations = overA.status.foundations;
    expect(foundations).toBeGreaterThan(mirrorC.position.foundationCount());

    const finished = (await c.next('race', (message) => message.race.state === 'finished')).race;
    expect(finished.standings!.map(({ rank, name, state, foundations }) => ({ rank, name, state, foundations }))).toEqual([
      { rank: 1, name: 'Ana', state: 'out-of-moves', foundations },
      { rank: 1, name: 'Bob', state: 'out-of-moves', foundations },
      { rank: 3, name: 'Cid', state: 'resigned', foundations: mirrorC.position.foundationCount() },
    ]);
  });
});
