// Hostile websocket frames: every one must be answered (a reply, or the socket closed with a
// reason) and none may change the database.
import { WebSocket } from 'ws';
import { play, type TestPlayer } from '../test/server/helpers.js';
import { dumpDatabase, type ServerProcess } from './process.js';
import { newPlayer, startRace } from './setup.js';
import type { Random } from './random.js';

export interface Frame {
  data: string | Buffer;
  binary?: boolean;
}

interface Targets {
  ownGame: number;
  nextIndex: number;
  playedAction: string;
  othersGame: number;
  overGame: number;
}

const ANSWER_TIMEOUT_MS = 3000;
const LANES = 16;

type Make = (random: Random, t: Targets) => Frame;
const json = (value: unknown): Frame => ({ data: JSON.stringify(value) });

/** One maker per kind of hostility, cycled through in order. */
const MAKERS: Record<string, Make> = {
  'malformed JSON': (random) => {
    const text = JSON.stringify({ type: 'action', gameId: 1, index: 0, action: '1a-2b' });
    return { data: random.pick([text.slice(0, random.int(text.length)), '{', '}{', 'nul', "{'type':'ping'}", '{"type":"action",}', random.ascii(40)]) };
  },
  'wrong types': (random, t) =>
    json({ type: 'action', gameId: random.pick([String(t.ownGame), null, true, [t.ownGame], { id: 1 }, 1.5]), index: random.pick(['0', null, [], {}]), action: random.pick([5, null, ['a'], {}]) }),
  'huge or negative index': (random, t) =>
    json({ type: 'action', gameId: t.ownGame, index: random.pick([-1, -(2 ** 31), 2 ** 53, 1e300, 0.5, t.nextIndex + 1, t.nextIndex + 1e9]), action: t.playedAction }),
  'prototype keys': (random, t) => ({
    data: random.pick([
      `{"type":"action","__proto__":{"index":${t.nextIndex}},"gameId":${t.ownGame},"action":"R"}`,
      `{"type":"__proto__","gameId":${t.ownGame}}`,
      '{"type":"constructor"}',
      '{"type":"toString"}',
      `{"type":"resign","gameId":${t.othersGame},"constructor":{"prototype":{"playerId":1}}}`,
      `{"type":"resync","gameId":${t.ownGame},"lastIndex":0,"__proto__":null}`,
    ]),
  }),
  'deep nesting': (random) => {
    const depth = random.int(1500) + 500;
    return { data: random.pick(['[', '{"a":']) === '[' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth / 3) + '1' + '}'.repeat(depth / 3) };
  },
  oversized: (random) => json({ type: 'ping', pad: 'x'.repeat(4096 + random.int(20_000)) }),
  binary: (random) => ({ data: random.bytes(1 + random.int(64)), binary: true }),
  "others' games": (random, t) =>
    random.pick([
      json({ type: 'action', gameId: t.othersGame, index: 0, action: t.playedAction }),
      json({ type: 'resign', gameId: t.othersGame }),
      json({ type: 'resync', gameId: t.othersGame, lastIndex: -1 }),
    ]),
  'after game over': (random, t) =>
    random.pick([json({ type: 'action', gameId: t.overGame, index: 0, action: t.playedAction }), json({ type: 'resign', gameId: t.overGame })]),
  'unknown games and races': (random) =>
    random.pick([json({ type: 'action', gameId: 1e9, index: 0, action: 'R' }), json({ type: 'watch', code: random.ascii(6) }), json({ type: 'watch', code: 'ZZZZZZ' })]),
  'illegal actions': (random, t) => json({ type: 'action', gameId: t.ownGame, index: t.nextIndex, action: random.pick(['9z-1a', '', 'x'.repeat(300), `${19 + random.int(80)}a-${19 + random.int(80)}b`, '1a-1a', 'AS', 'R R']) }),
  'conflicting resend': (random, t) => json({ type: 'action', gameId: t.ownGame, index: 0, action: random.pick(['R', '1a-2b', '18a-f']) }),
  'unknown fields and types': (random, t) => random.pick([json({ type: 'action', gameId: t.ownGame, index: t.nextIndex, action: 'R', extra: 1 }), json({ type: random.ascii(8) }), json([]), json(42), json(null)]),
};
/** Rarer, since each ends its socket: a text frame that is not UTF-8 (1007) and one past maxPayload (1009). */
const CLOSING: Record<string, Make> = {
  'invalid UTF-8': () => ({ data: Buffer.from([0x7b, 0x22, 0xc0, 0xae, 0xff, 0x22, 0x7d]) }),
  'past maxPayload': () => json({ type: 'ping', pad: 'x'.repeat(70_000) }),
};
const CLOSING_EVERY = 997;

