import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAction, makeLayout, redealLayout } from '../../shared/index.js';
import { currentGameRow, gameActions, gameDeals, games } from '../../server/db/schema.js';
import {
  api,
  Client,
  createPlayer,
  createRace,
  dbState,
  Mirror,
  play,
  playToEnd,
  racerIn,
  setSeed,
  startServer,
  type TestPlayer,
  type TestServer,
} from './helpers.js';

const SEED = 's0';

let server: TestServer;
let ana: TestPlayer;
let bob: TestPlayer;
let code: string;
let a: Client;
let mirror: Mirror;
let bobGameId: number;

/** A running two-player race; Ana's socket `a` is watching and holds her game in `mirror`. */
beforeEach(async () => {
  server = await startServer();
  const { app, wsBase } = server;
  ana = await createPlayer(app, 'Ana');
  bob = await createPlayer(app, 'Bob');
  code = (await createRace(app, ana, { seats: 2 })).code;
  setSeed(app, code, SEED);
  await api(app, 'POST', `/api/races/${code}/join`, bob);
  a = await Client.connect(wsBase, ana);
  a.send({ type: 'watch', code });
  await api(app, 'POST', `/api/races/${code}/start`, ana);
  mirror = Mirror.of(await a.next('game'));
  bobGameId = (await a.next('race', (message) => message.race.state === 'running')).race.progress[1]!.gameId;
});
afterEach(async () => server.app.close());

const storedActions = () =>
  server.app.db.select().from(gameActions).where(eq(gameActions.gameId, mirror.gameId)).orderBy(gameActions.index).all().map((row) => row.action);

describe('action indexes', () => {
  it('acknowledges a resent action again without applying it twice', async () => {
    const first = await play(a, mirror, mirror.choose()!);
    const before = dbState(server.app);
    a.send({ type: 'action', gameId: mirror.gameId, index: 0, action: first.action });
    const again = await a.next('ack');
    expect(again).toEqual(first);
    expect(dbState(server.app)).toEqual(before);
    expect(storedActions()).toEqual([first.action]);
  });

  it('refuses an index from the future with the next index', async () => {
    await play(a, mirror, mirror.choose()!);
    const before = dbState(server.app);
    a.send({ type: 'action', gameId: mirror.gameId, index: 5, action: makeAction(mirror.choose()!) });
    expect(await a.next('error')).toMatchObject({ code: 'index-ahead', field: 'index', nextIndex: 1, index: 5, gameId: mirror.gameId, request: 'action' });
    expect(dbState(server.app)).toEqual(before);
  });

  it('refuses a different action at an index already used, with the next index', async () => {
    const first = await play(a, mirror, mirror.choose()!);
    const other = mirror.position.legalActions().map(makeAction).find((action) => action !== first.action)!;
    const before = dbState(server.app);
    a.send({ type: 'action', gameId: mirror.gameId, index: 0, action: other });
    const error = await a.next('error');
    expect(error).toMatchObject({ code: 'index-conflict', field: 'index', nextIndex: 1 });
    expect(error.message).toContain(first.action);
    expect(dbState(server.app)).toEqual(before);
  });

  it('sends the new layout with a redeal, stores it with the action, and repeats it on a resend', async () => {
    const gathered = mirror.position.gatheredCards();
    const ack = await play(a, mirror, { type: 'redeal' });
    expect(ack).toMatchObject({ index: 0, action: 'R' });
    expect(ack.layout).toEqual(makeLayout(redealLayout(SEED, 1, gathered)));
    const deals = server.app.db.select().from(gameDeals).where(eq(gameDeals.gameId, mirror.gameId)).orderBy(gameDeals.k).all();
    expect(deals.map((deal) => deal.k)).toEqual([0, 1]);
    expect(deals[1]!.layout).toEqual(ack.layout);
    a.send({ type: 'action', gameId: mirror.gameId, index: 0, action: 'R' });
    expect(await a.next('ack')).toEqual(ack);
  });

  it('acknowledges on every socket of the player (two tabs stay in step)', async () => {
    const tab = await Client.connect(server.wsBase, ana);
    const ack = await play(a, mirror, mirror.choose()!);
    expect(await tab.next('ack')).toEqual(ack);
  });
});

