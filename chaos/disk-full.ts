// The disk fills up under a running server (its data directory on a small tmpfs, filled by a
// ballast file): every move must still be answered (stored and acked, or refused
// storage-unavailable), timers that write meanwhile (countdown deals, lobby limits, grace periods)
// must neither crash the server nor be lost, a kill -9 and restart on the full disk must come back
// up, and once the ballast is gone every race plays on and every acknowledged move is stored.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../server/db/index.js';
import { makeAction } from '../shared/index.js';
import { play } from '../test/server/helpers.js';
import { startServer, storedActions, type ServerProcess } from './process.js';
import { http, newPlayer, startRace, type Seat } from './setup.js';

const TMPFS_BYTES = 24 * 1024 * 1024;
const RACES = 2;
const TRIES_PER_MOVE = 3;
/** Short lifecycle timers, so that they fire while the disk is full. */
const TIMERS = { COUNTDOWN_MS: '800', GRACE_SECONDS: '1', LOBBY_LIMIT_SECONDS: '2' };

/** Fills the file system holding `dir` to the last byte. */
function fill(dir: string): string {
  const ballast = join(dir, 'ballast');
  const fd = openSync(ballast, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // The tail smaller than a chunk.
    try {
      for (;;) writeSync(fd, chunk, 0, 512);
    } catch {
      // Full.
    }
  } finally {
    closeSync(fd);
  }
  return ballast;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `check` came true within the limit, asked every 200 ms. */
async function waitFor(check: () => Promise<boolean>, limitMs = 20_000): Promise<boolean> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline; await pause(200)) if (await check()) return true;
  return false;
}

interface Tally {
  acked: Set<string>;
  refused: number;
  unanswered: number;
}

/** Tries the seat's next move until it is acked or the tries run out, counting each answer. */
async function tryMove(seat: Seat, tally: Tally, tries: number): Promise<void> {
  const action = seat.mirror.choose();
  if (!action) return;
  const index = seat.mirror.actions.length;
  for (let attempt = 0; attempt < tries; attempt++) {
    const errorsBefore = seat.client.all('error').length;
    seat.client.send({ type: 'action', gameId: seat.mirror.gameId, index, action: makeAction(action) });
    // The server answers in order: after its pong, the move's answer (if any) has arrived.
    try {
      await seat.client.settle();
    } catch {
      tally.unanswered++;
      return;
    }
    const ack = seat.client.all('ack').find((message) => message.index === index && message.gameId === seat.mirror.gameId);
    if (ack) {
      seat.mirror.apply(ack);
      tally.acked.add(`${ack.gameId}:${ack.index}:${ack.action}`);
      return;
    }
    const error = seat.client.all('error').slice(errorsBefore).find((message) => message.index === index);
    if (!error) {
      tally.unanswered++;
      return;
    }
    if (error.code !== 'storage-unavailable') throw new Error(`move refused ${error.code} while the disk was full`);
    tally.refused++;
    await pause(50);
  }
}

export async function diskFullProbe(): Promise<string> {
  if (process.getuid?.() !== 0) return 'skipped: mounting a small tmpfs needs root';
  const mount = mkdtempSync(join(tmpdir(), 'lucie-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_BYTES}`, 'tmpfs', mount], { stdio: 'pipe' });
  } catch (error) {
    // Root inside a container without the right to mount.
    rmSync(mount, { recursive: true, force: true });
    return `skipped: cannot mount a tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  }
  const dataDir = join(mount, 'data');
  let server: ServerProcess | undefined;
  let crashes = 0;
  const tally: Tally = { acked: new Set(), refused: 0, unanswered: 0 };
  try {
    server = await startServer(dataDir, TIMERS);
    const seats: Seat[] = [];
    for (let race = 0; race < RACES; race++) seats.push(...(await startRace(server, [await newPlayer(server.base, `f${race}a`), await newPlayer(server.base, `f${race}b`)])));
    for (const seat of seats) await play(seat.client, seat.mirror, seat.mirror.choose()!);
    // Timers that will come due while the disk is full: a lobby past its limit, a countdown, a racer gone.
    const lobbyOwner = await newPlayer(server.base, 'lobby');
    const lobby = await http(server.base, 'POST', '/api/races', lobbyOwner, { seats: 2 });
    const late = [await newPlayer(server.base, 'late-a'), await newPlayer(server.base, 'late-b')];
    const lateRace = await http(server.base, 'POST', '/api/races', late[0], { seats: 2 });
    await http(server.base, 'POST', `/api/races/${lateRace.body.race.code}/join`, late[1]);
    await http(server.base, 'POST', `/api/races/${lateRace.body.race.code}/start`, late[0]);
    // An empty write-ahead log: the next commit needs new blocks, which the full disk refuses.
    const checkpoint = new Database(join(dataDir, DB_FILE));
    checkpoint.pragma('wal_checkpoint(TRUNCATE)');
    checkpoint.close();
    const ballast = fill(mount);
    seats.pop()!.client.close();

    const writes = await http(server.base, 'POST', '/api/players', undefined, { name: 'while-full' });
    if (writes.status !== 201 && writes.body?.code !== 'storage-unavailable') throw new Error(`player creation on a full disk answered ${writes.status} ${JSON.stringify(writes.body)}`);
    for (let round = 0; round < 3; round++) await Promise.all(seats.map((seat) => tryMove(seat, tally, TRIES_PER_MOVE)));
    // Let the timers come due on the full disk.
    await pause(2500);
    if (server.crashed()) crashes++;

    await server.kill('SIGKILL');
    for (const seat of seats) seat.client.close();
    // A restart while the disk is still full must come up (it may refuse writes until there is room).
    server = await startServer(dataDir, TIMERS);
    await pause(1500);
    if (server.crashed()) crashes++;

    rmSync(ballast);
    const ready = await waitFor(async () => (await http(server!.base, 'GET', '/api/ready')).status === 200);
    // Every lobby and race ends: the expired lobby closes, the countdown deals, the racers who are gone are finished.
    const codes = [...new Set(seats.map((seat) => seat.code)), lobby.body.race.code, lateRace.body.race.code];
    const ended = await waitFor(async () => {
      for (const code of codes) if (!['finished', 'closed'].includes((await http(server!.base, 'GET', `/api/races/${code}`)).body.race.state)) return false;
      return true;
    });
    const fresh = await startRace(server, [await newPlayer(server.base, 'after-a'), await newPlayer(server.base, 'after-b')]);
    await play(fresh[0]!.client, fresh[0]!.mirror, fresh[0]!.mirror.choose()!);
    for (const seat of fresh) seat.client.close();
    const stored = storedActions(dataDir);
    let lost = 0;
    for (const key of tally.acked) if (!stored.has(key)) lost++;
    if (server.crashed()) crashes++;
    if (!ended) {
      const states = await Promise.all(codes.map(async (code) => `${code} ${JSON.stringify((await http(server!.base, 'GET', `/api/races/${code}`)).body)}`));
      throw new Error(`once the disk had room, not every race or lobby ended:\n${states.join('\n')}`);
    }
    if (!ready) throw new Error('never ready again once the disk had room');
    return `${tally.refused} moves refused storage-unavailable on the full disk, ${tally.acked.size} acked and stored, ${tally.unanswered} unanswered, ${lost} lost, restart on the full disk came up, ${codes.length} races and lobbies ended once it had room, ${crashes} crashes`;
  } finally {
    await server?.kill('SIGTERM');
    execFileSync('umount', ['-l', mount]);
    rmSync(mount, { recursive: true, force: true });
  }
}
