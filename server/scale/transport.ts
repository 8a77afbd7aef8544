import type { FastifyBaseLogger } from 'fastify';
import type { ServerMessage } from '../../contract/index.js';
import type { Hub } from '../hub.js';
import { after, type Pending, type Transport } from '../ports.js';
import type { BusMessage, RedisBus } from './bus.js';
import type { SharedPresence } from './presence.js';

/** Whose listeners a topic reaches: a race's watchers or a player's sockets. */
export type Topic = { readonly kind: 'race'; readonly code: string } | { readonly kind: 'player'; readonly playerId: number };

/** What makes a topic's listeners whole again after messages to them were lost: the current state, as messages. */
export type Refetch = (topic: Topic) => Pending<ServerMessage[]>;

/** The head of a player topic's publication that closes a signed-out device's sockets (not a message to pass on). */
const SIGNED_OUT = 'signed-out';

/** How often a publication that Redis refused is followed up with a "refetch" marker, until one gets through. */
const LOST_RETRY_MS = 1000;

function topicOf(name: string): Topic | undefined {
  if (name.startsWith('race:')) return { kind: 'race', code: name.slice(5) };
  if (name.startsWith('player:')) return { kind: 'player', playerId: Number(name.slice(7)) };
  return undefined;
}

/** How a race's whole view starts, as `toRace` publishes it (JSON.stringify keeps `type` first). */
const RACE_VIEW = '{"type":"race",';

/**
 * Race and player messages between instances. Every message goes through the bus, including to
 * this instance's own listeners, so every watcher of a race, wherever they are connected, gets
 * its messages in the one order of the bus's sequence numbers. The one exception is an ack: the
 * acking instance writes it to its own sockets at once (the player waits on it) and marks the
 * publication as delivered there, so the player's tabs elsewhere get it once, through the bus.
 *
 * An instance is subscribed to a race's or a player's topic only while it has listeners for it
 * (the hub says when). Whenever messages may have been missed (a gap in a topic's numbers, a
 * subscription that came back after a lost connection, a publication Redis refused, a race's
 * subscription starting) the listeners here get the current state from `refetch` instead.
 * Presence is the shared presence's (scale/presence.ts).
 */
export class RedisTransport implements Transport {
  /** Topics with a listener here. */
  private readonly following = new Set<string>();
  /** The last sequence number received per followed topic. */
  private readonly lastSeq = new Map<string, number>();
  /** How many whole race views each followed race topic brought: a refetch that one overtook is stale. */
  private readonly viewsHeard = new Map<string, number>();
  /** Topics whose publication failed: their listeners everywhere are told to refetch once Redis takes it. */
  private readonly unsent = new Set<string>();
  private retry: NodeJS.Timeout | undefined;
  private refetch: Refetch = () => [];

  constructor(
    private readonly hub: Hub,
    private readonly bus: RedisBus,
    private readonly presence: SharedPresence,
    private readonly log: FastifyBaseLogger,
  ) {
    bus.onMessage((message) => this.received(message));
    bus.onReconnect(() => {
      for (const name of this.following) this.refetchHere(name);
    });
    hub.onWatched((code, watched) => this.follow(`race:${code}`, watched));
    hub.onPresence((playerId, connected) => this.follow(`player:${playerId}`, connected));
  }

  /** How to read a topic's current state (set once the services exist). */
  refetchWith(refetch: Refetch): void {
    this.refetch = refetch;
  }

  toPlayer(playerId: number, message: ServerMessage): void {
    this.publish(`player:${playerId}`, `- ${JSON.stringify(message)}`);
  }

  toPlayerNow(playerId: number, message: ServerMessage): void {
    this.hub.toPlayerNow(playerId, message);
    this.publish(`player:${playerId}`, `${this.presence.instanceId} ${JSON.stringify(message)}`);
  }

  toRace(code: string, message: ServerMessage): void {
    this.publish(`race:${code}`, `- ${JSON.stringify(message)}`);
  }

  /** Here at once, and through the player's topic to the instances holding their other sockets. */
  closeDevice(playerId: number, deviceId: number): void {
    this.hub.closeDevice(playerId, deviceId);
    this.publish(`player:${playerId}`, `${SIGNED_OUT} ${deviceId}`);
  }

