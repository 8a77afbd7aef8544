/**
 * Game analyses: what the solver (solver/) finds on a game once its seed is public — the first
 * deal's maximum, par and the clairvoyant best on the game's own redeals, and the curve of the
 * deal solver's maximum after each move. Solving runs in one worker thread, one game at a time,
 * from a bounded queue; results are stored (game_analyses) and served from there. A job starts
 * when a race finishes, when a day closes, after a restart for what is still missing, and when
 * someone asks for a public game that has none. A solve that fails or overruns is stored as
 * unavailable; nothing else waits on it.
 */
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { makeRecord } from '../shared/index.js';
import { DEFAULT_NODES } from '../solver/budget.js';
import type { AnalysisAnswer, DailyAnalysisAnswer } from '../contract/index.js';
import type { AnalysisJob, AnalysisReply } from './analysis-worker.js';
import type { Clock } from './clock.js';
import type { DailyService } from './daily.js';
import { dayOf } from '../contract/day.js';
import { Refusal } from './errors.js';
import type { DomainEvents } from './events.js';
import type { GameService } from './games/service.js';
import { redealSeedOf, storedLayout, type LiveGame } from './games/live-game.js';
import { after, type Pending } from './ports.js';
import type { ReplayService } from './replays.js';
import type { AnalysisRow, AnalysisStore } from './stores.js';

export interface AnalysisRules {
  /** Search nodes for each of the deal, par and clairvoyant solves (solver/budget.ts). */
  nodes: number;
  /** Milliseconds for each of those solves, on the worker's clock. */
  solveMs: number;
  /** A job the worker has not answered by then is given up: the worker is stopped and started afresh. */
  jobTimeoutMs: number;
  /** Games waiting at most; one asked for beyond that waits for the next time it is asked for. */
  queueLimit: number;
  /** The worker's script; tests give one that fails or never answers. */
  worker: URL;
}

const SOURCES = import.meta.url.endsWith('.ts');
export const DEFAULT_ANALYSIS_RULES: AnalysisRules = {
  nodes: DEFAULT_NODES,
  solveMs: 5000,
  // Three solves at their limit plus the curve's positions (each bounded by nodes).
  jobTimeoutMs: 60_000,
  queueLimit: 1000,
  worker: new URL(SOURCES ? './analysis-worker.ts' : './analysis-worker.js', import.meta.url),
};

/**
 * A worker on `script`. The built server runs JavaScript; from the sources (tests, `tsx`) the
 * worker thread, which inherits no loader, registers tsx itself before loading the script.
 */
function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script);
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true });
}

export class AnalysisService {
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  private worker: Worker | null = null;
  private running: { gameId: number; job: number; startedAt: number; cancelTimeout: () => void; playerId?: number } | null = null;
  /** Told each finished job's outcome and time in seconds (the metrics' solve time). */
  onSolved: (status: AnalysisRow['status'], seconds: number) => void = () => {};
  private jobs = 0;
  private closed = false;

  constructor(
    private readonly store: AnalysisStore,
    private readonly gameService: GameService,
    private readonly replays: ReplayService,
    private readonly daily: DailyService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly rules: AnalysisRules,
    private readonly events: DomainEvents,
  ) {
    // A race's games are public once it finished; any other game once its seed is (a daily attempt after its day).
    events.on('race-finished', ({ standings }) => standings.forEach(({ gameId }) => this.enqueue(gameId)));
    events.on('game-ended', ({ gameId, raceId }) => {
      if (raceId !== null) return;
      // Its look-up (the storage, say) must never fail the write that ended the game.
      void Promise.resolve(this.replays.whyHidden(gameId))
        .then((hidden) => hidden === null && this.enqueue(gameId))
        .catch((error: unknown) => log.warn({ err: error, gameId }, 'cannot queue an analysis'));
    });
    // A failed read leaves the day's attempts to be queued when each is asked for, or at the next start.
    events.on('daily-closed', ({ day }) =>
      void Promise.resolve()
        .then(() => this.store.missingOfDay(day, this.rules.queueLimit))
        .then((ids) => ids.forEach((id) => this.enqueue(id)))
        .catch((error: unknown) => this.log.warn({ err: error, day }, 'cannot queue the analyses of a day')),
    );
  }

  /** After a restart: queue the public games still without an analysis (newest first). */
  resume(): Pending<void> {
    return after(this.store.missing(dayOf(this.clock.now()), this.rules.queueLimit), (ids) => {
      for (const id of ids) this.enqueue(id);
    });
  }

  /** The stored analysis of game `id`, `pending` while it is being made; refused before the game's seed is public. */
  async answer(id: number): Promise<Omit<AnalysisAnswer, 'fairPlay'>> {
    const hidden = await this.replays.whyHidden(id);
    if (hidden !== null) throw new Refusal('analysis-hidden', `the analysis of game ${id} shows its later layouts, so it waits: ${hidden.words}`, { params: hidden.params });
    const row = await this.store.byGame(id);
    if (row) return { gameId: id, status: row.status, reason: row.reason, analysis: row.status === 'done' ? row.analysis : null };
    this.enqueue(id);
    return { gameId: id, status: 'pending', reason: null, analysis: null };
  }

