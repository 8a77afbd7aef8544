// The floor of the server benchmark: what a move costs with none of Lucie's code on its path. A
// bare websocket route that, for each frame, parses it, commits one row to its own SQLite file
// (WAL, synchronous NORMAL, like Lucie's), writes the frame back at once as the ack, then writes
// the progress frames a move caused in Lucie's run (the clients count them) to sockets of the
// same race. Progress may wait for the progress window, so each socket's fan-out is held and
// written at most once a window (with its next ack if that comes first): as few writes as
// Lucie's per-race windows allow. Whatever Lucie spends beyond this is its own code; this much
// any server that stores, acks and fans out a move pays here.
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';

export const FLOOR_DB_FILE = 'floor.db';

/** A race's sockets on the floor route, and how much fan-out its moves still owe. */
interface FloorRace {
  readonly sockets: WebSocket[];
  /** Fan-out frames owed (a fraction carries over to the next move). */
  owed: number;
  /** The socket the next fan-out frame goes to: they take turns. */
  next: number;
}

/**
 * Registers `/bench-floor?race=R&fanout=F&progressBytes=B`: a socket of race R whose every move
 * also sends F progress frames (on average) of B bytes to R's sockets. Returns a close function.
 */
export function registerFloor(app: FastifyInstance, dataDir: string, windowMs: number): () => void {
  const db = new Database(join(dataDir, FLOOR_DB_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table moves (socket integer not null, idx integer not null, frame text not null, at integer not null, primary key (socket, idx)) without rowid');
  const insert = db.prepare('insert into moves (socket, idx, frame, at) values (?, ?, ?, ?)');
  const races = new Map<string, FloorRace>();
  let sockets = 0;

  app.get<{ Querystring: { race: string; fanout: string; progressBytes: string } }>('/bench-floor', { websocket: true }, (socket, request) => {
    const { race: code, fanout, progressBytes } = request.query;
    const perMove = Number(fanout);
    const progress = `{"type":"progress"${' '.repeat(Math.max(0, Number(progressBytes) - 19))}}`;
    const race = races.get(code) ?? { sockets: [], owed: 0, next: 0 };
    races.set(code, race);
    race.sockets.push(socket);
    const id = sockets++;
    let index = 0;
    socket.on('message', (data) => {
      const text = data.toString();
      JSON.parse(text);
      insert.run(id, index++, text, Date.now());
      socket.send(text);
      release(socket);
      race.owed += perMove;
      for (; race.owed >= 1; race.owed--) {
        const to = race.sockets[race.next++ % race.sockets.length]!;
        hold(to, windowMs);
        to.send(progress);
      }
    });
    socket.on('close', () => race.sockets.splice(race.sockets.indexOf(socket), 1));
  });
  return () => db.close();
}

const held = new Set<Duplex>();
const tcpOf = (socket: WebSocket) => (socket as WebSocket & { _socket: Duplex })._socket;

function hold(socket: WebSocket, windowMs: number): void {
  const tcp = tcpOf(socket);
  if (held.has(tcp)) return;
  if (held.size === 0) setTimeout(releaseAll, windowMs);
  tcp.cork();
  held.add(tcp);
}

function releaseAll(): void {
  for (const tcp of held) tcp.uncork();
  held.clear();
}

function release(socket: WebSocket): void {
  const tcp = tcpOf(socket);
  if (held.delete(tcp)) tcp.uncork();
}
