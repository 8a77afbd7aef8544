import { and, eq, isNotNull } from 'drizzle-orm';
import type { DeadlineStore } from '../../stores.js';
import type { PgDb } from './index.js';
import { games } from './schema.js';

/** Deadlines of playing games on PostgreSQL, through the games_playing index. */
export class PgDeadlineStore implements DeadlineStore {
  constructor(private readonly db: PgDb) {}

  async playing(): Promise<{ id: number; deadline: number }[]> {
    const rows = await this.db
      .select({ id: games.id, deadline: games.deadline })
      .from(games)
      .where(and(eq(games.status, 'playing'), isNotNull(games.deadline)));
    return rows as { id: number; deadline: number }[];
  }
}
