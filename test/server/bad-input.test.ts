// Every kind of bad input gets a specific error, changes nothing, and leaves the server serving.
import { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAction } from '../../shared/index.js';
import {
  api,
  Client,
  createPlayer,
  createRace,
  dbState,
  ManualClock,
  Mirror,
  play,
  startServer,
  type TestPlayer,
  type TestServer,
} from './helpers.js';
import type { AppOptions } from '../../server/app.js';

let server: TestServer;
let ana: TestPlayer;
let bob: TestPlayer;
let a: Client;
let b: Client;
let mirrorA: Mirror;
let mirrorB: Mirror;
let before: unknown;

/** A running race in which Ana has made one move; `before` is the database at that point. */
async function setUp(options: Partial<AppOptions> = {}) {
  server = await startServer(options);
  const { app, wsBase } = server;
  ana = await createPlayer(app, 'Ana');
  bob = await createPlayer(app, 'Bob');
  const { code } = await createRace(app, ana, { seats: 2 });
  await api(app, 'POST', `/api/races/${code}/join`, bob);
  a = await Client.connect(wsBase, ana);
  b = await Client.connect(wsBase, bob);
  a.send({ type: 'watch', code });
  b.send({ type: 'watch', code });
  await api(app, 'POST', `/api/races/${code}/start`, ana);
  (options.clock as ManualClock | undefined)?.advance(0);
  mirrorA = Mirror.of(await a.next('game'));
  mirrorB = Mirror.of(await b.next('game'));
  await play(a, mirrorA, mirrorA.choose()!);
  await b.settle();
  before = dbState(app);
}

/** Nothing stored changed, and the socket still answers. */
async function unchanged(client = a) {
  expect(dbState(server.app)).toEqual(before);
  await client.settle();
}

afterEach(async () => server.app.close());

