// A rolling restart of two instances on one PostgreSQL database and one Redis (issue 22): racers
// play on instance A while A is stopped gracefully (SIGTERM) in the middle of their moves: moves
// waiting to be stored (the move log held locked for a moment) and one sent once A takes no more.
// They come back on B as the browser would (test/support/reconnecting-racer.ts) within seconds,
// every move A acknowledged is stored, the refused one is stored once B acknowledges it, the races
// go on on B, and the race's time limit, armed on A, fires on B on time (the timer lease passed
// over at A's stop, not after it ran out). Then A comes back and B is stopped the same way, with a
// race B dealt.
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Instance } from '../support/cluster.js';
import { ReconnectingRacer } from '../support/reconnecting-racer.js';
import { leasesTaken, sharedStorage, timerOwner, type SharedStorage } from './shared-cluster.js';

/** The races' time limit (the hard cap of a race without one): long enough for a whole rollover on a busy machine. */
const CAP_SECONDS = 18;
/**
 * How long a racer may be gone before their game is abandoned: shorter than the race, so a grace
 * period the stop starts and the reconnection does not end would show (as an abandoned game).
 */
const GRACE_SECONDS = 8;
/** Between a racer's moves: a few a second, so moves are in flight whenever the stop comes. */
const PAUSE_MS = 80;
/** Moves each racer has acknowledged by an instance before it stops, and by the other after. */
const MOVES_EACH_SIDE = 5;
/**
 * A stopping instance hands the timer lease over within this: it releases it and says so, and the
 * other takes it at once (left to run out, it would pass only 7 to 10 s later: TIMER_LEASE_MS's default is 10 s).
 */
const LEASE_HANDOVER_MS = 3000;
/** "Within a few seconds", generously: the machine running the tests is shared. */
const RECONNECT_BOUND_MS = 10_000;
/** The time limit fires this soon after its deadline (the lease passes over at once, not after its 10 s). */
const DEADLINE_SLACK_MS = 4000;

const storages: SharedStorage[] = [];
afterAll(async () => {
  await Promise.all(storages.map((storage) => storage.close()));
});

/** Races `racers` on `at`: the first creates it, the others join, all watch from the balancer's instance; resolves once each has their game. */
async function race(at: Instance, racers: ReconnectingRacer[]): Promise<string> {
  const { race } = (await at.api('POST', '/api/races', racers[0]!.player, { seats: racers.length })).body;
  for (const racer of racers.slice(1)) expect((await at.api('POST', `/api/races/${race.code}/join`, racer.player)).status).toBe(200);
  for (const racer of racers) await racer.connect(race.code);
  expect((await at.api('POST', `/api/races/${race.code}/start`, racers[0]!.player)).status).toBe(200);
  for (const racer of racers) await racer.dealt();
  return race.code;
}

/** Moves of the racer's current game `instance` acknowledged as answers. */
const ackedBy = (racer: ReconnectingRacer, instance: Instance) => racer.acks.filter((ack) => ack.instance === instance.name && ack.gameId === racer.mirror?.gameId && ack.how === 'ack').length;

interface Rollover {
  /** When the stopping instance was sent SIGTERM. */
  stoppedAt: number;
  /** Per racer, its moves in flight at the stop: answered by the stopping instance after the signal, or cut off by the stop. */
  inFlight: { answered: number; cut: number }[];
  /** From the SIGTERM to the last racer holding its game again on the other instance. */
  allBackMs: number;
  /** Each racer's, from the moment it saw its socket close to holding its game again. */
  reconnectMs: number[];
}

/** Moves whose insert waits on a lock now. */
const WAITING_MOVES = "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'with logged as (insert into game_actions%'";

/**
 * With every racer moving on `from`, the balancer turns to `to` and `from` gets SIGTERM: it must
 * exit 0, and every racer be back on `to` and have moves acknowledged there. So that the stop
 * comes with moves in flight, not between them, the move log is locked for a moment: the stop
 * starts while the last move of each racer but one waits to be stored. That one (`late`) sends
 * its move once the stopping instance takes no more, before its sockets close: refused
 * `server-closing`, it is sent again on `to`.
 */
