// Scale-out benchmark, storage and fan-out level: paced players each append moves to their own
// game (the log row and the game's counts in one transaction, committed before it counts) through
// 1, 2 and 3 instance processes sharing one PostgreSQL, beside one process on a SQLite file in the
// same run; then Redis fan-out latency to 1-3 subscribed instances. The full websocket path on
// PostgreSQL needs the server's storage port (see the scale-out section of server/README.md).
// Knobs: BENCH_SCALE_PLAYERS=200,500 BENCH_SCALE_RATE (moves/s per player) BENCH_SCALE_MS.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { closeDatabase, openDatabase } from '../server/db/index.js';
import * as sqliteSchema from '../server/db/schema.js';
import { openPgDatabase } from '../server/db/pg/index.js';
import * as pgSchema from '../server/db/pg/schema.js';
import { RedisBus } from '../server/scale/bus.js';
import startServices from '../test/services.js';
import { createTestDatabase } from '../test/server/pg.js';
import { format, percentile } from './measure.js';
import type { WorkerCommand, WorkerResult } from './scale-worker.js';

const PLAYER_COUNTS = process.env.BENCH_SCALE_PLAYERS?.split(',').map(Number) ?? [200, 500];
const PER_SECOND = Number(process.env.BENCH_SCALE_RATE ?? 5);
const WARMUP_MS = 1000;
const MEASURE_MS = Number(process.env.BENCH_SCALE_MS ?? 4000);
const POOL_SIZE = 10;
const INSTANCE_COUNTS = [1, 2, 3];

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

const game = { kind: 'race', variant: 'strict', seed: 's', status: 'playing', foundations: 0, startedAt: 1 } as const;

function runWorkers(commands: WorkerCommand[]): Promise<Figures> {
  const script = fileURLToPath(new URL('./scale-worker.ts', import.meta.url));
  return Promise.all(
    commands.map(
      (command) =>
        new Promise<WorkerResult>((resolve, reject) => {
          const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
          const timer = setTimeout(() => child.kill('SIGKILL'), 60_000 + command.warmupMs + command.measureMs);
          child.on('message', (message: { type: 'result'; result: WorkerResult } | { type: 'failed'; message: string }) => {
            if (message.type === 'result') resolve(message.result);
            else reject(new Error(message.message));
          });
          child.on('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`a worker exited (${code})`));
          });
          child.send(command);
        }),
    ),
  ).then((results) => {
    const latencies = results.flatMap((result) => result.latencies);
    const committed = results.reduce((sum, result) => sum + result.committedInWindow, 0);
    return { perSecond: committed / (MEASURE_MS / 1000), p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  });
}

const slices = (ids: number[], parts: number): number[][] => Array.from({ length: parts }, (_, i) => ids.filter((_, j) => j % parts === i));

async function sqliteRun(players: number): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-bench-scale-'));
  try {
    const db = openDatabase(dataDir);
    const [player] = db.insert(sqliteSchema.players).values({ name: 'bench', tokenHash: 'bench', createdAt: 1 }).returning().all();
    const rows = db
      .insert(sqliteSchema.games)
      .values(Array.from({ length: players }, () => ({ ...game, playerId: player!.id })))
      .returning({ id: sqliteSchema.games.id })
      .all();
    await closeDatabase(db);
    return await runWorkers([{ storage: { kind: 'sqlite', dataDir }, gameIds: rows.map((row) => row.id), perSecond: PER_SECOND, warmupMs: WARMUP_MS, measureMs: MEASURE_MS }]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresRun(players: number, instances: number): Promise<Figures> {
  const database = await createTestDatabase();
  try {
    const db = await openPgDatabase(database.url, { poolSize: 2 });
    const [player] = await db.insert(pgSchema.players).values({ name: 'bench', tokenHash: 'bench', createdAt: 1 }).returning();
    const rows = await db
      .insert(pgSchema.games)
      .values(Array.from({ length: players }, () => ({ ...game, playerId: player!.id })))
      .returning({ id: pgSchema.games.id });
    await db.$client.end();
    const storage = { kind: 'postgres', url: database.url, poolSize: POOL_SIZE } as const;
    return await runWorkers(
      slices(
        rows.map((row) => row.id),
        instances,
      ).map((gameIds) => ({ storage, gameIds, perSecond: PER_SECOND, warmupMs: WARMUP_MS, measureMs: MEASURE_MS })),
    );
  } finally {
    await database.drop();
  }
}

/** Publish → delivery latency of race messages on a Redis bus with `instances` subscribed instances. */
async function fanOutRun(instances: number, messages: number, perSecond: number): Promise<{ p50: number; p99: number }> {
  const prefix = `bench-${process.pid}-${instances}`;
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
    console.log(`## Scale-out, storage level (${PER_SECOND} moves/s per player, ${MEASURE_MS / 1000} s measured after ${WARMUP_MS / 1000} s; latency from when a move is due to its commit)`);
    console.log('| storage | instances | players | commits/s | p50 ms | p99 ms | p99 vs SQLite |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const players of PLAYER_COUNTS) {
      const sqlite = await sqliteRun(players);
      console.log(`| SQLite file (WAL, NORMAL) | 1 | ${players} | ${format(sqlite.perSecond, 0)} | ${format(sqlite.p50)} | ${format(sqlite.p99)} | 1× |`);
      for (const instances of INSTANCE_COUNTS) {
        const pg = await postgresRun(players, instances);
        console.log(
          `| PostgreSQL (pool ${POOL_SIZE} per instance) | ${instances} | ${players} | ${format(pg.perSecond, 0)} | ${format(pg.p50)} | ${format(pg.p99)} | ${format(pg.p99 / sqlite.p99)}× |`,
        );
      }
    }
    console.log(`\nOffered load: players × ${PER_SECOND} moves/s; commits/s below it means the storage fell behind (latency then grows with the run).`);
    console.log('\n## Redis fan-out: one race topic, 2000 messages at 1000/s, publish → delivery on each subscribed instance');
    console.log('| subscribed instances | p50 ms | p99 ms |');
    console.log('| --- | --- | --- |');
    for (const instances of INSTANCE_COUNTS) {
      const { p50, p99 } = await fanOutRun(instances, 2000, 1000);
      console.log(`| ${instances} | ${format(p50)} | ${format(p99)} |`);
    }
    console.log(
      '\nRedis delivers a race message once per subscribed instance, which writes it to its own watchers of that race: ' +
        'the Redis cost grows with instances, not watchers; per watcher it is the local socket write the server bench measures.',
    );
  } finally {
    stopServices?.();
  }
}
