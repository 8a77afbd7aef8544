// Server benchmark: N simulated players (in a child process, so the server keeps a core) each
// play their own race game over a real websocket, one action at a time, waiting for its ack:
// paced like a very fast player, then as fast as the acks come (closed loop). Every move goes the
// production way: zod, engine, a SQLite transaction in WAL mode on a file (durable before the
// ack), ack, progress to the racers watching (coalesced per race, as in production). Two
// baselines, in the same run, on the same server, with as many sockets and the same pacing: a
// bare websocket echo of a frame of the same size, and the floor (bench/server-floor.ts): the
// same frames, each also committed to SQLite and followed by the fan-out Lucie's moves caused,
// with no Lucie code, i.e. what storing, acknowledging and telling the race costs at the least.
// Knobs (for profiling): BENCH_SERVER_PLAYERS=50,200 BENCH_SERVER_SEATS BENCH_SERVER_RATE
// BENCH_SERVER_MS BENCH_SERVER_LOADS=paced,closed loop BENCH_SERVER_PROGRESS_MS (the progress window)
// BENCH_SERVER_PROFILE=DIR (a CPU profile of the server over each moves and floor phase alone, as DIR/PHASE-LOAD-PLAYERS.cpuprofile).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import type { VariantId } from '../shared/index.js';
import { buildApp } from '../server/app.js';
import { PROGRESS_INTERVAL_MS } from '../server/races/service.js';
import { format } from './measure.js';
import { registerFloor } from './server-floor.js';
import type { Load, PhaseEvent, RunCommand, RunResult } from './server-clients.js';

const PLAYER_COUNTS = process.env.BENCH_SERVER_PLAYERS?.split(',').map(Number) ?? [50, 200, 500];
/** Full races: every move is acked to its player, and its progress reaches the 8 racers watching (coalesced per race: PROGRESS_INTERVAL_MS). */
const SEATS = Number(process.env.BENCH_SERVER_SEATS ?? 8);
/** Fan-to-fan builds regardless of suit let play shuttle, so most random games outlast the run. */
const VARIANT: VariantId = 'shamrocks';
/** Paced like a very fast player (the socket budget allows 30 frames/s), then as fast as the server answers. */
const LOADS: Load[] = [
  { name: 'paced', perSecond: Number(process.env.BENCH_SERVER_RATE ?? 5) },
  { name: 'closed loop', perSecond: null },
].filter((load) => process.env.BENCH_SERVER_LOADS?.split(',').includes(load.name) ?? true);
const WARMUP_MS = 1000;
const MEASURE_MS = Number(process.env.BENCH_SERVER_MS ?? 5000);
const RUN_TIMEOUT_MS = 120_000;
const PROFILE_DIR = process.env.BENCH_SERVER_PROFILE;

type ChildMessage = PhaseEvent | { type: 'result'; result: RunResult } | { type: 'failed'; message: string };

