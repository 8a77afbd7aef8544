import type { MoveWrite, Pending } from '../ports.js';
import type { Storage } from '../stores.js';
import { analysisStore } from './analysis-store.js';
import { dailyStore } from './daily-store.js';
import { fairPlayStore } from './fair-play-store.js';
import { deadlineStore, gameStore } from './game-store.js';
import { ghostStore } from './ghost-store.js';
import { GroupCommit } from './group-commit.js';
import { closeDatabase, sqliteSql, storageReady, type Db } from './index.js';
import { identityStore } from './identity-store.js';
import { moderationStore } from './moderation-store.js';
import { lobbyStore } from './lobby-store.js';
import { poolStore } from './pool-store.js';
import { playerStore } from './player-store.js';
import { raceStore } from './race-store.js';
import { ratingStore } from './rating-store.js';
import { replayStore } from './replay-store.js';
import { seriesStore } from './series-store.js';
import type { Sql } from './sql.js';

/** Every store on one database, each written once over `sql`; moves are stored by the database's own `appendMove`. */
export function stores(sql: Sql, appendMove: (move: MoveWrite) => Pending<void>): Omit<Storage, 'ready' | 'close'> {
  return {
    kind: sql.kind,
    games: gameStore(sql, appendMove),
    players: playerStore(sql),
    identities: identityStore(sql),
    races: raceStore(sql),
    deadlines: deadlineStore(sql),
    series: seriesStore(sql),
    replays: replayStore(sql),
    daily: dailyStore(sql),
    analyses: analysisStore(sql),
    ratings: ratingStore(sql),
    ghosts: ghostStore(sql),
    moderation: moderationStore(sql),
    fairPlay: fairPlayStore(sql),
    pool: poolStore(sql),
    lobby: lobbyStore(sql),
    failure: (error) => sql.failure(error),
  };
}

/** Every store on one SQLite database (the default): each call answers in the same turn. */
export function sqliteStorage(db: Db): Storage {
  const moves = new GroupCommit(db);
  return {
    ...stores(sqliteSql(db), (move) => moves.appendMove(move)),
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
