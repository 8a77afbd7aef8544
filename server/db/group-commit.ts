import Database from 'better-sqlite3';
import { and, eq, sql } from 'drizzle-orm';
import { IndexTaken, type MoveWrite, type Pending } from '../ports.js';
import { transaction, type Db, type Transaction } from './index.js';
import { gameActions, gameDeals, games } from './schema.js';

/**
 * The move path on SQLite, its own because it is SQLite's alone: every move answers in the same
 * turn, except those that come after the first of a busy turn: they are committed together at
 * the end of that turn (group commit). The game service acknowledges each move only once its
 * commit has returned.
 */
export class GroupCommit {
  /** The move's writes, prepared once: building SQL per move would cost more than writing it. */
  private readonly statements;
  private readonly transaction: Transaction;
  /** Whether a move was committed in this turn of the event loop: the next ones wait for its end. */
  private turnHasMove = false;
  private queued: QueuedMove[] = [];

  constructor(db: Db) {
    this.transaction = transaction(db);
    const placeholder = sql.placeholder;
    const [id, index] = [placeholder('gameId'), placeholder('index')] as const;
    const value = (name: string) => sql`${placeholder(name)}`;
    const counts = { foundations: value('foundations'), redealsUsed: value('redealsUsed'), moves: value('moves') };
    const result = { ...counts, status: value('status'), finishedAt: value('finishedAt'), rankKey: value('rankKey') };
    this.statements = {
      action: db.insert(gameActions).values({ gameId: id, index, action: placeholder('action'), at: placeholder('at'), foundations: placeholder('foundations') }).prepare(),
      storedAction: db.select({ action: gameActions.action }).from(gameActions).where(and(eq(gameActions.gameId, id), eq(gameActions.index, index))).prepare(),
      deal: db.insert(gameDeals).values({ gameId: id, k: placeholder('k'), layout: placeholder('layout') }).prepare(),
      result: db.update(games).set(result).where(eq(games.id, id)).prepare(),
    };
  }

  /**
   * Stores a move. The first move of a turn of the event loop is committed at once and answers
   * in the same turn, as a move alone always did (a quiet server's acks wait for nothing). The
   * moves after it in the same turn (a busy server reads many sockets per turn) are committed
   * together once the turn's I/O callbacks have run, before any timer, and each one's promise
   * settles after that commit: one commit's fixed cost (locks, frame headers, pages shared by
   * several moves) for all of them instead of one each.
   */
  appendMove(move: MoveWrite): Pending<void> {
    if (this.turnHasMove) {
      return new Promise((resolve, reject) => void this.queued.push({ move, resolve, reject }));
    }
    this.turnHasMove = true;
    setImmediate(() => this.endTurn());
    try {
      this.transaction(() => this.write(move));
    } catch (error) {
      if (!isIndexTaken(error)) throw error;
      throw this.indexTaken(move, error);
    }
  }

  private endTurn(): void {
    this.turnHasMove = false;
    if (this.queued.length > 0) this.commitQueued();
  }

  private commitQueued(): void {
    const queued = this.queued;
    this.queued = [];
    let refused = new Map<QueuedMove, unknown>();
    try {
      try {
        this.transaction(() => {
          for (const entry of queued) this.write(entry.move);
        });
      } catch (error) {
        // Another process stored one of these indexes first (rare): the batch was rolled back;
        // it is written again with a savepoint per move, so that move alone is refused.
        if (!isIndexTaken(error)) throw error;
        refused = this.commitEach(queued);
      }
    } catch (error) {
      // Nothing of the batch is stored: every move of it fails alike (a full disk, a lock).
      for (const entry of queued) entry.reject(error);
      return;
    }
    for (const entry of queued) {
      const reason = refused.get(entry);
      if (reason === undefined) entry.resolve();
      else entry.reject(reason);
    }
  }

  /** One transaction, a savepoint per move: the moves whose index is taken are left out, with their reason. */
  private commitEach(queued: readonly QueuedMove[]): Map<QueuedMove, unknown> {
    const refused = new Map<QueuedMove, unknown>();
    this.transaction(() => {
      for (const entry of queued) {
        try {
          this.transaction(() => this.write(entry.move));
        } catch (error) {
          if (!isIndexTaken(error)) throw error;
          refused.set(entry, this.indexTaken(entry.move, error));
        }
      }
    });
    return refused;
  }

  /** A move that leaves the game playing writes its log row alone: writing the game's row too would be one more page per commit. */
  private write({ gameId, index, action, at, deal, counts, result }: MoveWrite): void {
    this.statements.action.run({ gameId, index, action, at, foundations: counts.foundations });
    if (deal) this.statements.deal.run({ gameId, k: deal.k, layout: deal.layout });
    if (result) this.statements.result.run({ gameId, ...counts, ...result });
  }

  /** Another process on this file stored that index first: the log's primary key decided. */
  private indexTaken({ gameId, index }: MoveWrite, error: unknown): unknown {
    const stored = this.statements.storedAction.get({ gameId, index });
    return stored ? new IndexTaken(gameId, index, stored.action) : error;
  }
}

interface QueuedMove {
  readonly move: MoveWrite;
  resolve(): void;
  reject(reason: unknown): void;
}

const isIndexTaken = (error: unknown): boolean => error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
