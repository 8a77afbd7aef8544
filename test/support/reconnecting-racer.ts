// A scripted racer that rides out a server's restart as the browser's client does
// (client/src/lib/connection.ts and game-session.svelte.ts): when its socket drops it waits its
// first backoff (250 ms, ±25 %), connects to the address the load balancer gives now (another
// instance), watches its race again and resyncs from its last acknowledged move. A move refused
// as `server-closing`, or whose answer the drop lost, is sent again once resynced, unless the
// resync shows it stored. Every ack is kept with the instance that sent it.
import type { ServerMessage, ServerMessageOf } from '../../contract/index.js';
import type { Instance } from './cluster.js';
import { Mirror } from './mirror.js';
import { Client } from './socket-client.js';

/** The browser's first reconnection delay (connection.ts BACKOFF_MS[0]) and its jitter. */
const FIRST_BACKOFF_MS = 250;
/** The browser tries again, backing off, while no instance answers; so does this racer, this many times. */
const ATTEMPTS = 20;

export interface Reconnection {
  from: string;
  to: string;
  /** When the racer saw its socket close, and when it held its game again (resynced) on the other instance. */
  closedAt: number;
  backAt: number;
  /** Why the attempts before the one that succeeded failed. */
  failures: string[];
}

/** An ack as the racer received it: on which instance's socket, and whether as an answer to its move or in a resync. */
export interface ReceivedAck {
  instance: string;
  gameId: number;
  index: number;
  action: string;
  how: 'ack' | 'resynced';
  /** When it arrived. */
  at: number;
}

type Answer = ServerMessageOf<'ack'> | ServerMessageOf<'error'>;

/** A socket closed under a wait (the client's wait throws then). */
const dropped = (client: Client) => client.closed !== undefined;

export class ReconnectingRacer {
  mirror: Mirror | undefined;
  readonly acks: ReceivedAck[] = [];
  readonly reconnections: Reconnection[] = [];
  /** Moves whose answer a stopping server cut off: refused `server-closing`, or the socket dropped while it was awaited. */
  interrupted = 0;
  /** Of those, the ones refused `server-closing`. */
  refusedClosing = 0;
  /** Refusals other than `server-closing`: none is expected. */
  readonly refusals: string[] = [];
  private client!: Client;
  private instance!: Instance;
  private flowing: { stop: boolean; done: Promise<void> } | undefined;
  /** The race watched. */
  private code = '';

  /** `balancer`: the instance a new connection reaches now (a load balancer takes a closing instance out). */
  constructor(
    readonly player: { id: number; token: string },
    private readonly balancer: () => Instance,
  ) {}

  get at(): Instance {
    return this.instance;
  }

  get socket(): Client {
    return this.client;
  }

  get over(): boolean {
    return this.mirror === undefined || this.mirror.position.status().over;
  }

  /** What a failed wait says of this racer. */
  state(): object {
    return { at: this.instance?.name, over: this.over, index: this.mirror?.index, interrupted: this.interrupted, dropped: this.client ? dropped(this.client) : null, flowing: this.flowing !== undefined, refusals: this.refusals };
  }

  /** Connects where the balancer says (a socket it had is closed) and watches `code`, its new race. */
  async connect(code: string): Promise<void> {
    this.client?.close();
    this.mirror = undefined;
    this.instance = this.balancer();
    this.client = await Client.connect(this.instance.wsBase, this.player);
    this.code = code;
    this.client.send({ type: 'watch', code });
    await this.client.next('race');
  }

  /** Takes the game the race deals this racer (sent to the socket at the deal). */
  async dealt(ms = 10_000): Promise<void> {
    this.mirror = Mirror.of(await this.client.next('game', (game) => game.raceCode === this.code, ms));
  }

  /**
   * Plays a move every `pauseMs` until stopped (none once the game is over), and like the
   * browser comes back whenever the socket drops, moving or not.
   */
  flow(pauseMs: number): void {
    const state = { stop: false, done: Promise.resolve() };
    state.done = (async () => {
      while (!state.stop) {
        if (!this.over) await this.move();
        else if (dropped(this.client)) await this.reconnect();
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    })();
    // Its failure is thrown by `stop()`.
    state.done.catch(() => undefined);
    this.flowing = state;
  }

  /** Stops the flow after the move in hand; resolves once it is answered. */
  async stop(): Promise<void> {
    const flowing = this.flowing;
    this.flowing = undefined;
    if (!flowing) return;
    flowing.stop = true;
    await flowing.done;
  }

  /** One move of the policy's choice, answered: across a drop of the socket if one comes. */
  private async move(): Promise<void> {
    const mirror = this.mirror!;
    const action = mirror.choose();
    if (!action) return;
    const index = mirror.index;
    const frame = mirror.frame(action);
    while (mirror.index === index) {
      if (dropped(this.client)) {
        await this.reconnect();
        continue;
      }
      this.client.send(frame);
      let answer: Answer;
      try {
        answer = await this.client.nextWhere(
          (message: ServerMessage): message is Answer => (message.type === 'ack' || message.type === 'error') && message.gameId === mirror.gameId && message.index === index,
          `the answer to move ${index}`,
          10_000,
        );
      } catch (error) {
        if (!dropped(this.client)) throw error;
        this.interrupted++;
        continue;
      }
      if (answer.type === 'ack') {
        mirror.apply(answer);
        this.acks.push({ instance: this.instance.name, gameId: mirror.gameId, index, action: answer.action, how: 'ack', at: Date.now() });
      } else if (answer.code === 'server-closing') {
        // Kept, and sent again once reconnected (game-session.svelte.ts does the same).
        this.interrupted++;
        this.refusedClosing++;
        await this.client.whenClosed(15_000);
      } else {
        this.refusals.push(`${answer.code} at ${index} on ${this.instance.name}`);
        throw new Error(`move ${index} of game ${mirror.gameId} refused: ${answer.code}`);
      }
    }
  }

  /** After a drop: back on the balancer's instance, the race watched and the game resynced. */
  private async reconnect(): Promise<void> {
    const from = this.instance.name;
    const closedAt = Date.now();
    const failures: string[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const backoff = FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 4);
      await new Promise((resolve) => setTimeout(resolve, backoff * (0.75 + Math.random() / 2)));
      try {
        this.instance = this.balancer();
        this.client = await Client.connect(this.instance.wsBase, this.player);
        this.client.send({ type: 'watch', code: this.code });
        await this.client.next('race');
        if (this.mirror) await this.resync();
        this.reconnections.push({ from, to: this.instance.name, closedAt, backAt: Date.now(), failures });
        return;
      } catch (error) {
        failures.push(`${this.instance.name} after ${Date.now() - closedAt} ms: ${String(error)}`);
      }
    }
    throw new Error(`no instance took ${this.player.id} back: ${failures.join('; ')}`);
  }

  /** The acks after the last one held, applied (what the drop lost of them). */
  private async resync(): Promise<void> {
    const mirror = this.mirror!;
    this.client.send({ type: 'resync', gameId: mirror.gameId, lastIndex: mirror.index - 1 });
    const { acks } = await this.client.next('resynced', (message) => message.gameId === mirror.gameId);
    for (const ack of acks) {
      if (ack.index < mirror.index) continue;
      mirror.apply(ack);
      this.acks.push({ instance: this.instance.name, gameId: mirror.gameId, index: ack.index, action: ack.action, how: 'resynced', at: Date.now() });
    }
  }

  close(): void {
    this.client?.close();
  }
}
