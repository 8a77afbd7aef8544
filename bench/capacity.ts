// Capacity bench: how many people can play at once on one instance. Human-paced players (one move
// a second, races of 8, every racer watching their race, plus spectators) in steps of growing
// size, each step a fresh set of players and races on the same running server, until a step's ack
// p99 passes the limit; the largest step that held is the capacity. Every move goes the production
// way (socket, zod, engine, a SQLite commit in WAL mode on a file before its ack, progress to the
// watchers in windows) with production socket budgets; and at each step the floor
// (bench/server-floor.ts) carries as many sockets in the same races at the same pace, owed the
// same fan-out: what storing, acking and telling the race costs at the least.
// The players live in BENCH_CAPACITY_CLIENTS processes (bench/capacity-clients.ts), each reporting
// its own event loop: its busy share and delay p99 show the load generator is not what limits.
// Knobs: BENCH_CAPACITY_STEPS=1000,2000,... BENCH_CAPACITY_MS (measured per step) BENCH_CAPACITY_WARMUP_MS
// BENCH_CAPACITY_P99_MS (the limit) BENCH_CAPACITY_SPECTATORS (per race) BENCH_CAPACITY_CLIENTS
// BENCH_CAPACITY_FLOOR=off BENCH_CAPACITY_PROFILE=DIR (a CPU profile of each step's measured span).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PlayerView } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';
import { buildApp } from '../server/app.js';
import { PROGRESS_INTERVAL_MS } from '../server/races/service.js';
import type { CapacityCommand, CapacityRace, CapacityReport, SpanReport } from './capacity-clients.js';
import { format, percentile } from './measure.js';
import { registerFloor } from './server-floor.js';

const STEPS = process.env.BENCH_CAPACITY_STEPS?.split(',').map(Number) ?? [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000];
const MEASURE_MS = Number(process.env.BENCH_CAPACITY_MS ?? 8000);
const WARMUP_MS = Number(process.env.BENCH_CAPACITY_WARMUP_MS ?? 3000);
const P99_LIMIT_MS = Number(process.env.BENCH_CAPACITY_P99_MS ?? 50);
const SPECTATORS_PER_RACE = Number(process.env.BENCH_CAPACITY_SPECTATORS ?? 1);
const CLIENT_PROCESSES = Number(process.env.BENCH_CAPACITY_CLIENTS ?? 2);
const FLOOR = process.env.BENCH_CAPACITY_FLOOR !== 'off';
const PROFILE_DIR = process.env.BENCH_CAPACITY_PROFILE;
const PER_SECOND = 1;
const SEATS = 8;
/** Games that can cycle outlast any step: nobody runs out of moves mid-measure. */
const VARIANT: VariantId = 'shamrocks';
const STEP_TIMEOUT_MS = 180_000;

