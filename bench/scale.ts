// Scale-out benchmark on real server processes (test/support/cluster.ts): the server bench's paced
// players (bench/server-clients.ts, in their own process) race over websockets against 1, 2 and 3
// instances sharing one PostgreSQL and one Redis, each race's racers spread over the instances,
// beside one instance on a SQLite file (no Redis) in the same run. Per configuration: moves/s,
// the instances' CPU per move (from /proc), ack p50/p99, and the delay from a move's ack to the other racers receiving its progress (through
// Redis between instances; the local hub in the SQLite process). Then the Redis hop alone: publish
// → delivery on 1-3 subscribed instances. Every acknowledged move is counted in the database.
// Knobs: BENCH_SCALE_PLAYERS=200,500 BENCH_SCALE_RATE (moves/s per player) BENCH_SCALE_MS
// BENCH_SCALE_INSTANCES=1,2,3.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { VariantId } from '../shared/index.js';
import { PROGRESS_INTERVAL_MS } from '../server/races/service.js';
import { RedisBus } from '../server/scale/bus.js';
import startServices from '../test/services.js';
import { createTestDatabase } from '../test/server/pg.js';
import { Cluster } from '../test/support/cluster.js';
import { format, percentile } from './measure.js';
import { runClients, stop } from './server.js';
import type { Latencies, RunCommand } from './server-clients.js';

const PLAYER_COUNTS = process.env.BENCH_SCALE_PLAYERS?.split(',').map(Number) ?? [200, 500];
const PER_SECOND = Number(process.env.BENCH_SCALE_RATE ?? 5);
const MEASURE_MS = Number(process.env.BENCH_SCALE_MS ?? 5000);
const INSTANCE_COUNTS = process.env.BENCH_SCALE_INSTANCES?.split(',').map(Number) ?? [1, 2, 3];
const WARMUP_MS = 1000;
/** As the server bench: full races, every racer watching, games that outlast the run. */
const SEATS = 8;
const VARIANT: VariantId = 'shamrocks';

interface Figures {
  movesPerSecond: number;
  /** CPU time of the instances' processes (user + system, all threads) over the measured phase, per move, µs. */
  cpuPerMove: number;
  ack: Latencies;
  progress: Latencies;
  /** Moves in game_actions = acks the players received. */
  durable: boolean;
}

/** What a configuration runs on: the instances' environment and how to count the stored moves. */
interface Place {
  env: Record<string, string>;
  storedMoves(): Promise<number>;
  drop(): Promise<void>;
}

