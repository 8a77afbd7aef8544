import type { Storage } from '../stores.js';
import { SqliteAnalysisStore } from './analysis-store.js';
import { SqliteDailyStore } from './daily-store.js';
import { SqliteDeadlineStore } from './deadline-store.js';
import { SqliteGameStore } from './game-store.js';
import { closeDatabase, noteStorageFailure, storageReady, type Db } from './index.js';
import { SqlitePlayerStore } from './player-store.js';
import { SqliteReplayStore } from './replay-store.js';
import { SqliteRaceStore } from './race-store.js';
import { SqliteSeriesStore } from './series-store.js';

/** Every store on one SQLite database (the default): each call answers in the same turn. */
export function sqliteStorage(db: Db): Storage {
  return {
    kind: 'sqlite',
    games: new SqliteGameStore(db),
    players: new SqlitePlayerStore(db),
    races: new SqliteRaceStore(db),
    deadlines: new SqliteDeadlineStore(db),
    series: new SqliteSeriesStore(db),
    replays: new SqliteReplayStore(db),
    daily: new SqliteDailyStore(db),
    analyses: new SqliteAnalysisStore(db),
    failure: (error) => noteStorageFailure(db, error),
    async ready() {
      try {
        db.$client.prepare('select 1').get();
        const storage = storageReady(db);
        return storage.ready ? { database: 'ok' } : { database: 'unavailable', code: storage.code };
      } catch (error) {
        return { database: 'unreachable', code: (error as Error).message };
      }
    },
    close: () => closeDatabase(db),
  };
}
