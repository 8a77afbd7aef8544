// The simulated players of the server benchmark (bench/server.ts), in their own process so the
// server's event loop has a core to itself. Players and races are made over HTTP; each player
// has one real websocket, watches its race and plays its own game one action at a time (send,
// wait for the ack, apply it), computing its moves with the engine as a real client does. Then as
// many sockets on the bare echo route do the same with frames of the same size, at the same pace,
// and again on the floor route (bench/server-floor.ts), grouped in the same races and owed as many
// progress frames per move, of the same size, as the moves phase brought the players.
import { performance } from 'node:perf_hooks';
import { WebSocket, type RawData } from 'ws';
import type { VariantId } from '../shared/index.js';
import type { ServerMessage } from '../contract/index.js';
import { Mirror, randomMove, type Policy } from '../test/support/mirror.js';
import { seededRandom } from './measure.js';

export interface RunCommand {
  type: 'run';
  httpBase: string;
  /** Where players open their sockets: player i on the (i mod n)th, so a race's racers are spread over all of them. */
  wsBases: string[];
  /** Whether each moves phase is followed by the echo and floor phases (the bench routes on wsBases[0]; the server bench only). */
  echo: boolean;
  players: number;
  seats: number;
  variant: VariantId;
  warmupMs: number;
  measureMs: number;
  /** One pair of phases (moves, then echo) per load: paced at `perSecond` per player, or closed loop (null). */
  loads: Load[];
}

export interface Load {
  name: string;
  /** Moves (or echoes) a player sends per second, each after the previous answer; null: as fast as answers come. */
  perSecond: number | null;
}

export interface Latencies {
  count: number;
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  load: Load;
  moves: Latencies;
  echo: Latencies | null;
  floor: Latencies | null;
  /** From a racer's ack to each other racer receiving the progress of that move (the same process, one clock). */
  progress: Latencies;
  /** Progress frames the players received per move acked, and their mean size: what the floor fans out. */
  fanout: { perMove: number; bytes: number };
  /** Players still playing at the end of the moves phase (the others' games ended). */
  playing: number;
  /** Busy fraction of this process's event loop during each measured phase. */
  clientBusy: { moves: number; echo: number | null; floor: number | null };
}

export interface RunResult {
  loads: LoadResult[];
  /** Every ack received, warm-up included: the rows game_actions must hold. */
  acks: number;
  frameBytes: number;
}

/** Child → parent: a measured phase starts or ends (the parent reads its event loop then). */
export interface PhaseEvent {
  type: 'phase';
  load: string;
  phase: 'moves' | 'echo' | 'floor';
  edge: 'start' | 'end';
}

const HANDSHAKE_BATCH = 50;
const MESSAGE_TIMEOUT_MS = 10_000;

class Inbox {
  private waiter: { accept: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void } | undefined;
  private readonly backlog: ServerMessage[] = [];

