// The players of the capacity bench (bench/capacity.ts), kept cheap so that the server, not the
// load, is what runs out: one process of several, each with its share of the races. A player is a
// real websocket that watches its race and plays its own game with the engine (as a browser
// does), one move a second from a random phase, never two at once; a spectator only watches.
// Progress frames are counted by their first bytes, not parsed. Each process reports its own
// event loop's busy share and delay over the measured span: when those stay low, the latencies it
// measured are the server's.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { WebSocket, type RawData } from 'ws';
import type { ServerMessage } from '../contract/index.js';
import { Mirror, randomMove, type Policy } from '../test/support/mirror.js';
import { seededRandom } from './measure.js';

export interface CapacityRace {
  code: string;
  racers: { id: number; token: string }[];
  spectators: number;
}

/** Parent → child. Times are epoch ms (Date.now()), the one clock both processes share. */
export type CapacityCommand =
  | { type: 'connect'; wsBase: string; races: CapacityRace[] }
  | { type: 'play'; measureFrom: number; until: number; perSecond: number }
  | { type: 'floor'; wsBase: string; fanout: number; progressBytes: number; measureFrom: number; until: number; perSecond: number }
  | { type: 'end' }
  | { type: 'exit' };

export interface SpanReport {
  /** Move (or floor frame) → its ack, ms, for sends within the measured span. */
  latencies: number[];
  /** This process's event loop over the measured span. */
  loopBusy: number;
  loopDelayP99: number;
  /** Progress frames and bytes received over the measured span. */
  progressFrames: number;
  progressBytes: number;
  /** Players whose game was still going at the end. */
  playing: number;
}

/** Child → parent. */
export type CapacityReport =
  | { type: 'connected' }
  | { type: 'dealt' }
  | { type: 'span'; report: SpanReport }
  | { type: 'ended'; acks: number }
  | { type: 'failed'; message: string };

const TIMEOUT_MS = 60_000;
const PROGRESS_PREFIX = '{"type":"progress"';
const HANDSHAKE_BATCH = 100;

/** What the process counts while a span is measured. */
const span = { measuring: false, progressFrames: 0, progressBytes: 0 };

class Racer {
  mirror: Mirror | undefined;
  ended = false;
  private readonly random: () => number;
  private readonly policy: Policy;
  private sentAt = 0;
  waiting = false;
  private timer: NodeJS.Timeout | undefined;
  private plan: { measureFrom: number; until: number; interval: number; record: number[] } | undefined;
  private readonly dealtWaiters: (() => void)[] = [];

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
  ) {
    this.random = seededRandom(id);
    this.policy = randomMove(this.random);
    socket.on('message', (data: RawData) => this.received(data.toString()));
  }

  dealt(): Promise<void> {
    return this.mirror ? Promise.resolve() : new Promise((resolve) => this.dealtWaiters.push(resolve));
  }

  /** Plays one move a `interval` ms, from a random phase, until `until` (epoch ms). */
  play(measureFrom: number, until: number, interval: number, record: number[]): void {
    this.plan = { measureFrom, until, interval, record };
    this.timer = setTimeout(() => this.move(), this.random() * interval);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.plan = undefined;
  }

  /** A move of the span still unanswered counts as answered now (at the least): a server that stops answering fails the step. */
  unanswered(record: number[], measureFrom: number): void {
    if (this.waiting && Date.now() - (performance.now() - this.sentAt) >= measureFrom) record.push(performance.now() - this.sentAt);
  }

  private move(): void {
    const plan = this.plan;
    if (!plan || this.ended || !this.mirror || Date.now() >= plan.until) return;
    this.timer = setTimeout(() => this.move(), plan.interval);
    // Still waiting for the last ack: this beat is skipped, as a person waits for the board.
    if (this.waiting) return;
    const action = this.mirror.choose(this.policy);
    if (!action) {
      this.ended = true;
      return;
    }
    this.waiting = true;
    this.sentAt = performance.now();
    this.socket.send(JSON.stringify(this.mirror.frame(action)));
  }

  private received(text: string): void {
    if (text.startsWith(PROGRESS_PREFIX)) {
      if (span.measuring) {
        span.progressFrames++;
        span.progressBytes += text.length;
      }
      return;
    }
    const message = JSON.parse(text) as ServerMessage;
    if (message.type === 'game' && !this.mirror) {
      this.mirror = Mirror.of(message);
      for (const resolve of this.dealtWaiters.splice(0)) resolve();
    } else if (message.type === 'ack' && this.mirror && message.gameId === this.mirror.gameId) {
      if (message.index !== this.mirror.index) return;
      const plan = this.plan;
      if (plan && Date.now() - (performance.now() - this.sentAt) >= plan.measureFrom) plan.record.push(performance.now() - this.sentAt);
      this.waiting = false;
      this.mirror.apply(message);
      if (this.mirror.position.status().over) this.ended = true;
    } else if (message.type === 'error') {
      fail(new Error(`player ${this.id}: ${message.code} ${message.message}`));
    }
  }
}

