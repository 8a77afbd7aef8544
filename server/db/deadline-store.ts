import { and, eq, isNotNull } from 'drizzle-orm';
import type { DeadlineStore } from '../stores.js';
import type { Db } from './index.js';
import { games } from './schema.js';

/** Deadlines of playing games on SQLite, through the games_playing index. */
export class SqliteDeadlineStore implements DeadlineStore {
  constructor(private readonly db: Db) {}

  playing(): { id: number; deadline: number }[] {
    return this.db
      .select({ id: games.id, deadline: games.deadline })
      .from(games)
      .where(and(eq(games.status, 'playing'), isNotNull(games.deadline)))
      .all() as { id: number; deadline: number }[];
  }
}