  isConnected(playerId: number): boolean {
    return this.presence.isConnected(playerId);
  }

  /** How many players have a socket open now, on every instance. */
  onlineCount(): number {
    return this.presence.count();
  }

  onPresence(listener: (playerId: number, connected: boolean) => void): void {
    this.presence.onChange(listener);
  }

  close(): void {
    clearTimeout(this.retry);
  }

  private publish(topic: string, payload: string): void {
    this.bus.publish(topic, payload).catch((error: unknown) => {
      this.log.warn({ err: error, topic }, 'cannot publish a message: its listeners will be told to refetch');
      this.unsent.add(topic);
      this.retry ??= setTimeout(() => this.sendLost(), LOST_RETRY_MS);
    });
  }

  /** Tells the listeners of every topic whose publication failed, everywhere, to refetch. */
  private sendLost(): void {
    this.retry = undefined;
    for (const topic of this.unsent) {
      this.unsent.delete(topic);
      this.publish(topic, '!');
    }
  }

  private follow(topic: string, listening: boolean): void {
    const failed = (error: unknown) => this.log.warn({ err: error, topic }, 'cannot change a subscription');
    if (!listening) {
      this.following.delete(topic);
      this.lastSeq.delete(topic);
      this.viewsHeard.delete(topic);
      this.bus.unsubscribe(topic).catch(failed);
      return;
    }
    // A race's watchers here did not hear what was published before the subscription took effect:
    // they get its current state. A player's new socket asks for its game itself (watch, resync).
    this.following.add(topic);
    // The number reached as the subscription starts (asked first, so almost always before it takes
    // effect): a first message numbered past it means some were missed in between, a gap as any other.
    this.bus.sequence(topic).then((seq) => {
      if (this.following.has(topic) && !this.lastSeq.has(topic)) this.lastSeq.set(topic, seq);
    }, failed);
    this.bus.subscribe(topic).then(() => topic.startsWith('race:') && this.refetchHere(topic), failed);
  }

  private received({ topic, seq, payload }: BusMessage): void {
    const space = payload.indexOf(' ');
    const head = space < 0 ? payload : payload.slice(0, space);
    const last = this.lastSeq.get(topic);
    this.lastSeq.set(topic, seq);
    if (head === '!' || (last !== undefined && seq !== last + 1)) this.refetchHere(topic);
    if (head === '!' || head === this.presence.instanceId) return;
    const text = payload.slice(space + 1);
    const target = topicOf(topic);
    if (head === SIGNED_OUT) {
      if (target?.kind === 'player') this.hub.closeDevice(target.playerId, Number(text));
      return;
    }
    if (target?.kind === 'race' && text.startsWith(RACE_VIEW)) this.viewsHeard.set(topic, (this.viewsHeard.get(topic) ?? 0) + 1);
    if (target?.kind === 'race') this.hub.toRaceText(target.code, text);
    else if (target?.kind === 'player') this.hub.toPlayerText(target.playerId, text);
  }

  /** Sends this instance's listeners of `topic` its current state. */
  private refetchHere(name: string): void {
    const topic = topicOf(name);
    if (!topic) return;
    const heard = this.viewsHeard.get(name) ?? 0;
    void Promise.resolve()
      .then(() => after(this.refetch(topic), (messages) => {
        // A view published after this read began reached the listeners first (a race started as a
        // watcher's subscription took effect): the view read here may predate it, and it adds nothing.
        const overtaken = (this.viewsHeard.get(name) ?? 0) > heard;
        this.deliverHere(topic, overtaken ? messages.filter((message) => message.type !== 'race') : messages);
      }))
      .catch((error: unknown) => this.log.error({ err: error, topic: name }, 'cannot refetch a topic after lost messages'));
  }

  private deliverHere(topic: Topic, messages: readonly ServerMessage[]): void {
    for (const message of messages) {
      if (topic.kind === 'race') this.hub.toRace(topic.code, message);
      else this.hub.toPlayer(topic.playerId, message);
    }
  }
}