const opened = (socket: WebSocket) =>
  new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

function firstMessage(socket: WebSocket, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    const listener = (data: RawData) => {
      if (!data.toString().startsWith(`{"type":"${type}"`)) return;
      clearTimeout(timer);
      socket.off('message', listener);
      resolve();
    };
    socket.on('message', listener);
  });
}

/** Opens a socket, waits for its welcome, watches `code` and waits for the race view. */
async function watching(url: string, code: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  const welcome = firstMessage(socket, 'welcome');
  await opened(socket);
  await welcome;
  const race = firstMessage(socket, 'race');
  socket.send(JSON.stringify({ type: 'watch', code }));
  await race;
  return socket;
}

function closed(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    socket.once('close', () => resolve());
    socket.close();
  });
}

let racers: Racer[] = [];
let watchers: WebSocket[] = [];
let races: CapacityRace[] = [];

async function connect(wsBase: string, given: CapacityRace[]): Promise<void> {
  races = given;
  const jobs: (() => Promise<void>)[] = [];
  for (const race of races) {
    for (const { id, token } of race.racers) {
      jobs.push(async () => {
        const socket = await watching(`${wsBase}/ws?token=${encodeURIComponent(token)}`, race.code);
        racers.push(new Racer(id, socket));
      });
    }
    for (let i = 0; i < race.spectators; i++) jobs.push(async () => void watchers.push(countProgress(await watching(`${wsBase}/ws`, race.code))));
  }
  for (let first = 0; first < jobs.length; first += HANDSHAKE_BATCH) await Promise.all(jobs.slice(first, first + HANDSHAKE_BATCH).map((job) => job()));
}

function countProgress(socket: WebSocket): WebSocket {
  socket.on('message', (data: RawData) => {
    if (!span.measuring) return;
    const text = data.toString();
    if (!text.startsWith(PROGRESS_PREFIX)) return;
    span.progressFrames++;
    span.progressBytes += text.length;
  });
  return socket;
}