describe('the stored game', () => {
  const counted = () => server.app.db.select(currentGameRow).from(games).where(eq(games.id, mirror.gameId)).get()!;
  const stored = () => server.app.db.select().from(games).where(eq(games.id, mirror.gameId)).get()!;
  const countsOf = ({ position, actions }: Mirror) => ({ moves: actions.length, foundations: position.foundationCount(), redealsUsed: position.redealsUsed });

  it('writes a move as its log row alone, reads the counts of a playing game from its log, and stores them with the result', async () => {
    const dealt = stored();
    await play(a, mirror, { type: 'redeal' });
    for (let i = 0; i < 3; i++) await play(a, mirror, mirror.choose()!);
    expect(counted()).toMatchObject({ status: 'playing', ...countsOf(mirror), finishedAt: null });
    expect(mirror.position.redealsUsed).toBe(1);
    // The game's own row has not been written since it was dealt.
    expect(stored()).toEqual(dealt);
    const log = server.app.db.select().from(gameActions).where(eq(gameActions.gameId, mirror.gameId)).all();
    expect(log.at(-1)).toMatchObject({ index: 3, foundations: mirror.position.foundationCount() });

    await playToEnd(a, mirror);
    const over = await a.next('game-over');
    expect(over.status.state).not.toBe('playing');
    const ended = { status: over.status.state, ...countsOf(mirror), finishedAt: over.status.finishedAt };
    expect(stored()).toMatchObject(ended);
    expect(counted()).toMatchObject(ended);
  });

  it('stores the counts with a resignation, which writes no log row', async () => {
    for (let i = 0; i < 2; i++) await play(a, mirror, mirror.choose()!);
    await play(a, mirror, { type: 'redeal' });
    a.send({ type: 'resign', gameId: mirror.gameId });
    expect((await a.next('game-over')).status.state).toBe('resigned');
    expect(stored()).toMatchObject({ status: 'resigned', ...countsOf(mirror) });
    expect(stored()).toMatchObject({ moves: 3, redealsUsed: 1 });
  });
});

describe('reconnect and resync', () => {
  it('brings a reconnecting client exactly the acks it missed', async () => {
    const acks = [];
    for (let i = 0; i < 3; i++) acks.push(await play(a, mirror, mirror.choose()!));
    a.close();
    const back = await Client.connect(server.wsBase, ana);
    back.send({ type: 'resync', gameId: mirror.gameId, lastIndex: 0 });
    const resynced = await back.next('resynced');
    expect(resynced.acks).toEqual(acks.slice(1).map(({ type: _type, ...ack }) => ack));
    expect(resynced.status).toMatchObject({ state: 'playing', nextIndex: 3 });

    back.send({ type: 'resync', gameId: mirror.gameId, lastIndex: -1 });
    expect((await back.next('resynced')).acks.map((ack) => ack.index)).toEqual([0, 1, 2]);
    back.send({ type: 'resync', gameId: mirror.gameId, lastIndex: 2 });
    expect((await back.next('resynced')).acks).toEqual([]);
  });

  it('sends the whole game when the client claims more than the server holds, or on watch', async () => {
    await play(a, mirror, mirror.choose()!);
    a.send({ type: 'resync', gameId: mirror.gameId, lastIndex: 7 });
    const game = await a.next('game');
    expect(game).toMatchObject({ gameId: mirror.gameId, raceCode: code, actions: mirror.actions, status: { nextIndex: 1 } });
    const back = await Client.connect(server.wsBase, ana);
    back.send({ type: 'watch', code });
    expect((await back.next('game')).actions).toEqual(mirror.actions);
  });

  it('refuses to resync another player’s game', async () => {
    a.send({ type: 'resync', gameId: bobGameId, lastIndex: -1 });
    expect(await a.next('error')).toMatchObject({ code: 'not-your-game', field: 'gameId', request: 'resync' });
  });

  it('shows a racer as disconnected to the others while no socket of theirs is open', async () => {
    const b = await Client.connect(server.wsBase, bob);
    b.send({ type: 'watch', code });
    await b.next('race');
    a.close();
    const gone = await b.next('progress', (message) => racerIn(message, ana.id) !== undefined);
    expect(racerIn(gone, ana.id)!.status).toBe('disconnected');
    expect((await api(server.app, 'GET', `/api/races/${code}`)).body.race.progress[0].status).toBe('disconnected');
    await Client.connect(server.wsBase, ana);
    expect(racerIn(await b.next('progress', (message) => racerIn(message, ana.id) !== undefined), ana.id)!.status).toBe('playing');
  });
});