class Lane {
  private socket!: WebSocket;
  private waiting: ((event: 'message' | 'pong' | 'closed') => void) | undefined;
  internal = 0;

  constructor(
    private readonly wsBase: string,
    private readonly token: string | undefined,
  ) {}

  async open(): Promise<void> {
    this.socket = new WebSocket(`${this.wsBase}/ws${this.token ? `?token=${this.token}` : ''}`);
    this.socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; code?: string };
      if (message.type === 'welcome') return;
      if (message.type === 'error' && message.code === 'internal') this.internal++;
      this.waiting?.(message.type === 'pong' ? 'pong' : 'message');
    });
    this.socket.on('close', () => this.waiting?.('closed'));
    this.socket.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  /** Sends `frame` then a ping: answered when anything comes before the pong, or the socket closes. */
  async exchange(frame: Frame): Promise<boolean> {
    let replies = 0;
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ANSWER_TIMEOUT_MS);
      this.waiting = (event) => {
        if (event === 'message') return void replies++;
        clearTimeout(timer);
        resolve(event === 'closed' || replies > 0);
      };
    });
    this.socket.send(frame.data, { binary: frame.binary ?? false });
    this.socket.send(JSON.stringify({ type: 'ping' }));
    const answered = await done;
    this.waiting = undefined;
    if (this.socket.readyState !== WebSocket.OPEN) await this.open();
    return answered;
  }

  close(): void {
    this.socket.close();
  }
}

export async function wsFuzz(server: ServerProcess, dataDir: string, random: Random, count: number): Promise<string> {
  const [ana, bob, cy] = [await newPlayer(server.base, 'Ana'), await newPlayer(server.base, 'Bob'), await newPlayer(server.base, 'Cy')];
  const [anaSeat, bobSeat] = await startRace(server, [ana, bob]);
  const played = await play(anaSeat!.client, anaSeat!.mirror, anaSeat!.mirror.choose()!);
  const [anaOver] = await startRace(server, [ana, cy]);
  anaOver!.client.send({ type: 'resign', gameId: anaOver!.mirror.gameId });
  await anaOver!.client.next('game-over');
  const targets: Targets = {
    ownGame: anaSeat!.mirror.gameId,
    nextIndex: anaSeat!.mirror.actions.length,
    playedAction: played.action,
    othersGame: bobSeat!.mirror.gameId,
    overGame: anaOver!.mirror.gameId,
  };
  for (const seat of [anaSeat, bobSeat, anaOver]) seat!.client.close();
  const before = dumpDatabase(dataDir);

  const tokens: (TestPlayer | undefined)[] = [ana, ana, ana, cy, undefined];
  const lanes = Array.from({ length: LANES }, (_, i) => new Lane(server.wsBase, tokens[i % tokens.length]?.token));
  await Promise.all(lanes.map((lane) => lane.open()));
  const kinds = Object.entries(MAKERS);
  let sent = 0;
  let unanswered = 0;
  await Promise.all(
    lanes.map(async (lane) => {
      while (sent < count && !server.crashed()) {
        const n = sent++;
        const [, make] = n % CLOSING_EVERY === CLOSING_EVERY - 1 ? random.pick(Object.entries(CLOSING)) : kinds[n % kinds.length]!;
        if (!(await lane.exchange(make(random, targets)))) unanswered++;
      }
    }),
  );
  for (const lane of lanes) lane.close();
  const internal = lanes.reduce((sum, lane) => sum + lane.internal, 0);
  const changed = dumpDatabase(dataDir) === before ? 0 : 1;
  return `${sent} hostile messages (${kinds.length + Object.keys(CLOSING).length} kinds), ${unanswered} unanswered, ${internal} internal errors, ${changed} state changes`;
}
