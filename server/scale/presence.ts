import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Hub } from '../hub.js';
import type { BusMessage, RedisBus } from './bus.js';

export interface PresenceTiming {
  /** How often an instance says it is alive and looks for instances that stopped saying so. */
  heartbeatMs: number;
  /** An instance silent this long is dead: its players are disconnected everywhere. */
  ttlMs: number;
}

export const DEFAULT_PRESENCE_TIMING: PresenceTiming = { heartbeatMs: 1000, ttlMs: 3000 };

/** The bus topic of presence changes. */
const TOPIC = 'presence';

/**
 * One heartbeat: the instance's alive key (with its expiry) and its place in the list of
 * instances. Answers whether the key was still there: if it had expired, other instances may
 * have taken this one for dead and forgotten its players, which must be written again.
 */
const BEAT = `
local existed = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
return existed`;

/** Forgets a dead instance's players, unless it came back meanwhile; 1 when this call forgot it. */
const FORGET = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2])
return redis.call('SREM', KEYS[3], ARGV[1])`;

/**
 * Who is connected, across instances. Each instance keeps in Redis the set of players with a
 * socket on it (`presence:players:ID`) and an alive key that expires unless renewed
 * (`presence:alive:ID`, listed in `presence:instances`), and publishes every change on the bus
 * topic `presence`. Every instance keeps a view of the others' players, fed by those messages,
 * so `isConnected` answers at once. A player's first socket anywhere and their last socket
 * anywhere are told to every instance's listeners; when an instance dies without a word its
 * alive key expires, and the others notice at their next heartbeat and take its players for
 * disconnected. A gap in the topic's numbers, or a lost subscription, rereads everything.
 */
export class SharedPresence {
  readonly instanceId = randomUUID();
  /** Players with a socket on another instance, and on which instances. */
  private readonly elsewhere = new Map<number, Set<string>>();
  /** The other instances' players. */
  private readonly instances = new Map<string, Set<number>>();
  private readonly listeners: ((playerId: number, connected: boolean) => void)[] = [];
  private lastSeq: number | undefined;
  /** Set when a change could not be written: the next heartbeat writes this instance's players again. */
  private stale = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: RedisBus,
    private readonly hub: Hub,
    private readonly timing: PresenceTiming,
    private readonly log: FastifyBaseLogger,
  ) {
    hub.onPresence((playerId, connected) => this.localChanged(playerId, connected));
    bus.onMessage((message) => {
      if (message.topic === TOPIC) this.received(message);
    });
    bus.onReconnect(() => this.guard(this.reload(), 'cannot reread presence'));
  }

  /** Joins the other instances: says it is alive and reads who is connected where. */
  async start(): Promise<void> {
    await this.bus.subscribe(TOPIC);
    await this.beat();
    await this.reload();
    this.timer = setInterval(() => this.guard(this.tick(), 'presence heartbeat failed'), this.timing.heartbeatMs);
    this.timer.unref();
  }

  /** Leaves: the others take this instance's players for disconnected at once. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const redis = this.bus.commands;
    await Promise.allSettled([
      redis.del(this.aliveKey(this.instanceId), this.playersKey(this.instanceId)),
      redis.srem(this.bus.key('presence:instances'), this.instanceId),
      this.bus.publish(TOPIC, `x ${this.instanceId}`),
    ]);
  }

  isConnected(playerId: number): boolean {
    return this.hub.isConnected(playerId) || this.elsewhere.has(playerId);
  }

  /** Players with a socket on any instance. */
  count(): number {
    let count = this.elsewhere.size;
    for (const playerId of this.hub.connectedPlayers()) if (!this.elsewhere.has(playerId)) count++;
    return count;
  }

  /** `listener` is told when a player's first socket anywhere opens or last socket anywhere closes. */
  onChange(listener: (playerId: number, connected: boolean) => void): void {
    this.listeners.push(listener);
  }

  private localChanged(playerId: number, connected: boolean): void {
    if (!this.elsewhere.has(playerId)) this.tell(playerId, connected);
    const key = this.playersKey(this.instanceId);
    const written = connected ? this.bus.commands.sadd(key, playerId) : this.bus.commands.srem(key, playerId);
    written.catch(() => (this.stale = true));
    this.bus.publish(TOPIC, `${connected ? '+' : '-'} ${this.instanceId} ${playerId}`).catch(() => (this.stale = true));
  }

  private received({ seq, payload }: BusMessage): void {
    const gap = this.lastSeq !== undefined && seq !== this.lastSeq + 1;
    this.lastSeq = seq;
    if (gap) return this.guard(this.reload(), 'cannot reread presence');
    const [op, instance, player] = payload.split(' ');
    if (instance === undefined || instance === this.instanceId) return;
    if (op === '+') this.add(instance, Number(player));
    else if (op === '-') this.remove(instance, Number(player));
    else if (op === 'x') this.forget(instance);
    else if (op === 'r') this.guard(this.reloadInstance(instance), 'cannot reread an instance');
  }

  private add(instance: string, playerId: number): void {
    const players = this.instances.get(instance) ?? new Set();
    this.instances.set(instance, players.add(playerId));
    const where = this.elsewhere.get(playerId);
    if (where) return void where.add(instance);
    this.elsewhere.set(playerId, new Set([instance]));
    if (!this.hub.isConnected(playerId)) this.tell(playerId, true);
  }

  private remove(instance: string, playerId: number): void {
    this.instances.get(instance)?.delete(playerId);
    const where = this.elsewhere.get(playerId);
    if (!where?.delete(instance) || where.size > 0) return;
    this.elsewhere.delete(playerId);
    if (!this.hub.isConnected(playerId)) this.tell(playerId, false);
  }

  private forget(instance: string): void {
    for (const playerId of this.instances.get(instance) ?? []) this.remove(instance, playerId);
    this.instances.delete(instance);
  }

  /** Brings the view of one instance's players in line with Redis. */
  private async reloadInstance(instance: string): Promise<void> {
    const stored = new Set((await this.bus.commands.smembers(this.playersKey(instance))).map(Number));
    this.applyInstance(instance, stored);
  }

  private applyInstance(instance: string, stored: ReadonlySet<number>): void {
    for (const playerId of [...(this.instances.get(instance) ?? [])]) if (!stored.has(playerId)) this.remove(instance, playerId);
    for (const playerId of stored) this.add(instance, playerId);
  }

  /** Rereads every instance: who is alive, and their players. */
  private async reload(): Promise<void> {
    const redis = this.bus.commands;
    const listed = (await redis.smembers(this.bus.key('presence:instances'))).filter((id) => id !== this.instanceId);
    const alive = await this.aliveOf(listed);
    const players = await Promise.all(alive.map((id) => redis.smembers(this.playersKey(id))));
    for (const id of [...this.instances.keys()]) if (!alive.includes(id)) this.forget(id);
    alive.forEach((id, i) => this.applyInstance(id, new Set(players[i]!.map(Number))));
    await this.forgetDead(listed.filter((id) => !alive.includes(id)));
  }

  private async tick(): Promise<void> {
    await this.beat();
    // The instances this one knows of, and those listed (one may have started with nobody yet).
    const listed = await this.bus.commands.smembers(this.bus.key('presence:instances'));
    const known = [...new Set([...this.instances.keys(), ...listed])].filter((id) => id !== this.instanceId);
    const alive = await this.aliveOf(known);
    const dead = known.filter((id) => !alive.includes(id));
    for (const id of dead) this.forget(id);
    await this.forgetDead(dead);
  }

  private async beat(): Promise<void> {
    const redis = this.bus.commands;
    const existed = await redis.eval(BEAT, 2, this.aliveKey(this.instanceId), this.bus.key('presence:instances'), String(this.timing.ttlMs), this.instanceId);
    if (existed === 1 && !this.stale) return;
    // Taken for dead (a stall longer than the expiry) or a change that was not written: write them all again.
    this.stale = false;
    const key = this.playersKey(this.instanceId);
    const players = [...this.hub.connectedPlayers()];
    const rewrite = redis.multi().del(key);
    if (players.length > 0) rewrite.sadd(key, ...players);
    await rewrite.exec();
    await this.bus.publish(TOPIC, `r ${this.instanceId}`);
  }

  private async aliveOf(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const flags = await this.bus.commands.mget(...ids.map((id) => this.aliveKey(id)));
    return ids.filter((_, i) => flags[i] !== null);
  }

  /** Removes dead instances from Redis (whichever instance sees it first) and tells everyone. */
  private async forgetDead(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const forgotten = await this.bus.commands.eval(FORGET, 3, this.aliveKey(id), this.playersKey(id), this.bus.key('presence:instances'), id);
      if (forgotten === 1) {
        this.log.warn({ instance: id }, 'an instance stopped its heartbeat: its players are disconnected');
        await this.bus.publish(TOPIC, `x ${id}`);
      }
    }
  }

  private tell(playerId: number, connected: boolean): void {
    for (const listener of this.listeners) {
      try {
        listener(playerId, connected);
      } catch (error) {
        this.log.error({ err: error, playerId }, 'presence listener failed');
      }
    }
  }

  private guard(work: Promise<void>, what: string): void {
    work.catch((error: unknown) => this.log.warn({ err: error }, what));
  }

  private aliveKey(instance: string): string {
    return this.bus.key(`presence:alive:${instance}`);
  }

  private playersKey(instance: string): string {
    return this.bus.key(`presence:players:${instance}`);
  }
}