interface Figures {
  players: number;
  sockets: number;
  movesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Server CPU (user + system, every thread) per move, µs. */
  cpuPerMove: number;
  loopBusy: number;
  loopDelayP99: number;
  /** Heap + off-heap bytes per connected socket (players and spectators), after a full GC. */
  bytesPerSocket: number;
  progressPerMove: number;
  progressBytes: number;
  clientBusy: number;
  clientDelayP99: number;
  playing: number;
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Bytes the server holds (JS heap, buffers, native), after a full collection. */
function heldBytes(): number {
  collectGarbage();
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

class Clients {
  private readonly children: ChildProcess[];

  constructor(count: number) {
    this.children = Array.from({ length: count }, () =>
      fork(fileURLToPath(new URL('./capacity-clients.ts', import.meta.url)), [], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
  }

  /** Sends each child its command and waits for each one's report of `type`. */
  all<T extends CapacityReport['type']>(commands: CapacityCommand[] | CapacityCommand, type: T): Promise<Extract<CapacityReport, { type: T }>[]> {
    return Promise.all(
      this.children.map(
        (child, i) =>
          new Promise<Extract<CapacityReport, { type: T }>>((resolve, reject) => {
            const timer = setTimeout(() => done(new Error(`clients: no ${type} within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS);
            const onMessage = (report: CapacityReport) => {
              if (report.type === 'failed') done(new Error(`clients failed: ${report.message}`));
              else if (report.type === type) done(undefined, report as Extract<CapacityReport, { type: T }>);
            };
            const onExit = (code: number | null) => done(new Error(`a clients process exited (${code})`));
            function done(error: Error | undefined, report?: Extract<CapacityReport, { type: T }>) {
              clearTimeout(timer);
              child.off('message', onMessage);
              child.off('exit', onExit);
              if (error) reject(error);
              else resolve(report!);
            }
            child.on('message', onMessage);
            child.on('exit', onExit);
            child.send(Array.isArray(commands) ? commands[i]! : commands);
          }),
      ),
    );
  }

  /** Waits for a report without sending anything (the one that follows another). */
  next<T extends CapacityReport['type']>(type: T): Promise<Extract<CapacityReport, { type: T }>[]> {
    return Promise.all(
      this.children.map(
        (child) =>
          new Promise<Extract<CapacityReport, { type: T }>>((resolve, reject) => {
            const onMessage = (report: CapacityReport) => {
              if (report.type === 'failed') {
                child.off('message', onMessage);
                reject(new Error(`clients failed: ${report.message}`));
              } else if (report.type === type) {
                child.off('message', onMessage);
                resolve(report as Extract<CapacityReport, { type: T }>);
              }
            };
            child.on('message', onMessage);
          }),
      ),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        if (child.connected) child.send({ type: 'exit' } satisfies CapacityCommand);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

export async function benchCapacity(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-capacity-'));
  // Production settings (file database, WAL, synchronous NORMAL, socket frame budgets), except no
  // per-address rate limits (every player shares 127.0.0.1) and an instant countdown.
  const app = await buildApp({ dataDir, synchronous: 'NORMAL', logLevel: 'silent', clientDir: null, countdownMs: 0, rateLimits: false });
  const closeFloor = registerFloor(app, dataDir, PROGRESS_INTERVAL_MS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  const wsBase = `ws://127.0.0.1:${address.port}`;
  const clients = new Clients(CLIENT_PROCESSES);
  const profiler = PROFILE_DIR === undefined ? undefined : new Session();
  profiler?.connect();
  await profiler?.post('Profiler.enable');

  /** Measures the server over a span the clients run from `measureFrom` to `until`. */
  const serverSpan = async (measureFrom: number, until: number, name: string) => {
    await new Promise((resolve) => setTimeout(resolve, measureFrom - Date.now()));
    if (profiler) await profiler.post('Profiler.start');
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const [loop, cpu] = [performance.eventLoopUtilization(), process.cpuUsage()];
    await new Promise((resolve) => setTimeout(resolve, until - Date.now()));
    const used = process.cpuUsage(cpu);
    const busy = performance.eventLoopUtilization(loop).utilization;
    delay.disable();
    if (profiler) writeFileSync(join(PROFILE_DIR!, `${name}.cpuprofile`), JSON.stringify((await profiler.post('Profiler.stop')).profile));
    return { cpu: used.user + used.system, busy, delayP99: delay.percentile(99) / 1e6 };
  };

  const figuresOf = (players: number, sockets: number, reports: SpanReport[], server: { cpu: number; busy: number; delayP99: number }, bytesPerSocket: number): Figures => {
    const latencies = reports.flatMap((report) => report.latencies);
    if (latencies.length === 0) throw new Error(`${players} players: no move was answered in the measured span`);
    const moves = latencies.length;
    const frames = reports.reduce((sum, report) => sum + report.progressFrames, 0);
    return {
      players,
      sockets,
      movesPerSecond: moves / (MEASURE_MS / 1000),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: Math.max(...latencies),
      cpuPerMove: server.cpu / moves,
      loopBusy: server.busy,
      loopDelayP99: server.delayP99,
      bytesPerSocket,
      progressPerMove: frames / moves,
      progressBytes: frames === 0 ? 0 : Math.round(reports.reduce((sum, report) => sum + report.progressBytes, 0) / frames),
      clientBusy: Math.max(...reports.map((report) => report.loopBusy)),
      clientDelayP99: Math.max(...reports.map((report) => report.loopDelayP99)),
      playing: reports.reduce((sum, report) => sum + report.playing, 0),
    };
  };

  const rows: { lucie: Figures; floor: Figures | undefined }[] = [];
  let acked = 0;
  let capacity: { lucie: Figures; floor: Figures | undefined } | undefined;
  try {
    for (const players of STEPS) {
      const before = heldBytes();
      const races = await createRaces(app, players);
      const shares = Array.from({ length: CLIENT_PROCESSES }, (_, i) => races.filter((_, r) => r % CLIENT_PROCESSES === i));
      const sockets = players + races.length * SPECTATORS_PER_RACE;
      const dealt = clients.next('dealt');
      await clients.all(shares.map((share) => ({ type: 'connect', wsBase, races: share })), 'connected');
      const bytesPerSocket = (heldBytes() - before) / sockets;
      for (const race of races) await app.races.start(race.creator, race.code);
      await dealt;

      const measureFrom = Date.now() + 500 + WARMUP_MS;
      const until = measureFrom + MEASURE_MS;
      const [reports, server] = await Promise.all([
        clients.all({ type: 'play', measureFrom, until, perSecond: PER_SECOND }, 'span'),
        serverSpan(measureFrom, until, `lucie-${players}`),
      ]);
      const lucie = figuresOf(players, sockets, reports.map((report) => report.report), server, bytesPerSocket);
      let floor: Figures | undefined;
      if (FLOOR) {
        const floorFrom = Date.now() + 2000 + WARMUP_MS;
        const floorUntil = floorFrom + MEASURE_MS;
        const [floorReports, floorServer] = await Promise.all([
          clients.all({ type: 'floor', wsBase, fanout: lucie.progressPerMove, progressBytes: lucie.progressBytes, measureFrom: floorFrom, until: floorUntil, perSecond: PER_SECOND }, 'span'),
          serverSpan(floorFrom, floorUntil, `floor-${players}`),
        ]);
        floor = figuresOf(players, sockets, floorReports.map((report) => report.report), floorServer, NaN);
      }
      acked += (await clients.all({ type: 'end' }, 'ended')).reduce((sum, report) => sum + report.acks, 0);
      const stored = (app.db.$client.prepare('select count(*) as n from game_actions').get() as { n: number }).n;
      if (stored !== acked) throw new Error(`durability: game_actions holds ${stored} rows but ${acked} moves were acknowledged`);
      rows.push({ lucie, floor });
      console.error(`capacity step: ${players} players, ${format(lucie.movesPerSecond, 0)} moves/s, ack p50 ${format(lucie.p50)} ms, p99 ${format(lucie.p99)} ms` + (floor ? `; floor p99 ${format(floor.p99)} ms` : ''));
      if (lucie.p99 >= P99_LIMIT_MS) break;
      capacity = { lucie, floor };
    }
  } finally {
    await clients.stop();
    profiler?.disconnect();
    await app.close();
    closeFloor();
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log(
    `## Capacity (${VARIANT} races of ${SEATS}, ${PER_SECOND} move/s per player, every racer watching plus ${SPECTATORS_PER_RACE} spectator per race; ` +
      `${MEASURE_MS / 1000} s measured per step after ${WARMUP_MS / 1000} s; progress window ${PROGRESS_INTERVAL_MS} ms; players in ${CLIENT_PROCESSES} processes)`,
  );
  console.log(
    'SQLite file (WAL, synchronous NORMAL), every move committed before its ack; production socket budgets. Floor: bench/server-floor.ts, the same sockets, pace and fan-out. ' +
      'Server CPU: the server process (user + system, all threads) over the span ÷ moves. Memory: heap + external after a full GC, connected (before the deal) minus before, ÷ sockets.',
  );
  console.log(
    '| players | sockets | moves/s | ack p50 ms (floor) | ack p99 ms (floor) | ack max ms | server CPU µs/move (floor) | server loop busy (floor) | server loop delay p99 ms | ' +
      'KB per socket | progress frames per move, bytes | clients busy, delay p99 ms | still playing |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const pct = (value: number) => `${format(value * 100, 0)} %`;
  for (const { lucie, floor } of rows) {
    console.log(
      `| ${lucie.players} | ${lucie.sockets} | ${format(lucie.movesPerSecond, 0)} | ${format(lucie.p50)} (${format(floor?.p50 ?? NaN)}) | ${format(lucie.p99)} (${format(floor?.p99 ?? NaN)}) | ` +
        `${format(lucie.max, 0)} | ${format(lucie.cpuPerMove, 0)} (${format(floor?.cpuPerMove ?? NaN, 0)}) | ${pct(lucie.loopBusy)} (${pct(floor?.loopBusy ?? NaN)}) | ${format(lucie.loopDelayP99)} | ` +
        `${format(lucie.bytesPerSocket / 1024, 1)} | ${format(lucie.progressPerMove)}, ${lucie.progressBytes} | ${pct(lucie.clientBusy)}, ${format(lucie.clientDelayP99)} | ${lucie.playing} |`,
    );
  }
  console.log(`\nDurability: ${acked} acks received = ${acked} rows in game_actions.`);
  if (!capacity) {
    console.log(`capacity: fewer than ${STEPS[0]} players (ack p99 ${format(rows[0]?.lucie.p99 ?? NaN)} ms ≥ ${P99_LIMIT_MS} ms at the first step)`);
    return;
  }
  const { lucie, floor } = capacity;
  console.log(
    `capacity: ${lucie.players} players at ack p99 < ${P99_LIMIT_MS} ms: ${format(lucie.movesPerSecond, 0)} moves/s, ack p50 ${format(lucie.p50)} / p99 ${format(lucie.p99)} ms, ` +
      `${format(lucie.cpuPerMove, 0)} µs server CPU per move, ${format(lucie.bytesPerSocket / 1024, 1)} KB per connected socket` +
      (floor ? `; floor ${format(floor.movesPerSecond, 0)} moves/s, p50 ${format(floor.p50)} / p99 ${format(floor.p99)} ms, ${format(floor.cpuPerMove, 0)} µs per move (Lucie ${format(lucie.cpuPerMove / floor.cpuPerMove)}× the floor's CPU)` : ''),
  );
}

/** `players` new players seated in races of SEATS (as few races as that allows, filled evenly), lobbies ready to start. */
async function createRaces(app: Awaited<ReturnType<typeof buildApp>>, players: number): Promise<(CapacityRace & { creator: PlayerView })[]> {
  const created: { player: PlayerView; token: string }[] = [];
  for (let i = 0; i < players; i++) created.push(await app.players.create(`cap ${i}`, 'capacity bench'));
  const raceCount = Math.ceil(players / SEATS);
  const races: (CapacityRace & { creator: PlayerView })[] = [];
  for (let r = 0; r < raceCount; r++) {
    const members = created.filter((_, i) => i % raceCount === r);
    const race = await app.races.create(members[0]!.player, { variant: VARIANT, seats: members.length, timeLimitSeconds: null, rated: false });
    for (const member of members.slice(1)) await app.races.join(member.player, race.code);
    races.push({ code: race.code, creator: members[0]!.player, racers: members.map(({ player, token }) => ({ id: player.id, token })), spectators: SPECTATORS_PER_RACE });
  }
  return races;
}
