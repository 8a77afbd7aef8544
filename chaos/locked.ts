// Another process holds the database's write lock: every move must be refused quickly
// (storage-unavailable, no ack, nothing stored), never freeze the server, and go through once the
// lock is released.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../server/db/index.js';
import { makeAction } from '../shared/index.js';
import { play } from '../test/server/helpers.js';
import { startServer, storedActions } from './process.js';
import { newPlayer, startRace, type Seat } from './setup.js';

const RACES = 4;
const TRIES_WHILE_LOCKED = 10;
/** Far above the 50 ms busy timeout, far below the old 5 s freeze. */
const ANSWER_LIMIT_MS = 1000;

export async function lockedProbe(dataDir: string): Promise<string> {
  const server = await startServer(dataDir);
  const locker = new Database(join(dataDir, DB_FILE));
  let refused = 0;
  let unanswered = 0;
  let ackedWhileLocked = 0;
  let slowest = 0;
  let lost = 0;
  try {
    const seats: Seat[] = [];
    for (let race = 0; race < RACES; race++) seats.push(...(await startRace(server, [await newPlayer(server.base, `l${race}a`), await newPlayer(server.base, `l${race}b`)])));
    for (const seat of seats) for (let i = 0; i < 3; i++) await play(seat.client, seat.mirror, seat.mirror.choose()!);
    const storedBefore = storedActions(dataDir).size;

    locker.exec('BEGIN IMMEDIATE');
    await Promise.all(
      seats.map(async (seat) => {
        const index = seat.mirror.actions.length;
        const action = makeAction(seat.mirror.choose()!);
        for (let attempt = 0; attempt < TRIES_WHILE_LOCKED; attempt++) {
          const sentAt = Date.now();
          seat.client.send({ type: 'action', gameId: seat.mirror.gameId, index, action });
          try {
            const error = await seat.client.next('error', (message) => message.index === index, ANSWER_LIMIT_MS);
            slowest = Math.max(slowest, Date.now() - sentAt);
            if (error.code === 'storage-unavailable') refused++;
          } catch {
            unanswered++;
          }
        }
        ackedWhileLocked += seat.client.all('ack').filter((ack) => ack.index === index).length;
      }),
    );
    locker.exec('ROLLBACK');
    // The server refuses untried for a moment after a lock (no busy wait per move).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const storedWhileLocked = storedActions(dataDir).size - storedBefore;

    for (const seat of seats) for (let i = 0; i < 3; i++) await play(seat.client, seat.mirror, seat.mirror.choose()!);
    const stored = storedActions(dataDir);
    let acked = 0;
    for (const seat of seats) {
      for (const ack of seat.client.all('ack')) {
        acked++;
        if (!stored.has(`${ack.gameId}:${ack.index}:${ack.action}`)) lost++;
      }
      seat.client.close();
    }
    const crashes = server.crashed() ? 1 : 0;
    return `${refused} moves refused storage-unavailable while locked (slowest answer ${slowest} ms), ${unanswered} unanswered, ${ackedWhileLocked + storedWhileLocked} state changes while locked, ${acked} moves acknowledged around it, ${lost} lost, ${crashes} crashes`;
  } finally {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
    await server.kill('SIGTERM');
  }
}