describe('bad websocket input', () => {
  beforeEach(async () => setUp());

  it('malformed JSON', async () => {
    a.sendRaw('{"type": "action", ');
    const error = await a.next('error');
    expect(error.code).toBe('bad-json');
    expect(error.message).toMatch(/^not JSON: /);
    await unchanged();
  });

  it('an unknown message type', async () => {
    a.sendRaw(JSON.stringify({ type: 'teleport', gameId: mirrorA.gameId }));
    expect(await a.next('error')).toMatchObject({ code: 'unknown-type', field: 'type', request: 'teleport' });
    await unchanged();
  });

  it('a message without a type, or not an object', async () => {
    a.sendRaw(JSON.stringify({ gameId: 1 }));
    expect(await a.next('error')).toMatchObject({ code: 'bad-message', field: 'type' });
    a.sendRaw('[1, 2]');
    expect((await a.next('error')).message).toMatch(/expected object/);
    await unchanged();
  });

  it('a known type with a wrong field names the field and the rule', async () => {
    a.send({ type: 'action', gameId: mirrorA.gameId, index: -1, action: '1>F' });
    const error = await a.next('error');
    expect(error).toMatchObject({ code: 'bad-message', field: 'index', request: 'action' });
    expect(error.message).toMatch(/^index: .*>=0/);
    a.sendRaw(JSON.stringify({ type: 'action', gameId: mirrorA.gameId, index: 1, action: '1>F', cheat: true }));
    expect(await a.next('error')).toMatchObject({ code: 'bad-message', field: 'cheat', message: 'cheat: unknown field (a typo?)' });
    a.sendRaw(JSON.stringify({ type: 'watch', code: 'no' }));
    expect(await a.next('error')).toMatchObject({ code: 'bad-message', field: 'code' });
    await unchanged();
  });

  it('a binary frame', async () => {
    a.sendRaw(Buffer.from(JSON.stringify({ type: 'ping' })), true);
    expect(await a.next('error')).toMatchObject({ code: 'bad-message', message: 'frames must be JSON text, not binary' });
    await unchanged();
  });

  it('a frame over the size limit is not read', async () => {
    a.sendRaw(JSON.stringify({ type: 'action', gameId: mirrorA.gameId, index: 1, action: makeAction(mirrorA.choose()!), pad: 'x'.repeat(5000) }));
    const error = await a.next('error');
    expect(error.code).toBe('too-large');
    expect(error.message).toMatch(/at most 4096 bytes/);
    await unchanged();
  });

  it('a frame over the hard limit closes that socket only', async () => {
    a.sendRaw('x'.repeat(70_000));
    expect((await a.whenClosed()).code).toBe(1009);
    // Ana's grace period started with her last socket; back online, it is as before.
    a = await Client.connect(server.wsBase, ana);
    await unchanged(b);
    expect((await api(server.app, 'GET', '/api/health')).status).toBe(200);
  });

  it('an illegal action gets the engine’s problem as params, and its reason in English', async () => {
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: '1>1' });
    expect(await a.next('error')).toMatchObject({
      code: 'illegal-action',
      field: 'action',
      nextIndex: 1,
      message: '"1>1": a card cannot move onto its own fan',
      params: { action: '1>1', problem: { code: 'own-fan' } },
    });
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: '40>F' });
    const missing = await a.next('error');
    expect(missing.message).toBe('"40>F": there is no fan 40 (this layout has fans 1-18)');
    expect(missing.params).toEqual({ action: '40>F', problem: { code: 'no-such-fan', fan: 40, fans: 18 } });
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: 'C1>F' });
    const cell = await a.next('error');
    expect(cell.message).toMatch(/reserve cells exist only in the fan-reserve variant/);
    expect(cell.params).toEqual({ action: 'C1>F', problem: { code: 'no-cells', variant: 'strict' } });
    await unchanged();
  });

  it('an action that is not in record notation', async () => {
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: '1 > F' });
    const error = await a.next('error');
    expect(error).toMatchObject({ code: 'illegal-action', field: 'action', params: { action: '1 > F', problem: { code: 'not-an-action', text: '1 > F' } } });
    expect(error.message).toMatch(/is not an action/);
    await unchanged();
  });

  it('an action after the game is over', async () => {
    b.send({ type: 'resign', gameId: mirrorB.gameId });
    await b.next('game-over');
    before = dbState(server.app);
    b.send({ type: 'action', gameId: mirrorB.gameId, index: 0, action: makeAction(mirrorB.choose()!) });
    expect(await b.next('error')).toMatchObject({ code: 'game-over', field: 'gameId', nextIndex: 0 });
    b.send({ type: 'resign', gameId: mirrorB.gameId });
    expect((await b.next('error')).code).toBe('game-over');
    await unchanged(b);
  });

  it('an action in another player’s game', async () => {
    b.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: makeAction(mirrorA.choose()!) });
    expect(await b.next('error')).toMatchObject({ code: 'not-your-game', field: 'gameId', gameId: mirrorA.gameId });
    b.send({ type: 'resign', gameId: mirrorA.gameId });
    expect((await b.next('error')).code).toBe('not-your-game');
    await unchanged(b);
  });

  it('a game or race that does not exist', async () => {
    a.send({ type: 'action', gameId: 999, index: 0, action: '1>F' });
    expect(await a.next('error')).toMatchObject({ code: 'unknown-game', field: 'gameId' });
    a.send({ type: 'watch', code: 'ZZZZZZ' });
    expect(await a.next('error')).toMatchObject({ code: 'unknown-race', field: 'code' });
    await unchanged();
  });

  it('a wrong token is refused before the upgrade', async () => {
    const socket = new WebSocket(`${server.wsBase}/ws?token=not-a-real-token`);
    const status = await new Promise<number>((resolve) => socket.on('unexpected-response', (_request, response) => resolve(response.statusCode!)));
    expect(status).toBe(401);
    expect((await api(server.app, 'GET', '/api/me', { ...ana, token: 'wrong' })).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    await unchanged();
  });

  it('a repeated token is a 400 naming the field, not a crash', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/ws?token=a&token=b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'invalid-query', field: 'token' });
    await unchanged();
  });

  it('a socket without a token can watch but not act', async () => {
    const spectator = await Client.connect(server.wsBase);
    spectator.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: makeAction(mirrorA.choose()!) });
    expect(await spectator.next('error')).toMatchObject({ code: 'unauthorized', field: 'token' });
    spectator.send({ type: 'resign', gameId: mirrorA.gameId });
    expect((await spectator.next('error')).code).toBe('unauthorized');
    await unchanged(spectator);
  });

  it('moves while the server shuts down', async () => {
    server.app.games.closing = true;
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 1, action: makeAction(mirrorA.choose()!) });
    expect(await a.next('error')).toMatchObject({ code: 'server-closing' });
    await unchanged();
    server.app.games.closing = false;
  });
});

describe('flooding', () => {
  it('drops frames beyond the budget, says so once, and serves again once it refills', async () => {
    const clock = new ManualClock();
    await setUp({ clock, socketLimits: { burst: 5, perSecond: 2 } });
    // setUp spent 2 of Ana's 5 frames (watch, action): 3 are left.
    for (let i = 0; i < 20; i++) a.send({ type: 'ping' });
    const error = await a.next('error');
    expect(error).toMatchObject({ code: 'rate-limited' });
    expect(error.message).toMatch(/at most 5 at once and 2 per second/);
    expect(a.all('pong')).toHaveLength(3);
    const action = { type: 'action', gameId: mirrorA.gameId, index: 1, action: makeAction(mirrorA.choose()!) } as const;
    a.send(action); // dropped: the bucket is empty and this clock only moves when told
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.all('error')).toHaveLength(1);
    expect(a.all('ack')).toHaveLength(1);
    expect(dbState(server.app)).toEqual(before);
    clock.jump(1000); // +2 frames
    await a.settle();
    a.send(action);
    expect((await a.next('ack')).index).toBe(1);
  });
});