  /** A day's first deal and how many of its attempts reached their par, from the stored analyses; refused while the day is on. */
  async dayAnswer(day: string): Promise<DailyAnalysisAnswer> {
    const { finished } = await this.daily.view(day, null);
    if (!this.daily.isOver(day)) throw new Refusal('analysis-hidden', `the analysis of the daily deal of ${day} waits until the day is over (00:00 UTC)`, { params: { hidden: 'daily', scope: day } });
    const figures = await this.store.dayFigures(day);
    return { day, firstDeal: figures.firstDeal, attempts: finished, analysed: figures.analysed, reachedPar: figures.reachedPar };
  }

  /** Games waiting for their analysis, the one being solved included. */
  get queueLength(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  /** Stops the worker (a solve in progress is dropped: its game stays pending and is queued again on the next start). */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.queued.clear();
    this.running?.cancelTimeout();
    this.running = null;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private enqueue(gameId: number): void {
    if (this.closed || this.queued.has(gameId) || this.running?.gameId === gameId) return;
    if (this.queue.length >= this.rules.queueLimit) {
      this.log.warn({ gameId }, 'analysis queue full: the game waits until it is asked for again');
      return;
    }
    this.queue.push(gameId);
    this.queued.add(gameId);
    this.pump();
  }

  private pump(): void {
    if (this.closed || this.running || this.queue.length === 0) return;
    const gameId = this.queue.shift()!;
    this.queued.delete(gameId);
    const job = ++this.jobs;
    // The real clock: a job's time is the machine's, whatever the game clock says.
    const timer = setTimeout(() => this.timedOut(job), this.rules.jobTimeoutMs);
    this.running = { gameId, job, startedAt: performance.now(), cancelTimeout: () => clearTimeout(timer) };
    try {
      const loaded = after(this.gameService.get(gameId), (game) => this.send(job, game));
      if (loaded instanceof Promise) loaded.catch((error: unknown) => this.failed(job, `the game could not be read: ${(error as Error).message}`));
    } catch (error) {
      this.failed(job, `the game could not be read: ${(error as Error).message}`);
    }
  }

  private send(job: number, game: LiveGame | undefined): void {
    if (this.running?.job !== job) return;
    if (!game) return this.failed(job, 'the game is gone');
    this.running.playerId = game.playerId;
    const record = makeRecord({ variant: game.variant, seed: game.seed, deals: game.deals.map(storedLayout), actions: game.actions });
    const message: AnalysisJob = { job, record, redealSeed: redealSeedOf(game), nodes: this.rules.nodes, ms: this.rules.solveMs };
    this.workerOf().postMessage(message);
  }

  private workerOf(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.rules.worker);
    // Idle between jobs, it must not keep a finished process alive.
    worker.unref();
    worker.on('message', (reply: AnalysisReply) => this.replied(reply));
    worker.on('error', (error) => this.workerLost(worker, `the solver failed: ${error.message}`));
    worker.on('exit', (code) => this.workerLost(worker, `the solver stopped (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private replied(reply: AnalysisReply): void {
    if (this.running?.job !== reply.job) return;
    if ('failure' in reply) return this.failed(reply.job, reply.failure);
    this.finish(reply.job, { status: 'done', analysis: reply.analysis, reason: null });
  }

  private timedOut(job: number): void {
    if (this.running?.job !== job) return;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    this.failed(job, `the solve took longer than ${this.rules.jobTimeoutMs} ms`);
  }

  private workerLost(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.running) this.failed(this.running.job, reason);
  }

  private failed(job: number, reason: string): void {
    this.log.warn({ gameId: this.running?.gameId, reason }, 'analysis unavailable');
    this.finish(job, { status: 'unavailable', analysis: null, reason });
  }

  private finish(job: number, result: Pick<AnalysisRow, 'status' | 'analysis' | 'reason'>): void {
    const running = this.running;
    if (running?.job !== job) return;
    running.cancelTimeout();
    this.running = null;
    this.onSolved(result.status, (performance.now() - running.startedAt) / 1000);
    // Not stored: the game stays pending and is queued again when next asked for.
    const notStored = (error: unknown) => this.log.warn({ err: error, gameId: running.gameId }, 'cannot store an analysis');
    // Announced once stored: fair play (fair-play.ts) measures the game from it.
    const { analysis } = result;
    const announce = () => {
      if (analysis !== null && running.playerId !== undefined) this.events.emit({ type: 'game-analysed', gameId: running.gameId, playerId: running.playerId, analysis });
    };
    try {
      const stored = after(this.store.store({ gameId: running.gameId, ...result, createdAt: this.clock.now() }), announce);
      if (stored instanceof Promise) stored.catch(notStored);
    } catch (error) {
      notStored(error);
    }
    this.pump();
  }
}
