// The transport's refetch against a view published meanwhile: a watcher's subscription starts a
// read of the race's state, and the race may change (and its new view arrive through the bus)
// before that read answers. Fakes for the bus, the hub and the presence, so the order is exact.
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../contract/index.js';
import type { Hub } from '../../server/hub.js';
import type { BusMessage, RedisBus } from '../../server/scale/bus.js';
import type { SharedPresence } from '../../server/scale/presence.js';
import { RedisTransport, type Topic } from '../../server/scale/transport.js';

const CODE = 'ABCD';
const TOPIC = `race:${CODE}`;

function view(status: string): ServerMessage {
  return { type: 'race', race: { code: CODE, status } } as unknown as ServerMessage;
}

/** A transport over fakes; `refetch` answers when the test says so. */
function rig() {
  let deliver: (message: BusMessage) => void = () => {};
  let watched: (code: string, watched: boolean) => void = () => {};
  const delivered: unknown[] = [];
  let seq = 0;
  const bus = {
    onMessage: (listener: typeof deliver) => (deliver = listener),
    onReconnect: () => {},
    publish: () => Promise.resolve(++seq),
    sequence: () => Promise.resolve(seq),
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
  } as unknown as RedisBus;
  const hub = {
    onWatched: (listener: typeof watched) => (watched = listener),
    onPresence: () => {},
    toRace: (_code: string, message: ServerMessage) => delivered.push(message),
    toRaceText: (_code: string, text: string) => delivered.push(JSON.parse(text)),
  } as unknown as Hub;
  const presence = { instanceId: 'here' } as unknown as SharedPresence;
  const log = { warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger;
  const transport = new RedisTransport(hub, bus, presence, log);
  const reads: ((messages: ServerMessage[]) => void)[] = [];
  transport.refetchWith((topic: Topic) => {
    expect(topic).toEqual({ kind: 'race', code: CODE });
    return new Promise((resolve) => reads.push(resolve));
  });
  return {
    delivered,
    reads,
    watch: () => watched(CODE, true),
    /** A message from another instance, numbered next. */
    publishedElsewhere: (message: ServerMessage) => deliver({ topic: TOPIC, seq: ++seq, payload: `there ${JSON.stringify(message)}` }),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a race view refetched for a new watcher', () => {
  it('is delivered when nothing was published during the read', async () => {
    const { delivered, reads, watch } = rig();
    watch();
    await settle();
    expect(reads).toHaveLength(1);
    reads[0]!([view('lobby')]);
    await settle();
    expect(delivered).toEqual([view('lobby')]);
  });

  it('is dropped when a view published during the read reached the watcher first', async () => {
    const { delivered, reads, watch, publishedElsewhere } = rig();
    watch();
    await settle();
    publishedElsewhere(view('countdown'));
    // The read began before the countdown was stored, so it still shows the lobby.
    reads[0]!([view('lobby')]);
    await settle();
    expect(delivered).toEqual([view('countdown')]);
  });

  it('is delivered when only other messages were published during the read', async () => {
    const { delivered, reads, watch, publishedElsewhere } = rig();
    watch();
    await settle();
    const progress = { type: 'progress', code: CODE } as unknown as ServerMessage;
    publishedElsewhere(progress);
    reads[0]!([view('running')]);
    await settle();
    expect(delivered).toEqual([progress, view('running')]);
  });
});