async function rollOver(storage: SharedStorage, from: Instance, to: Instance, racers: ReconnectingRacer[], turn: (to: Instance) => void): Promise<Rollover> {
  for (const racer of racers) expect(racer.at).toBe(from);
  const late = racers[racers.length - 1]!;
  const held = racers.filter((racer) => racer !== late);
  const before = racers.map((racer) => racer.reconnections.length);
  const interruptedBefore = racers.map((racer) => racer.interrupted);
  const refusedBefore = late.refusedClosing;
  for (const racer of racers) racer.flow(PAUSE_MS);
  await vi.waitFor(() => expect(racers.filter((racer) => !racer.over && ackedBy(racer, from) < MOVES_EACH_SIDE)).toEqual([]), { timeout: 15_000, interval: 20 });
  await late.stop();
  const blocker = new pg.Client({ connectionString: storage.url });
  await blocker.connect();
  let stoppedAt = 0;
  try {
    await blocker.query('begin');
    await blocker.query('lock table game_actions in exclusive mode');
    const moving = held.filter((racer) => !racer.over).length;
    await vi.waitFor(async () => expect((await storage.sql.query(WAITING_MOVES)).rows[0].n).toBe(moving), { timeout: 5000, interval: 10 });
    // A load balancer takes the stopping instance out (its /api/ready answers 503 closing): new connections reach the other.
    turn(to);
    stoppedAt = Date.now();
    const exit = from.kill('SIGTERM');
    // Closing: it takes no more moves, and keeps its sockets open until the moves in flight are stored.
    await vi.waitFor(async () => expect((await from.api('GET', '/api/health')).status).toBe(503), { timeout: 5000, interval: 10 });
    late.flow(PAUSE_MS);
    // Refused at once: the instance takes no move from the start of its close (when its 503s begin).
    await vi.waitFor(() => expect(late.refusedClosing, JSON.stringify(late.state())).toBe(refusedBefore + 1), { timeout: 5000, interval: 10 });
    await blocker.query('rollback');
    expect(await exit).toEqual({ code: 0, signal: null });
  } finally {
    await blocker.end();
  }
  await vi.waitFor(() => expect(racers.filter((racer, i) => racer.reconnections.length === before[i])).toEqual([]), { timeout: 20_000, interval: 20 });
  await vi.waitFor(() => expect(racers.filter((racer) => !racer.over && ackedBy(racer, to) < MOVES_EACH_SIDE)).toEqual([]), { timeout: 15_000, interval: 20 });
  for (const racer of racers) await racer.stop();
  const back = racers.map((racer, i) => racer.reconnections[before[i]!]!);
  for (const reconnection of back) expect(reconnection).toMatchObject({ from: from.name, to: to.name });
  for (const racer of racers) expect(racer.refusals).toEqual([]);
  // Each held racer's move in flight at the stop was answered by the stopping instance after the signal, or cut off.
  const inFlight = racers.map((racer, i) => ({
    answered: racer.acks.filter((ack) => ack.instance === from.name && ack.how === 'ack' && ack.at >= stoppedAt).length,
    cut: racer.interrupted - interruptedBefore[i]!,
  }));
  expect(inFlight.filter(({ answered, cut }, i) => racers[i] !== late && !racers[i]!.over && answered + cut === 0)).toEqual([]);
  // The late move: refused by the stopping instance, never acknowledged there, acknowledged by the other.
  expect(inFlight[racers.length - 1]).toEqual({ answered: 0, cut: 1 });
  const rollover = { stoppedAt, inFlight, allBackMs: Math.max(...back.map((reconnection) => reconnection.backAt)) - stoppedAt, reconnectMs: back.map((reconnection) => reconnection.backAt - reconnection.closedAt) };
  expect(rollover.allBackMs).toBeLessThan(RECONNECT_BOUND_MS);
  return rollover;
}

/** Each racer's stored moves are exactly those it holds acknowledged, the ones `stopped` acknowledged among them; how many `stopped` acknowledged. */
async function expectStored(storage: SharedStorage, racers: ReconnectingRacer[], stopped: Instance): Promise<number> {
  let acknowledged = 0;
  for (const racer of racers) {
    const mirror = racer.mirror!;
    const rows = await storage.sql.query('select action_index, action from game_actions where game_id = $1 order by action_index', [mirror.gameId]);
    expect(rows.rows.map((row) => row.action)).toEqual(mirror.actions);
    for (const ack of racer.acks.filter((ack) => ack.instance === stopped.name && ack.gameId === mirror.gameId)) {
      expect(rows.rows[ack.index]).toEqual({ action_index: ack.index, action: ack.action });
      acknowledged++;
    }
  }
  return acknowledged;
}

