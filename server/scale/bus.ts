import { Redis, type Result } from 'ioredis';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** PUBLISH_NUMBERED, defined on the publisher connection. */
    publishNumbered(counterKey: string, channel: string, payload: string, ttlMs: number): Result<number, Context>;
  }
}

/**
 * A message from another instance (or this one) on a topic, with its place in that topic's order.
 * Sequence numbers of a topic count 1, 2, 3 ... with no gap: a gap means messages were lost
 * (a broken subscription) and the receiver must refetch the state instead of trusting deltas.
 */
export interface BusMessage {
  topic: string;
  seq: number;
  payload: string;
}

/**
 * Numbering and publishing in one atomic script: Redis runs scripts one at a time, so the
 * numbers of a topic are handed out in exactly the order its messages are published, whichever
 * instance publishes them, and every subscriber receives them in that order.
 */
const PUBLISH_NUMBERED = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
return seq`;

/** A topic's counter outlives its last message by this long (a race lasts far less). */
const SEQUENCE_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Messages between instances over Redis pub/sub, in order per topic (a race, a player). Each
 * instance subscribes to the topics it has local listeners for, and delivers what it publishes
 * to its own listeners through Redis too, so all instances see one order.
 */
export class RedisBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly subscribed = new Map<string, number>();
  private readonly listeners: ((message: BusMessage) => void)[] = [];
  private readonly reconnectListeners: (() => void)[] = [];

  constructor(
    url: string,
    private readonly prefix = 'lucie',
  ) {
    // Fail fast while Redis is unreachable: a publish must report the failure, not queue forever.
    const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true };
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    this.publisher.defineCommand('publishNumbered', { numberOfKeys: 1, lua: PUBLISH_NUMBERED });
    // ioredis reports lost connections here and reconnects (and resubscribes) by itself.
    this.publisher.on('error', () => {});
    this.subscriber.on('error', () => {});
    // A subscription that broke and came back missed whatever was published meanwhile.
    let connected = false;
    this.subscriber.on('ready', () => {
      if (connected) for (const listener of this.reconnectListeners) listener();
      connected = true;
    });
    this.subscriber.on('message', (channel: string, text: string) => {
      const space = text.indexOf(' ');
      const message = { topic: channel.slice(this.prefix.length + 1), seq: Number(text.slice(0, space)), payload: text.slice(space + 1) };
      for (const listener of this.listeners) listener(message);
    });
  }

  async connect(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
  }

  onMessage(listener: (message: BusMessage) => void): void {
    this.listeners.push(listener);
  }

  /** `listener` is told when the subscription came back after a lost connection: messages may have been missed. */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** The connection for plain commands (shared presence), in order with this bus's publications. */
  get commands(): Redis {
    return this.publisher;
  }

  /** A key of this deployment (every key and channel carries the prefix, so deployments can share a Redis). */
  key(name: string): string {
    return `${this.prefix}:${name}`;
  }

  /** Publishes `payload` on `topic`; resolves to its sequence number once Redis has it. */
  async publish(topic: string, payload: string): Promise<number> {
    const channel = this.channel(topic);
    return this.publisher.publishNumbered(`${channel}:seq`, channel, payload, SEQUENCE_TTL_MS);
  }

  /** The number of `topic`'s last publication (0 before the first). */
  async sequence(topic: string): Promise<number> {
    return Number((await this.publisher.get(`${this.channel(topic)}:seq`)) ?? 0);
  }

  /** Counted: a topic stays subscribed until as many unsubscribes as subscribes. */
  async subscribe(topic: string): Promise<void> {
    const count = this.subscribed.get(topic) ?? 0;
    this.subscribed.set(topic, count + 1);
    if (count === 0) await this.subscriber.subscribe(this.channel(topic));
  }

  async unsubscribe(topic: string): Promise<void> {
    const count = this.subscribed.get(topic) ?? 0;
    if (count <= 1) {
      this.subscribed.delete(topic);
      if (count === 1) await this.subscriber.unsubscribe(this.channel(topic));
    } else {
      this.subscribed.set(topic, count - 1);
    }
  }

  /** Answers when Redis does (the readiness check). */
  async ping(): Promise<void> {
    await this.publisher.ping();
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }

  /** Drops both connections without a word and for good: what Redis sees of an instance killed (tests). */
  drop(): void {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private channel(topic: string): string {
    return this.key(topic);
  }
}
