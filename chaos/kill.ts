// kill -9 of the server at random moments while players play as fast as acks come back; after
// each restart every acknowledged move must be in the database, at its index.
import { play } from '../test/server/helpers.js';
import { startServer, storedActions, type ServerProcess } from './process.js';
import type { Random } from './random.js';
import { newPlayer, startRace, type Seat } from './setup.js';

const RACES = 6;

/** Plays as fast as acks come back until the socket dies; the acks the client saw are in its messages. */
async function playUntilDead(seat: Seat): Promise<void> {
  try {
    for (let action = seat.mirror.choose(); action; action = seat.mirror.choose()) await play(seat.client, seat.mirror, action);
  } catch {
    // The server is gone: that is the point.
  }
}

export async function killProbe(dataDir: string, random: Random, kills: number): Promise<string> {
  let server: ServerProcess = await startServer(dataDir);
  const acked = new Set<string>();
  let lost = 0;
  let crashes = 0;
  try {
    for (let round = 0; round < kills; round++) {
      const seats: Seat[] = [];
      for (let race = 0; race < RACES; race++) {
        const players = [await newPlayer(server.base, `k${round}-${race}a`), await newPlayer(server.base, `k${round}-${race}b`)];
        seats.push(...(await startRace(server, players)));
      }
      const playing = Promise.all(seats.map(playUntilDead));
      await new Promise((resolve) => setTimeout(resolve, 200 + random.int(1300)));
      if (server.crashed()) crashes++;
      await server.kill('SIGKILL');
      await playing;
      for (const seat of seats) for (const ack of seat.client.all('ack')) acked.add(`${ack.gameId}:${ack.index}:${ack.action}`);
      server = await startServer(dataDir);
      const stored = storedActions(dataDir);
      for (const key of acked) if (!stored.has(key)) lost++;
    }
  } finally {
    if (server.crashed()) crashes++;
    await server.kill('SIGTERM');
  }
  return `${kills} kill -9 under load (${RACES * 2} players), ${acked.size} moves acknowledged, ${lost} lost, ${crashes} crashes`;
}