function sqlitePlace(): Place {
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-bench-scale-'));
  return {
    env: { DATA_DIR: dataDir },
    async storedMoves() {
      const db = new Database(join(dataDir, 'lucie.db'), { readonly: true });
      try {
        return (db.prepare('select count(*) as n from game_actions').get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresPlace(): Promise<Place> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-bench-scale-'));
  return {
    env: { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}`, DATA_DIR: dataDir },
    async storedMoves() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return Number((await client.query('select count(*) as n from game_actions')).rows[0].n);
      } finally {
        await client.end();
      }
    },
    async drop() {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `players` paced players against `instances` fresh instances on `place`. */
async function serverRun(place: Place, instances: number, players: number): Promise<Figures> {
  const cluster = new Cluster({ ...place.env, COUNTDOWN_MS: '0', RATE_LIMITS: 'off', LOG_LEVEL: 'warn' });
  const clients = fork(fileURLToPath(new URL('./server-clients.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const started = await cluster.start(instances);
    const command: RunCommand = {
      type: 'run',
      httpBase: started[0]!.base,
      wsBases: started.map((instance) => instance.wsBase),
      echo: false,
      players,
      seats: SEATS,
      variant: VARIANT,
      warmupMs: WARMUP_MS,
      measureMs: MEASURE_MS,
      loads: [{ name: 'paced', perSecond: PER_SECOND }],
    };
    let cpuAtStart = 0;
    let cpu = 0;
    const result = await runClients(clients, command, (event) => {
      if (event.edge === 'start') cpuAtStart = cpuMicros(started.map((instance) => instance.child.pid!));
      else cpu = cpuMicros(started.map((instance) => instance.child.pid!)) - cpuAtStart;
    });
    const errors = cluster.errors();
    if (errors.length > 0) throw new Error(`the instances logged errors:\n${errors.slice(0, 5).join('\n')}`);
    const { moves, progress } = result.loads[0]!;
    return { movesPerSecond: moves.count / moves.seconds, cpuPerMove: cpu / moves.count, ack: moves, progress, durable: (await place.storedMoves()) === result.acks };
  } finally {
    await stop(clients);
    await cluster.close();
    await place.drop();
  }
}

/** CPU time used so far by these processes (user + system, every thread), µs, from /proc (Linux). */
function cpuMicros(pids: readonly number[]): number {
  const ticksPerSecond = 100;
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return NaN;
    }
  }
  return (ticks / ticksPerSecond) * 1e6;
}

/** Publish → delivery latency of race messages on a Redis bus with `instances` subscribed instances. */
async function fanOutRun(instances: number, messages: number, perSecond: number): Promise<{ p50: number; p99: number }> {
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const publisher = new RedisBus(process.env.TEST_REDIS_URL!, prefix);
  const subscribers = Array.from({ length: instances }, () => new RedisBus(process.env.TEST_REDIS_URL!, prefix));
  await Promise.all([publisher, ...subscribers].map((bus) => bus.connect()));
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  for (const bus of subscribers) {
    bus.onMessage((message) => {
      latencies.push(performance.now() - sentAt.get(message.payload)!);
      delivered++;
    });
    await bus.subscribe('race:BENCH');
  }
  const start = performance.now();
  for (let i = 0; i < messages; i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const payload = `{"type":"progress","n":${i}}`;
    sentAt.set(payload, performance.now());
    void publisher.publish('race:BENCH', payload);
  }
  for (let i = 0; i < 500 && delivered < messages * instances; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await Promise.all([publisher, ...subscribers].map((bus) => bus.close()));
  if (delivered !== messages * instances) throw new Error(`fan-out: ${delivered} of ${messages * instances} deliveries arrived`);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

export async function benchScale(): Promise<void> {
  const stopServices = startServices();
  try {
    console.log(
      `## Scale-out on real server processes (${VARIANT} races of ${SEATS} seats spread over the instances, every racer watching; ` +
        `${PER_SECOND} moves/s per player, ${MEASURE_MS / 1000} s measured after ${WARMUP_MS / 1000} s)`,
    );
    console.log(
      `Ack: from sending a move to its ack. Progress: from a move's ack to each other racer receiving its progress (batched per race, ${PROGRESS_INTERVAL_MS} ms windows, in every configuration).`,
    );
    console.log('| storage | instances | players | offered moves/s | moves/s | ack p50 ms | ack p99 ms | progress p50 ms | progress p99 ms | instances\' CPU µs per move | ack p99 vs SQLite | moves/s vs 1 instance | stored = acked |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    const row = (storage: string, instances: number, players: number, figures: Figures, sqlite: Figures, single: Figures | undefined) =>
      console.log(
        `| ${storage} | ${instances} | ${players} | ${format(players * PER_SECOND, 0)} | ${format(figures.movesPerSecond, 0)} | ` +
          `${format(figures.ack.p50)} | ${format(figures.ack.p99)} | ${format(figures.progress.p50)} | ${format(figures.progress.p99)} | ${format(figures.cpuPerMove, 0)} | ` +
          `${format(figures.ack.p99 / sqlite.ack.p99)}× | ${single ? `${format(figures.movesPerSecond / single.movesPerSecond)}×` : '–'} | ${figures.durable ? 'yes' : '**NO**'} |`,
      );
    for (const players of PLAYER_COUNTS) {
      const sqlite = await serverRun(sqlitePlace(), 1, players);
      row('SQLite file (WAL, NORMAL), no Redis', 1, players, sqlite, sqlite, undefined);
      let single: Figures | undefined;
      for (const instances of INSTANCE_COUNTS) {
        const figures = await serverRun(await postgresPlace(), instances, players);
        single ??= figures;
        row('PostgreSQL + Redis', instances, players, figures, sqlite, single);
      }
    }
    console.log(
      `\nOffered load: players × ${PER_SECOND} moves/s; moves/s below it means the service fell behind. All processes ` +
        '(instances, players, PostgreSQL, Redis) share this machine\'s cores: with fewer cores than processes, more instances add ' +
        'hops (Redis) without adding CPU, so throughput cannot grow with instances here.',
    );
    console.log('\n## Redis fan-out alone: one race topic, 2000 messages at 1000/s, publish → delivery on each subscribed instance');
    console.log('| subscribed instances | p50 ms | p99 ms |');
    console.log('| --- | --- | --- |');
    for (const instances of INSTANCE_COUNTS) {
      const { p50, p99 } = await fanOutRun(instances, 2000, 1000);
      console.log(`| ${instances} | ${format(p50)} | ${format(p99)} |`);
    }
    console.log(
      '\nA race message crosses Redis once per subscribed instance, which then writes it to its own watchers of the race: ' +
        'the Redis cost grows with instances, not with watchers; what a watcher adds is its local socket write (the progress column above includes both).',
    );
  } finally {
    stopServices?.();
  }
}
