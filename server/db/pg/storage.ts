import type { Storage } from '../../stores.js';
import { PgAnalysisStore } from './analysis-store.js';
import { PgDailyStore } from './daily-store.js';
import { PgDeadlineStore } from './deadline-store.js';
import { PgGameStore, pgFailureCode } from './game-store.js';
import type { PgDb } from './index.js';
import { PgPlayerStore } from './player-store.js';
import { PgReplayStore } from './replay-store.js';
import { PgRaceStore } from './race-store.js';
import { PgSeriesStore } from './series-store.js';

/** How long readiness waits for PostgreSQL before calling it unreachable: a balancer polls often. */
const READY_TIMEOUT_MS = 2000;

/** Every store on one PostgreSQL database (DATABASE_URL): each call answers later. */
export function pgStorage(db: PgDb): Storage {
  const games = new PgGameStore(db);
  return {
    kind: 'postgres',
    games,
    players: new PgPlayerStore(db),
    races: new PgRaceStore(db),
    deadlines: new PgDeadlineStore(db),
    series: new PgSeriesStore(db),
    replays: new PgReplayStore(db),
    daily: new PgDailyStore(db),
    analyses: new PgAnalysisStore(db),
    failure: (error) => pgFailureCode(error),
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
