// The one scheduler of stored deadlines (server/scale/scheduler.ts) on a manual clock: arming
// from the store on taking over, a rescan arming only what it lacks, a deadline held while its
// handler works, a storage failure tried again, notices when another instance runs the timers.
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { StoredDeadline } from '../../server/ports.js';
import { DeadlineScheduler } from '../../server/scale/scheduler.js';
import { ManualClock } from './helpers.js';

const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;
const RETRY_MS = 2000;

function setUp(stored: StoredDeadline[] = []) {
  const clock = new ManualClock();
  const notices: string[] = [];
  const scheduler = new DeadlineScheduler(clock, {
    log: silent,
    failure: (error) => ((error as Error).message === 'disk full' ? 'SQLITE_FULL' : undefined),
    retryMs: RETRY_MS,
    notify: (kind, key, at) => void notices.push(`${kind} ${key} ${at - clock.now()}`),
  });
  const fired: string[] = [];
  let work: (key: string) => Promise<void> | void = () => {};
  scheduler.handle('lobby', {
    due: (key, at) => {
      fired.push(`${key}@${at}`);
      return work(key);
    },
    stored: () => stored,
  });
  return { clock, scheduler, fired, notices, stored, setWork: (next: typeof work) => (work = next) };
}

describe('the deadline scheduler', () => {
  it('on taking over, arms every stored deadline: one past fires at once, the others when due, each once', async () => {
    const now = new ManualClock().now();
    const { clock, scheduler, fired } = setUp([
      { key: 'a', at: now - 5 },
      { key: 'b', at: now + 1000 },
    ]);
    // Nothing runs on an instance that has not taken the timers over.
    scheduler.arm('lobby', 'x', now);
    clock.advance(0);
    expect(fired).toEqual([]);
    await scheduler.takeOver();
    clock.advance(0);
    expect(fired).toEqual([`a@${now - 5}`]);
    clock.advance(999);
    expect(fired).toEqual([`a@${now - 5}`]);
    clock.advance(1);
    expect(fired).toEqual([`a@${now - 5}`, `b@${now + 1000}`]);
    clock.advance(10_000);
    expect(fired).toHaveLength(2);
  });

  it('rescans arm only what has no timer, and leave a deadline alone while its handler still works', async () => {
    const now = new ManualClock().now();
    const { clock, scheduler, fired, setWork } = setUp([{ key: 'a', at: now + 100 }]);
    let finish = (): void => {};
    setWork(() => new Promise<void>((resolve) => (finish = resolve)));
    await scheduler.takeOver();
    expect(scheduler.has('lobby', 'a')).toBe(true);
    await scheduler.rescan();
    clock.advance(100);
    expect(fired).toEqual([`a@${now + 100}`]);
    // Working: still held, a rescan starts nothing.
    expect(scheduler.has('lobby', 'a')).toBe(true);
    await scheduler.rescan();
    clock.advance(0);
    expect(fired).toHaveLength(1);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.has('lobby', 'a')).toBe(false);
  });

  it('tries a handler again after the retry delay when the storage refused, and gives up on a fault', async () => {
    const { clock, scheduler, fired, setWork } = setUp();
    let failures = 1;
    setWork(async () => {
      if (failures-- > 0) throw new Error('disk full');
    });
    await scheduler.takeOver();
    const at = clock.now() + 10;
    scheduler.arm('lobby', 'a', at);
    clock.advance(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toEqual([`a@${at}`]);
    expect(scheduler.has('lobby', 'a')).toBe(true);
    clock.advance(RETRY_MS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toEqual([`a@${at}`, `a@${at}`]);
    expect(scheduler.has('lobby', 'a')).toBe(false);

    setWork(async () => {
      throw new Error('a bug');
    });
    scheduler.arm('lobby', 'b', clock.now());
    clock.advance(0);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(RETRY_MS);
    expect(fired.filter((one) => one.startsWith('b@'))).toHaveLength(1);
  });

  it('tells the instance running the timers of a deadline stored elsewhere, and arms nothing itself', () => {
    const { clock, scheduler, fired, notices } = setUp();
    scheduler.stored('lobby', 'a', clock.now() + 500);
    clock.advance(1000);
    expect(fired).toEqual([]);
    expect(notices).toEqual(['lobby a 500']);
  });

  it('cancels everything armed when it gives the timers up, and stays quiet once closed', async () => {
    const { clock, scheduler, fired, notices } = setUp();
    await scheduler.takeOver();
    scheduler.stored('lobby', 'a', clock.now() + 5);
    expect(notices).toEqual([]);
    expect(scheduler.clock.pending).toBe(1);
    scheduler.giveUp();
    expect(scheduler.clock.pending).toBe(0);
    scheduler.close();
    scheduler.stored('lobby', 'b', clock.now() + 5);
    clock.advance(10);
    expect(fired).toEqual([]);
    expect(notices).toEqual([]);
  });
});