/** The race's time limit ends every game still going, on time and once (none was abandoned for its racer's moment away); the race finishes. */
async function expectTimeLimit(storage: SharedStorage, code: string, racers: ReconnectingRacer[]): Promise<void> {
  const { rows } = await storage.sql.query('select id, deadline from games where race_id = (select id from races where code = $1)', [code]);
  const deadline = Number(rows[0].deadline);
  expect(rows.every((row) => Number(row.deadline) === deadline)).toBe(true);
  const wait = deadline - Date.now() + DEADLINE_SLACK_MS;
  for (const racer of racers.filter((racer) => !racer.over)) {
    const over = await racer.socket.next('game-over', (message) => message.gameId === racer.mirror!.gameId, Math.max(wait, 1000));
    expect(over.status.state).toBe('timed-out');
  }
  expect(Date.now()).toBeLessThanOrEqual(deadline + DEADLINE_SLACK_MS);
  const timedOut = await storage.sql.query("select finished_at, deadline from games where race_id = (select id from races where code = $1) and status = 'timed-out'", [code]);
  for (const row of timedOut.rows) expect(Number(row.finished_at)).toBe(deadline);
  await vi.waitFor(async () => expect((await storage.sql.query('select state from races where code = $1', [code])).rows[0].state).toBe('finished'), { timeout: 5000, interval: 50 });
}

/**
 * `from`, which dealt race `code`, is stopped in its middle (rollOver): every move it acknowledged
 * is stored, `to` takes the timers as `from` lets them go (not once its lease ran out), and the
 * race's time limit fires there on time. What was measured, for the test's report.
 */
async function stopMidRace(storage: SharedStorage, from: Instance, to: Instance, code: string, racers: ReconnectingRacer[], turn: (to: Instance) => void) {
  const rollover = await rollOver(storage, from, to, racers, turn);
  const stored = await expectStored(storage, racers, from);
  expect(stored).toBeGreaterThanOrEqual(racers.length * MOVES_EACH_SIDE);
  await vi.waitFor(() => expect(leasesTaken(to)).toHaveLength(1), { timeout: 15_000, interval: 50 });
  const leaseAfterMs = leasesTaken(to)[0]! - rollover.stoppedAt;
  expect(leaseAfterMs).toBeLessThan(LEASE_HANDOVER_MS);
  await expectTimeLimit(storage, code, racers);
  return { ...rollover, stored, leaseAfterMs };
}

describe('a rolling restart of two instances', () => {
  it('loses no acknowledged move, brings every racer back on the other instance within seconds, and hands the timers over with each stop', async () => {
    const storage = await sharedStorage({ COUNTDOWN_MS: '300', HARD_CAP_SECONDS: String(CAP_SECONDS), GRACE_SECONDS: String(GRACE_SECONDS) });
    storages.push(storage);
    const { cluster } = storage;
    // A first, so it holds the timer lease; B beside it.
    const [a] = (await cluster.start(1)) as [Instance];
    expect(await timerOwner([a])).toBe(0);
    const [b] = (await cluster.start(1)) as [Instance];
    let serving = a;
    const turn = (to: Instance) => (serving = to);
    const players = await Promise.all(['Ana', 'Bob', 'Cy', 'Di'].map((name) => a.newPlayer(name)));
    const racers = players.map((player) => new ReconnectingRacer(player, () => serving));

    // A stops in the middle of the first race, dealt by A with A's time limit, which fires on B.
    const toB = await stopMidRace(storage, a, b, await race(a, racers), racers, turn);

    // A comes back (the timers stay on B), a second race is dealt by B, and B stops in its middle.
    const [a2] = (await cluster.start(1)) as [Instance];
    const second = await race(b, racers);
    expect(leasesTaken(a2)).toEqual([]);
    const toA = await stopMidRace(storage, b, a2, second, racers, turn);

    console.info(
      `rolling restart: back on B ${toB.allBackMs} ms after A's SIGTERM (each ${toB.reconnectMs.join(', ')} ms from its close), ${toB.stored} moves A acknowledged stored; ` +
        `back on A ${toA.allBackMs} ms after B's SIGTERM (each ${toA.reconnectMs.join(', ')} ms), ${toA.stored} moves B acknowledged stored; ` +
        `timer lease taken ${toB.leaseAfterMs} and ${toA.leaseAfterMs} ms after each SIGTERM`,
    );
    expect(cluster.errors()).toEqual([]);
    for (const racer of racers) racer.close();
  }, 180_000);
});
