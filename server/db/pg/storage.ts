import { IndexTaken } from '../../ports.js';
import type { Storage } from '../../stores.js';
import { stores } from '../storage.js';
import { pgFailureCode, pgSql, type PgDb } from './index.js';
import { appendMove } from './moves.js';

/** How long readiness waits for PostgreSQL before calling it unreachable: a balancer polls often. */
const READY_TIMEOUT_MS = 2000;

/** Every store on one PostgreSQL database (DATABASE_URL): each call answers later. */
export function pgStorage(db: PgDb): Storage {
  return {
    ...stores(pgSql(db), async (move) => {
      const outcome = await appendMove(db, move);
      if (!outcome.stored) throw new IndexTaken(move.gameId, move.index, outcome.conflict);
    }),
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })), READY_TIMEOUT_MS);
      });
      try {
        await Promise.race([db.$client.query('select 1'), timeout]);
        return { database: 'ok' };
      } catch (error) {
        return { database: 'unreachable', code: pgFailureCode(error) ?? (error as Error).message };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => db.$client.end(),
  };
}