  push(message: ServerMessage): void {
    if (this.waiter?.accept(message)) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(message);
      return;
    }
    this.backlog.push(message);
  }

  /** The first message (kept or future) that `accept` takes. */
  next<T extends ServerMessage>(accept: (message: ServerMessage) => message is T, what: string): Promise<T> {
    const kept = this.backlog.findIndex(accept);
    if (kept >= 0) return Promise.resolve(this.backlog.splice(kept, 1)[0] as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${MESSAGE_TIMEOUT_MS} ms`)), MESSAGE_TIMEOUT_MS);
      this.waiter = {
        accept,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message as T);
        },
      };
    });
  }

  clear(): void {
    this.backlog.length = 0;
  }
}

const isType =
  <K extends ServerMessage['type']>(type: K) =>
  (message: ServerMessage): message is Extract<ServerMessage, { type: K }> =>
    message.type === type;

/**
 * When each acked move's ack arrived (`gameId:moves`), and the delays from it to the other racers'
 * progress of that move, while a phase is measured.
 */
const progressDelays = { ackedAt: new Map<string, number>(), record: undefined as number[] | undefined };

class BenchPlayer {
  readonly inbox = new Inbox();
  /** The player's game as its acks built it (set once dealt). */
  mirror!: Mirror;
  ended = false;
  /** Progress frames received, and their bytes (counted over the measured moves phase). */
  progress = { frames: 0, bytes: 0 };
  private readonly random: () => number;
  private readonly policy: Policy;

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
  ) {
    this.random = seededRandom(id);
    this.policy = randomMove(this.random);
    socket.on('message', (data: RawData) => {
      const text = data.toString();
      // Progress of the racers (every move of the race) is what a client shows but never waits for.
      if (text.startsWith('{"type":"progress"')) {
        if (progressDelays.record) this.heard(JSON.parse(text));
        this.progress.frames++;
        this.progress.bytes += text.length;
        return;
      }
      this.inbox.push(JSON.parse(text));
    });
  }

  /** The racers' progress: how long after each move's ack it reached this player. */
  private heard({ progress }: { progress: { playerId: number; gameId: number; moves: number }[] }): void {
    for (const racer of progress) {
      if (racer.playerId === this.id) continue;
      const ackedAt = progressDelays.ackedAt.get(`${racer.gameId}:${racer.moves}`);
      if (ackedAt !== undefined) progressDelays.record?.push(performance.now() - ackedAt);
    }
  }

  /** Plays until `until` (performance.now()), pushing each move→ack time in ms to `record`. */
  async play(until: number, record: number[] | undefined, perSecond: number | null): Promise<void> {
    const pace = new Pace(perSecond, this.random);
    while (!this.ended && (await pace.wait(until))) {
      const action = this.mirror.choose(this.policy);
      if (!action) {
        this.ended = true;
        break;
      }
      const index = this.mirror.index;
      const start = performance.now();
      this.socket.send(JSON.stringify(this.mirror.frame(action)));
      const answer = await this.inbox.next(
        (message): message is Extract<ServerMessage, { type: 'ack' | 'error' }> =>
          (message.type === 'ack' && message.index === index) || message.type === 'error',
        `ack ${index}`,
      );
      const ms = performance.now() - start;
      if (answer.type === 'error') throw new Error(`move ${index} of game ${this.mirror.gameId} refused: ${answer.code} ${answer.message}`);
      record?.push(ms);
      if (record) progressDelays.ackedAt.set(`${this.mirror.gameId}:${index + 1}`, performance.now());
      this.mirror.apply(answer);
      if (this.mirror.position.status().over) this.ended = true;
    }
    this.inbox.clear();
  }
}

/** Sends at `perSecond` (from a random phase, so players do not move in step), never two at once; or closed loop. */
class Pace {
  private next: number;
  private readonly interval: number;

  constructor(perSecond: number | null, random: () => number) {
    this.interval = perSecond === null ? 0 : 1000 / perSecond;
    this.next = performance.now() + random() * this.interval;
  }

  /** Waits for the next send time; false once `until` has passed. */
  async wait(until: number): Promise<boolean> {
    const now = performance.now();
    if (this.interval > 0 && this.next > now) await new Promise((resolve) => setTimeout(resolve, this.next - now));
    // A late answer is not made up for with a burst: the next send waits a whole interval.
    this.next = Math.max(this.next, performance.now()) + this.interval;
    return performance.now() < until;
  }
}

/** One echo socket per player: the frame it sends is the size of that player's last move. */
async function echoLoop(socket: WebSocket, frame: string, until: number, record: number[] | undefined, perSecond: number | null): Promise<void> {
  const pace = new Pace(perSecond, Math.random);
  while (await pace.wait(until)) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no echo within 10 s')), MESSAGE_TIMEOUT_MS);
      socket.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.send(frame);
    });
    record?.push(performance.now() - start);
  }
}

/** A floor socket: like the echo, but the answer it waits for is the first frame that is not fan-out. */
async function floorLoop(socket: WebSocket, frame: string, until: number, record: number[] | undefined, perSecond: number | null): Promise<void> {
  const pace = new Pace(perSecond, Math.random);
  while (await pace.wait(until)) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no floor ack within 10 s')), MESSAGE_TIMEOUT_MS);
      const onMessage = (data: RawData) => {
        if (data.toString().startsWith('{"type":"progress"')) return;
        clearTimeout(timer);
        socket.off('message', onMessage);
        resolve();
      };
      socket.on('message', onMessage);
      socket.send(frame);
    });
    record?.push(performance.now() - start);
  }
}

async function run(command: RunCommand): Promise<RunResult> {
  const { httpBase, wsBases, players: count, seats, variant } = command;
  const post = async (path: string, token?: string, body: object = {}) => {
    const response = await fetch(`${httpBase}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };

  // Players and races over HTTP; every racer's socket opens and watches its race before the start.
  const created: { id: number; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const { player, token } = await post('/api/players', undefined, { name: `bench ${i}` });
    created.push({ id: player.id, token });
  }
  // As few races as `seats` allows, filled evenly (so no race is left with a lone racer).
  const raceCount = Math.ceil(count / seats);
  const races: { code: string; creator: string; members: typeof created }[] = [];
  for (let r = 0; r < raceCount; r++) {
    const members = created.filter((_, i) => i % raceCount === r);
    const { race } = await post('/api/races', members[0]!.token, { variant, seats: members.length });
    for (const member of members.slice(1)) await post(`/api/races/${race.code}/join`, member.token);
    races.push({ code: race.code, creator: members[0]!.token, members });
  }
  const opened = (socket: WebSocket) =>
    new Promise<WebSocket>((resolve, reject) => {
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  const players: BenchPlayer[] = [];
  const raceOf = new Map<BenchPlayer, string>();
  const echoes: WebSocket[] = [];
  for (const [r, race] of races.entries()) {
    for (let first = 0; first < race.members.length; first += HANDSHAKE_BATCH) {
      const batch = await Promise.all(
        race.members.slice(first, first + HANDSHAKE_BATCH).map(async ({ id, token }, j) => {
          // A race's racers take the instances in turn, so every race spans all of them.
          const wsBase = wsBases[(r + first + j) % wsBases.length]!;
          // Listening from the start: the welcome can come in the same read as the upgrade.
          const player = new BenchPlayer(id, new WebSocket(`${wsBase}/ws?token=${encodeURIComponent(token)}`));
          await opened(player.socket);
          await player.inbox.next(isType('welcome'), 'welcome');
          player.socket.send(JSON.stringify({ type: 'watch', code: race.code }));
          await player.inbox.next(isType('race'), 'race');
          raceOf.set(player, race.code);
          return player;
        }),
      );
      players.push(...batch);
    }
  }
  for (let first = 0; command.echo && first < count; first += HANDSHAKE_BATCH) {
    echoes.push(...(await Promise.all(Array.from({ length: Math.min(HANDSHAKE_BATCH, count - first) }, () => opened(new WebSocket(`${wsBases[0]}/bench-echo`))))));
  }
  for (const race of races) await post(`/api/races/${race.code}/start`, race.creator);
  await Promise.all(
    players.map(async (player) => {
      const game = await player.inbox.next(isType('game'), 'game');
      player.mirror = Mirror.of(game);
    }),
  );
  for (const player of players) player.inbox.clear();

  const phase = async (load: Load, name: PhaseEvent['phase'], loop: (until: number, record: number[] | undefined) => Promise<void>) => {
    await loop(performance.now() + command.warmupMs, undefined);
    for (const player of players) player.progress = { frames: 0, bytes: 0 };
    const record: number[] = [];
    send({ type: 'phase', load: load.name, phase: name, edge: 'start' } satisfies PhaseEvent);
    const busy = performance.eventLoopUtilization();
    const start = performance.now();
    await loop(start + command.measureMs, record);
    const seconds = (performance.now() - start) / 1000;
    send({ type: 'phase', load: load.name, phase: name, edge: 'end' } satisfies PhaseEvent);
    return { latencies: summarise(record, seconds), busy: performance.eventLoopUtilization(busy).utilization };
  };

  const acksSoFar = () => players.reduce((sum, player) => sum + player.mirror.index, 0);
  const frameOf = (player: BenchPlayer) => JSON.stringify({ type: 'action', gameId: player.mirror.gameId, index: player.mirror.index, action: '17>18' });
  const loads: LoadResult[] = [];
  for (const load of command.loads) {
    const delays: number[] = [];
    const moves = await phase(load, 'moves', async (until, record) => {
      progressDelays.record = record && delays;
      await Promise.all(players.map((player) => player.play(until, record, load.perSecond)));
      progressDelays.record = undefined;
      progressDelays.ackedAt.clear();
    });
    const playing = players.filter((player) => !player.ended).length;
    // Over the moves phase's measured part: the next phase starts the count again.
    const received = players.reduce((sum, { progress }) => ({ frames: sum.frames + progress.frames, bytes: sum.bytes + progress.bytes }), { frames: 0, bytes: 0 });
    const fanout = { perMove: received.frames / Math.max(1, moves.latencies.count), bytes: received.frames === 0 ? 0 : Math.round(received.bytes / received.frames) };
    // Each echo socket sends what its player sent last, in size: the same frames both ways.
    const frames = players.map(frameOf);
    const echo = command.echo
      ? await phase(load, 'echo', (until, record) => Promise.all(echoes.map((socket, i) => echoLoop(socket, frames[i]!, until, record, load.perSecond))).then(() => {}))
      : null;
    const floorSockets: WebSocket[] = [];
    for (let first = 0; command.echo && first < count; first += HANDSHAKE_BATCH) {
      const batch = players.slice(first, first + HANDSHAKE_BATCH).map((player) => {
        const query = new URLSearchParams({ race: raceOf.get(player)!, fanout: String(fanout.perMove), progressBytes: String(fanout.bytes) });
        return opened(new WebSocket(`${wsBases[0]}/bench-floor?${query}`));
      });
      floorSockets.push(...(await Promise.all(batch)));
    }
    const floor = command.echo
      ? await phase(load, 'floor', (until, record) =>
          Promise.all(floorSockets.map((socket, i) => floorLoop(socket, frames[i]!, until, record, load.perSecond))).then(() => {}),
        )
      : null;
    await Promise.all(floorSockets.map(closed));
    loads.push({
      load,
      moves: moves.latencies,
      echo: echo?.latencies ?? null,
      floor: floor?.latencies ?? null,
      progress: summarise(delays, moves.latencies.seconds),
      fanout,
      playing,
      clientBusy: { moves: moves.busy, echo: echo?.busy ?? null, floor: floor?.busy ?? null },
    });
  }
  const acks = acksSoFar();
  const frameBytes = Math.round(players.reduce((sum, player) => sum + frameOf(player).length, 0) / players.length);

  await Promise.all([...players.map((player) => player.socket), ...echoes].map(closed));
  return { loads, acks, frameBytes };
}

function closed(socket: WebSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    socket.once('close', () => resolve());
    socket.close();
  });
}

function summarise(values: number[], seconds: number): Latencies {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, seconds, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

function send(message: object): void {
  process.send!(message);
}

process.on('message', (command: RunCommand | { type: 'exit' }) => {
  if (command.type === 'exit') {
    process.disconnect();
    return;
  }
  run(command).then(
    (result) => send({ type: 'result', result }),
    (error: Error) => send({ type: 'failed', message: error.stack ?? error.message }),
  );
});
// The parent going away (a crash, ^C) takes the players with it.
process.on('disconnect', () => process.exit(0));
