// What an operator watches, in Prometheus terms (prom-client): each figure is counted where it
// happens through the few methods below, or read when scraped. One registry per app, so several
// apps in one process (the tests) never mix their figures.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Pending } from './ports.js';

/** Readings taken at each scrape, from the services that know them. */
export interface MetricReadings {
  openSockets(): number;
  playersOnline(): number;
  /** Races per state, from the race store (either database). */
  racesByState(): Pending<Readonly<Record<string, number>> | undefined>;
  analysisQueue(): number;
  /** The quick-race pool per variant someone waits for: how many wait, and the longest wait so far. */
  pool(): Pending<readonly { variant: string; waiting: number; longestWaitSeconds: number }[] | undefined>;
  /** Seconds since the newest complete backup, or undefined when none is known. */
  backupAgeSeconds(): number | undefined;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly acknowledged = new Counter({ name: 'lucie_moves_acknowledged_total', help: 'Moves stored and acknowledged', registers: [this.registry] });
  private readonly refused = new Counter({ name: 'lucie_moves_refused_total', help: 'Moves refused, by error code', labelNames: ['code'], registers: [this.registry] });
  private readonly ackLatency = new Histogram({
    name: 'lucie_ack_latency_seconds',
    help: 'From a move frame read to its ack written (validation, storage, ack)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly storageErrors = new Counter({ name: 'lucie_storage_errors_total', help: 'Requests, frames and moves refused because the storage failed, by where', labelNames: ['where'], registers: [this.registry] });
  private readonly rateLimited = new Counter({ name: 'lucie_rate_limit_hits_total', help: 'Requests and frames refused by a rate limit, by where', labelNames: ['where'], registers: [this.registry] });
  private readonly solveTime = new Histogram({
    name: 'lucie_analysis_solve_seconds',
    help: 'Time of one game analysis in the solver worker, by outcome',
    labelNames: ['status'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  private readonly poolWait = new Histogram({
    name: 'lucie_pool_wait_seconds',
    help: 'How long players waited in the quick-race pool before a race seated them, by variant (counted by the instance that formed the race)',
    labelNames: ['variant'],
    buckets: [1, 2, 5, 10, 20, 30, 60, 120],
    registers: [this.registry],
  });

  constructor(readings: MetricReadings) {
    const registers = [this.registry];
    // The pool's two gauges are collected together (a scrape collects every metric at once): they share one reading.
    let poolReading: ReturnType<MetricReadings['pool']> | undefined;
    const pool = () => {
      if (poolReading !== undefined) return poolReading;
      const reading = readings.pool();
      if (reading instanceof Promise) poolReading = reading.finally(() => (poolReading = undefined));
      return reading;
    };
    new Gauge({ name: 'lucie_open_sockets', help: 'Open websockets on this instance', registers, collect() { this.set(readings.openSockets()); } });
    new Gauge({ name: 'lucie_players_online', help: 'Players with at least one socket on this instance', registers, collect() { this.set(readings.playersOnline()); } });
    new Gauge({
      name: 'lucie_races',
      help: 'Races by state',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await readings.racesByState();
        this.reset();
        for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'lucie_pool_waiting',
      help: 'Players waiting in the quick-race pool, by variant',
      labelNames: ['variant'],
      registers,
      async collect() {
        const figures = await pool();
        this.reset();
        for (const { variant, waiting } of figures ?? []) this.set({ variant }, waiting);
      },
    });
    new Gauge({
      name: 'lucie_pool_longest_wait_seconds',
      help: 'The longest wait of a player still in the quick-race pool, by variant',
      labelNames: ['variant'],
      registers,
      async collect() {
        const figures = await pool();
        this.reset();
        for (const { variant, longestWaitSeconds } of figures ?? []) this.set({ variant }, longestWaitSeconds);
      },
    });
    new Gauge({ name: 'lucie_analysis_queue_length', help: 'Games waiting for analysis, the one being solved included', registers, collect() { this.set(readings.analysisQueue()); } });
    new Gauge({
      name: 'lucie_backup_age_seconds',
      help: 'Seconds since the newest complete backup (absent when none is known)',
      registers,
      collect() {
        this.reset();
        const age = readings.backupAgeSeconds();
        if (age !== undefined) this.set(age);
      },
    });
    // Process figures: CPU, memory, event-loop delay (nodejs_eventloop_lag_* from monitorEventLoopDelay), handles.
    collectDefaultMetrics({ register: this.registry });
  }

  /** A move answered: acknowledged (no refusal) after `seconds`, or refused with its code. */
  moveAnswered(refusalCode: string | undefined, seconds: number): void {
    if (refusalCode === undefined) {
      this.acknowledged.inc();
      this.ackLatency.observe(seconds);
    } else {
      this.refused.inc({ code: refusalCode });
      if (refusalCode === 'storage-unavailable') this.storageFailed('move');
    }
  }

  storageFailed(where: 'http' | 'socket' | 'move'): void {
    this.storageErrors.inc({ where });
  }

  rateLimitHit(where: 'http' | 'socket-frames'): void {
    this.rateLimited.inc({ where });
  }

  /** A player the quick-race pool seated in a race, after waiting `seconds` there. */
  poolWaited(variant: string, seconds: number): void {
    this.poolWait.observe({ variant }, seconds);
  }

  analysisSolved(status: string, seconds: number): void {
    this.solveTime.observe({ status }, seconds);
  }
}
