// Every message the server sends in a real session, read with the contract's own union: each one
// parses, loses nothing in parsing (no field the contract does not know), and every message type
// of the union is seen at least once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAction } from '../../shared/index.js';
import { serverMessage } from '../../contract/index.js';
import { api, Client, createPlayer, createRace, Mirror, play, startServer, type TestServer } from './helpers.js';

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server.app.close();
});

async function connect(...player: Parameters<typeof Client.connect> extends [string, ...infer Rest] ? Rest : never) {
  const client = await Client.connect(server.wsBase, ...player);
  clients.push(client);
  return client;
}

describe('the server → client messages of a whole race', () => {
  it('all parse with the contract union, unchanged, and cover every type', async () => {
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const bob = await createPlayer(app, 'Bob');
    const cid = await createPlayer(app, 'Cid');
    const { code } = await createRace(app, ana, { seats: 3 });
    const a = await connect(ana);
    const b = await connect(bob);
    const watcher = await connect();
    for (const client of [a, b, watcher]) {
      client.send({ type: 'watch', code });
      await client.next('race');
    }
    await api(app, 'POST', `/api/races/${code}/join`, bob);
    await api(app, 'POST', `/api/races/${code}/join`, cid);
    // A racer removed from the lobby: a race-event before the new view.
    await api(app, 'POST', `/api/races/${code}/kick`, ana, { playerId: cid.id });
    await watcher.next('race-event');
    // The one removed waits in the quick-race pool; the watcher follows the public lobby.
    const c = await connect(cid);
    await api(app, 'POST', '/api/pool', cid, { variant: 'strict' });
    await c.next('pool');
    watcher.send({ type: 'lobby', on: true });
    await watcher.next('lobby');
    await api(app, 'POST', `/api/races/${code}/start`, ana);
    const mirrorA = Mirror.of(await a.next('game'));
    const mirrorB = Mirror.of(await b.next('game'));
    for (let i = 0; i < 3; i++) await play(a, mirrorA, mirrorA.choose()!);
    await play(b, mirrorB, mirrorB.choose()!);
    // A refusal, a resync after a "reconnect", a ping.
    a.send({ type: 'action', gameId: mirrorA.gameId, index: 99, action: makeAction(mirrorA.choose()!) });
    await a.next('error');
    a.send({ type: 'resync', gameId: mirrorA.gameId, lastIndex: 0 });
    expect((await a.next('resynced')).acks).toHaveLength(2);
    // Both resign: game-over each, the standings to everyone.
    a.send({ type: 'resign', gameId: mirrorA.gameId });
    await a.next('game-over');
    b.send({ type: 'resign', gameId: mirrorB.gameId });
    await b.next('game-over');
    await watcher.next('race', (message) => message.race.state === 'finished');
    for (const client of [a, b, watcher]) await client.settle();

    const seen = new Set<string>();
    for (const client of [a, b, c, watcher]) {
      for (const message of client.messages) {
        const parsed = serverMessage.safeParse(message);
        expect(parsed.success ? undefined : parsed.error.issues, JSON.stringify(message).slice(0, 200)).toBeUndefined();
        expect(parsed.data, `${message.type} carries a field the contract does not know`).toEqual(message);
        seen.add(message.type);
      }
    }
    const types = serverMessage.options.map((option) => option.shape.type.value);
    expect([...seen].sort()).toEqual([...types].sort());
  });
});
