// The race replay: every racer's deals and moves with their stored times, given to nobody (racers
// included) before the race is finished, and matching the standings once it is.
import { afterEach, describe, expect, it } from 'vitest';
import { parseAction, Position } from '../../shared/index.js';
import type { RaceReplayAnswer, RaceView } from '../../contract/index.js';
import { api, Client, createPlayer, createRace, dbState, layoutOf, ManualClock, Mirror, play, setSeed, startServer, unwrap, type TestServer } from './helpers.js';

let server: TestServer;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server.app.close();
});

async function connect(player?: Parameters<typeof Client.connect>[1]): Promise<Client> {
  const client = await Client.connect(server.wsBase, player);
  clients.push(client);
  return client;
}

describe('race replay', () => {
  it('is refused to everyone until the race is finished, then gives every move at the time it was played', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock });
    const { app } = server;
    const [ana, bob, eve] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Eve')];
    const race = await createRace(app, ana, { seats: 2 });
    // A fixed deal: with a random one, Ana's five moves sometimes include a redeal (one deal more).
    setSeed(app, race.code, 's0');
    const replayUrl = `/api/races/${race.code}/replay`;
    const refusedToAll = async (code: string) => {
      for (const viewer of [ana, bob, eve, undefined]) {
        expect((await api(app, 'GET', replayUrl, viewer)).body).toMatchObject({ statusCode: 409, code });
      }
    };
    await refusedToAll('not-finished');
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    const [a, b, e] = [await connect(ana), await connect(bob), await connect(eve)];
    for (const client of [a, b, e]) client.send({ type: 'watch', code: race.code });
    await Promise.all([a, b, e].map((client) => client.next('race')));
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const [gameA, gameB] = [await a.next('game'), await b.next('game')];
    const startsAt = clock.now();

    // Ana plays a few moves a second apart; Bob plays one.
    const mirrorA = Mirror.of(gameA);
    const mirrorB = Mirror.of(gameB);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.jump(1000);
      times.push(clock.now());
      await play(a, mirrorA, mirrorA.choose()!);
    }
    clock.jump(500);
    const bobAt = clock.now();
    await play(b, mirrorB, mirrorB.choose()!);
    await refusedToAll('not-finished');
    // A second identity, seated or not, never sees Ana's game: not its record, not a message about its moves.
    for (const viewer of [bob, eve]) {
      expect((await api(app, 'GET', `/api/games/${gameA.gameId}/record`, viewer)).body).toMatchObject({ statusCode: 403 });
    }
    await Promise.all([b.settle(), e.settle()]);
    for (const client of [b, e]) {
      const aboutAna = client.messages.filter((message) => 'gameId' in message && message.gameId === gameA.gameId);
      expect(aboutAna).toEqual([]);
    }
    // The spectator has no game: not one layout or action reached them (Bob plays the same first layout, so may share a move).
    expect(e.messages.map((message) => message.type).filter((type) => !['welcome', 'race', 'progress', 'pong'].includes(type))).toEqual([]);
    expect(JSON.stringify(e.messages)).not.toContain(gameA.deals[0]![0]!);

    const before = dbState(app);
    await refusedToAll('not-finished');
    expect(dbState(app)).toEqual(before);

    clock.jump(2000);
    const anaResignedAt = clock.now();
    a.send({ type: 'resign', gameId: gameA.gameId });
    await a.next('game-over');
    clock.jump(1000);
    b.send({ type: 'resign', gameId: gameB.gameId });
    const finished = (await e.next('race', (message) => message.race.state === 'finished')).race;

    for (const viewer of [eve, undefined, ana]) {
      const { status, body } = await api(app, 'GET', replayUrl, viewer);
      expect(status).toBe(200);
      const replay = body as RaceReplayAnswer;
      expect(replay.race.standings).toEqual(finished.standings);
      expect(replay.race.seed).toBe(finished.seed);
      expect(replay.games.map((game) => [game.name, game.gameId, game.state])).toEqual([
        ['Ana', gameA.gameId, 'resigned'],
        ['Bob', gameB.gameId, 'resigned'],
      ]);
      const [anaGame, bobGame] = replay.games;
      expect(anaGame!.actions).toEqual(mirrorA.actions);
      expect(anaGame!.times).toEqual(times);
      expect(anaGame!.finishedAt).toBe(anaResignedAt);
      expect(anaGame!.deals).toEqual(gameA.deals);
      expect(bobGame!.actions).toEqual(mirrorB.actions);
      expect(bobGame!.times).toEqual([bobAt]);
      expect(Math.min(...anaGame!.times)).toBeGreaterThan(startsAt);
      // Replayed with the engine, each game ends with the cards home the standings give it.
      for (const game of replay.games) {
        const position = unwrap(Position.start(replay.race.variant, layoutOf(game.deals[0]!)));
        for (const action of game.actions) position.play(unwrap(parseAction(action)));
        expect(position.foundationCount()).toBe(replay.race.standings!.find((standing) => standing.gameId === game.gameId)!.foundations);
      }
    }
  });

  it('says a closed lobby has nothing to replay, and an unknown code is unknown', async () => {
    server = await startServer();
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const race = await createRace(app, ana);
    const closed = (await api(app, 'POST', `/api/races/${race.code}/cancel`, ana)).body.race as RaceView;
    expect(closed.state).toBe('closed');
    expect((await api(app, 'GET', `/api/races/${race.code}/replay`)).body).toMatchObject({ statusCode: 409, code: 'race-closed' });
    expect((await api(app, 'GET', '/api/races/ZZZZZZ/replay')).body).toMatchObject({ statusCode: 404, code: 'unknown-race' });
    expect((await api(app, 'GET', '/api/races/abc/replay')).body).toMatchObject({ statusCode: 400, code: 'invalid-param', field: 'code' });
  });
});
