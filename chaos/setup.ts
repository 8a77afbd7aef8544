// Players, races and live games on a running server, as a client makes them (HTTP, then the socket).
import { Client, Mirror, type TestPlayer } from '../test/server/helpers.js';
import type { ServerProcess } from './process.js';

export async function http(base: string, method: string, path: string, player?: TestPlayer, body?: object) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(player && { authorization: `Bearer ${player.token}` }), ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

export async function newPlayer(base: string, name: string): Promise<TestPlayer> {
  const { status, body } = await http(base, 'POST', '/api/players', undefined, { name });
  if (status !== 201) throw new Error(`cannot create a player: ${JSON.stringify(body)}`);
  return { ...body.player, token: body.token };
}

export interface Seat {
  player: TestPlayer;
  client: Client;
  mirror: Mirror;
  code: string;
}

/** A started race of `players` (the first creates it), each seated player's socket holding its game. */
export async function startRace(server: ServerProcess, players: TestPlayer[], options: object = {}): Promise<Seat[]> {
  const [creator] = players;
  const created = await http(server.base, 'POST', '/api/races', creator, { seats: players.length, ...options });
  if (created.status !== 201) throw new Error(`cannot create a race: ${JSON.stringify(created.body)}`);
  const code: string = created.body.race.code;
  for (const player of players.slice(1)) await http(server.base, 'POST', `/api/races/${code}/join`, player);
  const clients = await Promise.all(players.map((player) => Client.connect(server.wsBase, player)));
  for (const client of clients) {
    client.send({ type: 'watch', code });
    await client.next('race');
  }
  await http(server.base, 'POST', `/api/races/${code}/start`, creator);
  return Promise.all(
    clients.map(async (client, i) => ({ player: players[i]!, client, mirror: Mirror.of(await client.next('game')), code })),
  );
}
