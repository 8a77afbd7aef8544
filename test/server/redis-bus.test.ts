import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisBus, type BusMessage } from '../../server/scale/bus.js';
import { Lease } from '../../server/scale/lease.js';

function redisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
  return url;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function bus(prefix: string): Promise<RedisBus> {
  const made = new RedisBus(redisUrl(), prefix);
  await made.connect();
  closers.push(() => made.close());
  return made;
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe('RedisBus', () => {
  it('delivers what three instances publish on one topic to all of them in one order, numbered without gaps', async () => {
    const prefix = `t-${randomUUID()}`;
    const instances = await Promise.all([bus(prefix), bus(prefix), bus(prefix)]);
    const received = instances.map(() => [] as BusMessage[]);
    instances.forEach((instance, i) => instance.onMessage((message) => received[i]!.push(message)));
    await Promise.all(instances.map((instance) => instance.subscribe('race:ABC')));
    const perInstance = 50;
    await Promise.all(
      instances.map(async (instance, i) => {
        for (let n = 0; n < perInstance; n++) await instance.publish('race:ABC', `${i}:${n}`);
      }),
    );
    const total = perInstance * instances.length;
    await until(() => received.every((messages) => messages.length === total), 'every message everywhere');
    expect(received[0]!.map((message) => message.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(received[1]).toEqual(received[0]);
    expect(received[2]).toEqual(received[0]);
    // Each publisher's own messages keep their order within the total order.
    for (let i = 0; i < instances.length; i++) {
      const own = received[0]!.filter((message) => message.payload.startsWith(`${i}:`)).map((message) => message.payload);
      expect(own).toEqual(Array.from({ length: perInstance }, (_, n) => `${i}:${n}`));
    }
  });

  it('delivers a topic only to instances subscribed to it, until their last unsubscribe', async () => {
    const prefix = `t-${randomUUID()}`;
    const [a, b] = await Promise.all([bus(prefix), bus(prefix)]);
    const seen: string[] = [];
    b.onMessage((message) => seen.push(`${message.topic}=${message.payload}`));
    await b.subscribe('race:X');
    await b.subscribe('race:X');
    await a.publish('race:Y', 'not for b');
    await a.publish('race:X', 'one');
    await b.unsubscribe('race:X');
    await a.publish('race:X', 'two');
    await until(() => seen.length === 2, 'two messages');
    await b.unsubscribe('race:X');
    await a.publish('race:X', 'three');
    await a.publish('race:X', 'marker');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual(['race:X=one', 'race:X=two']);
  });
});

describe('Lease', () => {
  const connections = new Map<Lease, Redis>();
  async function lease(key: string, ttlMs: number, changes: boolean[]): Promise<Lease> {
    const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    const made = new Lease(redis, { key, ttlMs, onChange: (owner) => changes.push(owner) });
    connections.set(made, redis);
    closers.push(async () => {
      await made.stop();
      redis.disconnect();
    });
    return made;
  }

  it('has exactly one owner, and moves to another instance within its lifetime when the owner dies', async () => {
    const key = `lease-${randomUUID()}`;
    const changes = [[], [], []] as boolean[][];
    const leases = await Promise.all(changes.map((list) => lease(key, 300, list)));
    leases.forEach((l) => l.start());
    await until(() => leases.some((l) => l.isOwner), 'an owner');
    // Several renewals later, still the same single owner.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(leases.filter((l) => l.isOwner)).toHaveLength(1);
    const first = leases.findIndex((l) => l.isOwner);
    expect(changes[first]).toEqual([true]);

    // The owner loses Redis without releasing: it gives up at its next renewal, its key expires,
    // and exactly one other instance takes over.
    connections.get(leases[first]!)!.disconnect();
    const others = leases.filter((_, i) => i !== first);
    await until(() => others.some((l) => l.isOwner), 'a new owner');
    await until(() => !leases[first]!.isOwner, 'the lost owner to give up');
    expect(changes[first]).toEqual([true, false]);
    expect(leases.filter((l) => l.isOwner)).toHaveLength(1);
  });

  it('hands over at once when its owner stops gracefully', async () => {
    const key = `lease-${randomUUID()}`;
    const [first, second] = await Promise.all([lease(key, 10_000, []), lease(key, 10_000, [])]);
    first.start();
    await until(() => first.isOwner, 'the first owner');
    second.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.isOwner).toBe(false);
    await first.stop();
    // The second instance retries every third of the lifetime; a released key is free at once.
    const redis = new Redis(redisUrl());
    expect(await redis.exists(key)).toBe(0);
    redis.disconnect();
  });
});