export async function benchServer(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-bench-'));
  // Production settings (file database, WAL, synchronous NORMAL), except a frame budget that a
  // closed-loop robot stays within, no per-address rate limits (every robot shares 127.0.0.1)
  // and an instant countdown.
  const app = await buildApp({
    dataDir,
    synchronous: 'NORMAL',
    logLevel: 'silent',
    clientDir: null,
    countdownMs: 0,
    socketLimits: { burst: 1_000_000, perSecond: 1_000_000 },
    rateLimits: false,
    ...(process.env.BENCH_SERVER_PROGRESS_MS && { progressIntervalMs: Number(process.env.BENCH_SERVER_PROGRESS_MS) }),
  });
  app.get('/bench-echo', { websocket: true }, (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  const closeFloor = registerFloor(app, dataDir, Number(process.env.BENCH_SERVER_PROGRESS_MS ?? PROGRESS_INTERVAL_MS));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  const sqlite = app.db.$client;
  const journal = sqlite.pragma('journal_mode', { simple: true });
  const synchronous = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][sqlite.pragma('synchronous', { simple: true }) as number];

  let frameBytes = 0;
  const clients = fork(fileURLToPath(new URL('./server-clients.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  const command = (players: number, loads: Load[], measureMs: number): RunCommand => ({
    type: 'run',
    httpBase: `http://127.0.0.1:${address.port}`,
    wsBases: [`ws://127.0.0.1:${address.port}`],
    echo: true,
    players,
    seats: SEATS,
    variant: VARIANT,
    warmupMs: WARMUP_MS,
    measureMs,
    loads,
  });
  const rows: Record<string, string[]> = Object.fromEntries(LOADS.map((load) => [load.name, []]));
  const notes: string[] = [];
  /** Every ack of the run: the database is shared by the runs, so its rows add up too. */
  let acked = 0;
  let durable = '';
  const profiler = PROFILE_DIR === undefined ? undefined : await phaseProfiler(PROFILE_DIR);
  try {
    // V8 compiles the hot paths in the first seconds: a run that is not reported.
    acked += (await runClients(clients, command(PLAYER_COUNTS[0]!, [{ name: 'compile', perSecond: null }], WARMUP_MS), () => {})).acks;
    for (const players of PLAYER_COUNTS) {
      const serverBusy = new Map<string, { loop: EventLoopUtilization; cpu: NodeJS.CpuUsage }>();
      let started: { loop: EventLoopUtilization; cpu: NodeJS.CpuUsage } | undefined;
      const result = await runClients(clients, command(players, LOADS, MEASURE_MS), (event) => {
        if (event.edge === 'start') started = { loop: performance.eventLoopUtilization(), cpu: process.cpuUsage() };
        else serverBusy.set(`${event.load} ${event.phase}`, { loop: performance.eventLoopUtilization(started?.loop), cpu: process.cpuUsage(started?.cpu) });
        if (profiler && event.phase !== 'echo') void profiler.edge(event.edge, `${event.phase}-${event.load.replace(/ /g, '-')}-${players}`);
      });
      acked += result.acks;
      const stored = (sqlite.prepare('select count(*) as n from game_actions').get() as { n: number }).n;
      if (stored !== acked) throw new Error(`durability: game_actions holds ${stored} rows but ${acked} moves were acknowledged`);
      durable = `${stored} rows in game_actions = ${acked} acks received`;
      for (const { load, moves, echo: echoed, floor: floored, fanout, playing, clientBusy } of result.loads) {
        // This bench always asks for the echo and floor phases.
        const [echo, floor] = [echoed!, floored!];
        // The server process's CPU time (user + system, every thread) over the phase, per message.
        const cpuOf = (phase: string, count: number) => {
          const busy = serverBusy.get(`${load.name} ${phase}`);
          return { perMessage: busy ? (busy.cpu.user + busy.cpu.system) / count : NaN, loop: busy?.loop };
        };
        const cpu = { moves: cpuOf('moves', moves.count), echo: cpuOf('echo', echo.count), floor: cpuOf('floor', floor.count) };
        rows[load.name]!.push(
          `| ${players} | ${format(moves.count / moves.seconds, 0)} | ${format(moves.p50)} / ${format(echo.p50)} / ${format(floor.p50)} | ` +
            `${format(moves.p99)} / ${format(echo.p99)} / ${format(floor.p99)} | ` +
            `${format(moves.p50 / echo.p50)}× / ${format(moves.p50 / floor.p50)}× | ${format(moves.p99 / echo.p99)}× / ${format(moves.p99 / floor.p99)}× | ` +
            `${format(cpu.moves.perMessage, 0)} / ${format(cpu.echo.perMessage, 0)} / ${format(cpu.floor.perMessage, 0)} | ` +
            `${format(cpu.moves.perMessage / cpu.echo.perMessage)}× / ${format(cpu.moves.perMessage / cpu.floor.perMessage)}× | ` +
            `${percent(cpu.moves.loop)} / ${percent(cpu.echo.loop)} / ${percent(cpu.floor.loop)} | ` +
            `${percent(clientBusy.moves)} / ${percent(clientBusy.echo!)} / ${percent(clientBusy.floor!)} |`,
        );
        notes.push(
          `${load.name}, ${players} players: ${moves.count} moves measured, ${playing} games still playing at the end; ` +
            `ack p90 ${format(moves.p90)} ms, max ${format(moves.max)} ms; echo p90 ${format(echo.p90)} ms, max ${format(echo.max)} ms; ` +
            `floor p90 ${format(floor.p90)} ms, max ${format(floor.max)} ms (${format(fanout.perMove)} progress frames of ${fanout.bytes} bytes per move, ${format(floor.count / floor.seconds, 0)} floor moves/s).`,
        );
      }
      frameBytes = result.frameBytes;
    }
  } finally {
    await stop(clients);
    await app.close();
    closeFloor();
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log(`## Server (${VARIANT} races of ${SEATS} seats, every racer watching; ${MEASURE_MS / 1000} s per phase after ${WARMUP_MS / 1000} s of warm-up)`);
  console.log(
    `SQLite file database (journal ${journal}, synchronous ${synchronous}), each move committed before its ack; players in a child ` +
      `process; all on 127.0.0.1; frame budget lifted for the closed loop (production: 30 frames/s per socket). ` +
      `Echo: a bare websocket route on the same server, ${frameBytes}-byte frames, one socket per player. ` +
      `Floor: the same frames on a bare route that commits each to its own SQLite file (same pragmas, one row), acks it at once and ` +
      `sends the progress frames Lucie's moves caused (same count per move, same size) to the race's sockets, each socket's written at most once per progress window.`,
  );
  for (const load of LOADS) {
    console.log(`\n### ${load.name}: ${load.perSecond === null ? 'each player sends its next move as soon as the last is acked' : `each player sends ${load.perSecond} moves/s (echoes/s), one at a time`}`);
    console.log(
      '| players | moves/s | p50 ms: move / echo / floor | p99 ms: move / echo / floor | p50 ratio: to echo / to floor | p99 ratio: to echo / to floor | ' +
        'server CPU µs per message: move / echo / floor | CPU ratio: to echo / to floor | server loop busy | clients loop busy |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows[load.name]!) console.log(row);
  }
  console.log();
  for (const note of notes) console.log(`- ${note}`);
  console.log(`- Durability: ${durable}.`);
  console.log(`Targets (issue #9): ≤ 100 µs of server CPU per move paced and ≤ 40 µs closed loop; ack p99 < 5 ms at 200 and 500 paced; ack p50 ≤ 1.5× echo p50. In a closed loop latency is players ÷ throughput (Little's law).`);
}

const percent = (value: EventLoopUtilization | number | undefined): string =>
  `${format((typeof value === 'number' ? value : (value?.utilization ?? NaN)) * 100, 0)} %`;

/** Profiles the server between a phase's start and end edges (the phases never overlap). */
async function phaseProfiler(dir: string) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  return {
    async edge(edge: 'start' | 'end', name: string) {
      if (edge === 'start') return void (await session.post('Profiler.start'));
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/** Asks the players' process to leave, and ends it if it does not within a few seconds. */
export async function stop(clients: ChildProcess): Promise<void> {
  if (clients.exitCode !== null || clients.signalCode !== null) return;
  const exited = new Promise((resolve) => clients.once('exit', resolve));
  if (clients.connected) clients.send({ type: 'exit' });
  const timer = setTimeout(() => clients.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export function runClients(clients: ChildProcess, command: RunCommand, onPhase: (event: PhaseEvent) => void = () => {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`the players did not finish within ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'phase') onPhase(message);
      else if (message.type === 'result') finish(undefined, message.result);
      else finish(new Error(`the players failed: ${message.message}`));
    };
    const onExit = (code: number | null) => finish(new Error(`the players' process exited (${code})`));
    function finish(error: Error | undefined, result?: RunResult) {
      clearTimeout(timer);
      clients.off('message', onMessage);
      clients.off('exit', onExit);
      if (error) reject(error);
      else resolve(result!);
    }
    clients.on('message', onMessage);
    clients.on('exit', onExit);
    clients.send(command);
  });
}
