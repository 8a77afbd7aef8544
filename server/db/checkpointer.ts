/**
 * Checkpoints off the move path. SQLite's automatic checkpoint runs inside whichever commit
 * crosses its threshold, so one move in a few hundred paid ~5 ms for everyone's pages. Here a
 * worker thread with its own connection checkpoints (PASSIVE: never takes a lock a commit needs)
 * and the writer, with `journal_size_limit`, truncates the log each time it starts it over.
 * SQLite's own checkpoint stays armed at the limit: when the worker falls behind a writer that
 * never yields (a starved core, a synchronous batch), the commit that crosses the limit catches
 * the log up itself, without waiting for this thread's event loop to hear the worker.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

export interface CheckpointLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface CheckpointOptions {
  /** How often the worker looks for new frames when it has caught up. */
  intervalMs: number;
  /** Past this size a commit checkpoints in line, and the main connection runs one blocking TRUNCATE (a reader pinned the log, or the worker fell far behind). */
  walLimitBytes: number;
}

type WorkerReport = { type: 'over-limit'; bytes: number } | { type: 'failed'; message: string; code?: string };

const WORKER = new URL('./checkpoint-worker.mjs', import.meta.url);
/** SQLite's own default, restored when the worker is gone so the log still cannot grow forever. */
const AUTO_CHECKPOINT_PAGES = 1000;
const STOP_TIMEOUT_MS = 2000;

export class Checkpointer {
  private readonly worker: Worker;
  private stopping = false;
  private lastTruncate = 0;

  constructor(
    private readonly sqlite: Database.Database,
    file: string,
    options: CheckpointOptions,
    private readonly log: CheckpointLog,
  ) {
    const pageBytes = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.pragma(`wal_autocheckpoint = ${Math.max(1, Math.floor(options.walLimitBytes / pageBytes))}`);
    this.worker = new Worker(WORKER, { workerData: { file, ...options } });
    // A checkpointer alone must not keep a finished process (a bench, a command) alive.
    this.worker.unref();
    this.worker.on('message', (report: WorkerReport) => this.onReport(report, options.walLimitBytes));
    this.worker.on('error', (error) => this.fallBack(error));
    this.worker.on('exit', (code) => {
      if (!this.stopping) this.fallBack(new Error(`checkpoint worker exited with code ${code}`));
    });
  }

  /** Stops the worker and waits for it to close its connection (then the main one may close and remove the log). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    // Held until it has exited: with nothing else left to wait for, the process would otherwise
    // end before the main connection is closed.
    this.worker.ref();
    this.worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS)));
    if ((await Promise.race([exited, timeout])) === 'timeout') await this.worker.terminate();
    clearTimeout(timer);
  }

  private onReport(report: WorkerReport, limit: number): void {
    if (report.type === 'failed') {
      this.log.warn({ code: report.code, reason: report.message }, 'WAL checkpoint failed; retrying');
      return;
    }
    // At most once a second: if a reader pins the log, a TRUNCATE cannot help until it lets go.
    const now = Date.now();
    if (this.stopping || now - this.lastTruncate < 1000) return;
    this.lastTruncate = now;
    try {
      const [result] = this.sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      this.log.warn({ walBytes: report.bytes, limit, busy: result?.busy }, 'WAL over its limit: truncated by a blocking checkpoint');
    } catch (error) {
      this.log.error({ err: error, walBytes: report.bytes }, 'WAL over its limit and the checkpoint failed');
    }
  }

  private fallBack(error: Error): void {
    if (this.stopping) return;
    this.stopping = true;
    this.log.error({ err: error }, 'checkpoint worker stopped: commits checkpoint again');
    try {
      this.sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    } catch (pragmaError) {
      this.log.error({ err: pragmaError }, 'cannot turn automatic checkpoints back on');
    }
  }
}