/** Runs a measured span: `start` begins the load, which must stop by itself at `until`. */
async function measure(measureFrom: number, until: number, start: (record: number[]) => void): Promise<SpanReport> {
  const record: number[] = [];
  start(record);
  await sleepUntil(measureFrom);
  span.measuring = true;
  span.progressFrames = 0;
  span.progressBytes = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const busy = performance.eventLoopUtilization();
  await sleepUntil(until);
  span.measuring = false;
  delay.disable();
  const loopBusy = performance.eventLoopUtilization(busy).utilization;
  // The last acks of the span.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { latencies: record, loopBusy, loopDelayP99: delay.percentile(99) / 1e6, progressFrames: span.progressFrames, progressBytes: span.progressBytes, playing: racers.filter((racer) => !racer.ended).length };
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** The floor (bench/server-floor.ts): as many sockets in the same races, paced alike, owed the fan-out Lucie's moves caused. */
async function floor(command: Extract<CapacityCommand, { type: 'floor' }>): Promise<SpanReport> {
  const sockets: { socket: WebSocket; sends: boolean }[] = [];
  const jobs: (() => Promise<void>)[] = [];
  for (const race of races) {
    const query = new URLSearchParams({ race: `${process.pid}-${race.code}`, fanout: String(command.fanout), progressBytes: String(command.progressBytes) });
    const url = `${command.wsBase}/bench-floor?${query}`;
    for (let i = 0; i < race.racers.length + race.spectators; i++) {
      const sends = i < race.racers.length;
      jobs.push(async () => void sockets.push({ socket: countProgress(await opened(new WebSocket(url))), sends }));
    }
  }
  for (let first = 0; first < jobs.length; first += HANDSHAKE_BATCH) await Promise.all(jobs.slice(first, first + HANDSHAKE_BATCH).map((job) => job()));
  const interval = 1000 / command.perSecond;
  const timers: NodeJS.Timeout[] = [];
  const report = await measure(command.measureFrom, command.until, (record) => {
    sockets.forEach(({ socket, sends }, i) => {
      if (!sends) return;
      const frame = JSON.stringify({ type: 'action', gameId: 100_000 + i, index: 0, action: '17>18' });
      let sentAt = 0;
      let waiting = false;
      socket.on('message', (data: RawData) => {
        if (!waiting || data.toString().startsWith(PROGRESS_PREFIX)) return;
        waiting = false;
        if (Date.now() - (performance.now() - sentAt) >= command.measureFrom) record.push(performance.now() - sentAt);
      });
      const beat = () => {
        if (Date.now() >= command.until) return;
        timers.push(setTimeout(beat, interval));
        if (waiting) return;
        waiting = true;
        sentAt = performance.now();
        socket.send(frame);
      };
      timers.push(setTimeout(beat, Math.random() * interval));
    });
  });
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(sockets.map(({ socket }) => closed(socket)));
  return report;
}

/** Every racer resigns what is left of their game (so nothing waits on a grace period), then every socket closes. */
async function end(): Promise<number> {
  for (const racer of racers) racer.stop();
  // Moves still in flight are acked first: every ack counted, every move counted acked.
  for (let i = 0; i < 100 && racers.some((racer) => racer.waiting); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const racer of racers) {
    if (racer.mirror && !racer.ended) racer.socket.send(JSON.stringify({ type: 'resign', gameId: racer.mirror.gameId }));
  }
  const acks = racers.reduce((sum, racer) => sum + (racer.mirror?.index ?? 0), 0);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await Promise.all([...racers.map((racer) => racer.socket), ...watchers].map(closed));
  racers = [];
  watchers = [];
  return acks;
}

function send(report: CapacityReport): void {
  process.send!(report);
}

function fail(error: Error): void {
  send({ type: 'failed', message: error.stack ?? error.message });
}

async function handle(command: CapacityCommand): Promise<void> {
  switch (command.type) {
    case 'connect':
      await connect(command.wsBase, command.races);
      send({ type: 'connected' });
      await Promise.all(racers.map((racer) => racer.dealt()));
      return send({ type: 'dealt' });
    case 'play': {
      const interval = 1000 / command.perSecond;
      let record: number[] = [];
      const report = await measure(command.measureFrom, command.until, (given) => {
        record = given;
        for (const racer of racers) racer.play(command.measureFrom, command.until, interval, given);
      });
      for (const racer of racers) racer.unanswered(record, command.measureFrom);
      return send({ type: 'span', report: { ...report, latencies: record } });
    }
    case 'floor':
      return send({ type: 'span', report: await floor(command) });
    case 'end':
      return send({ type: 'ended', acks: await end() });
    case 'exit':
      return process.disconnect();
  }
}

process.on('message', (command: CapacityCommand) => void handle(command).catch(fail));
process.on('disconnect', () => process.exit(0));
