// How the process stops on a signal. systemd (KillMode=control-group) and `kill -TERM -- -PGID`
// signal every process of the group, so node hears SIGTERM from the sender and again from npm,
// which forwards it: a repeated signal is not an emergency. Within the grace period every
// further signal is noted and the graceful close goes on; only a signal after it forces an exit,
// and a close that outlasts three grace periods ends the process anyway (nothing waits forever).
import type { FastifyBaseLogger } from 'fastify';

export const DEFAULT_STOP_GRACE_MS = 10_000;

export interface StopOptions {
  graceMs: number;
  log: FastifyBaseLogger;
  /** The graceful close: sockets told, last moves committed, database closed. */
  close: () => Promise<void>;
  exit: (code: number) => void;
  /** What the close still waits for, logged when it outlasts the grace period. */
  pending?: () => object;
}

/** The handler to give every stopping signal: the first starts the close, later ones follow the rule above. */
export function gracefulStop({ graceMs, log, close, exit, pending }: StopOptions): (signal: string) => void {
  let stopping = false;
  let overdue = false;
  return (signal) => {
    if (stopping) {
      if (!overdue) {
        log.info({ signal }, 'already stopping: the graceful stop goes on');
        return;
      }
      log.warn({ signal }, 'signal after the grace period: exiting now');
      exit(1);
      return;
    }
    stopping = true;
    log.info({ signal, graceMs }, 'shutting down: no more moves, closing sockets and the database');
    setTimeout(() => {
      overdue = true;
      log.warn({ graceMs, ...pending?.() }, 'the stop outlasts its grace period: it goes on; a further signal forces an exit');
    }, graceMs).unref();
    setTimeout(() => {
      log.error('shutdown timed out');
      exit(1);
    }, 3 * graceMs).unref();
    close().then(
      () => {
        log.info({ exitCode: 0 }, 'stopped');
        exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
}
