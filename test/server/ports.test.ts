// The storage port with a store that answers later (as a networked database would): a game's
// moves still apply in order, each acknowledged only once its write has resolved, and a write
// that fails changes nothing.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../contract/index.js';
import { makeAction, Position } from '../../shared/index.js';
import { SqliteGameStore } from '../../server/db/game-store.js';
import { closeDatabase, openDatabase, type Db } from '../../server/db/index.js';
import { players } from '../../server/db/schema.js';
import { GameService } from '../../server/games.js';
import type { GameStore, MoveWrite, Transport } from '../../server/ports.js';
import { chooseAction, layoutOf, ManualClock, unwrap } from './helpers.js';

/** SQLite underneath, but every move's write resolves (or fails) only when the test says so. */
class LaterStore implements GameStore {
  readonly waiting: { move: MoveWrite; settle: (error?: Error) => void }[] = [];
  private readonly inner: SqliteGameStore;
  constructor(readonly db: Db) {
    this.inner = new SqliteGameStore(db);
  }
  createGames: GameStore['createGames'] = (rows, alongside) => this.inner.createGames(rows, alongside);
  loadGame: GameStore['loadGame'] = (id) => this.inner.loadGame(id);
  loadMoveLog: GameStore['loadMoveLog'] = (id) => this.inner.loadMoveLog(id);
  playingGameIds: GameStore['playingGameIds'] = () => this.inner.playingGameIds();
  endGame: GameStore['endGame'] = (end) => this.inner.endGame(end);
  storageFailure: GameStore['storageFailure'] = (error) => this.inner.storageFailure(error);
  appendMove(move: MoveWrite): Promise<void> {
    return new Promise((resolve, reject) =>
      this.waiting.push({
        move,
        settle: (error) => {
          if (error) return reject(error);
          this.inner.appendMove(move);
          resolve();
        },
      }),
    );
  }
}

const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
let db: Db | undefined;
afterEach(async () => {
  if (db) await closeDatabase(db);
});

function setUp() {
  db = openDatabase(':memory:');
  const player = db.insert(players).values({ name: 'Ana', tokenHash: 'h', createdAt: 0 }).returning({ id: players.id, name: players.name }).get();
  const store = new LaterStore(db);
  const sent: ServerMessage[] = [];
  const record = (_to: unknown, message: ServerMessage) => void sent.push(message);
  const transport: Transport = { toPlayer: record, toPlayerNow: record, toRace: record, isConnected: () => true, onPresence: () => {} };
  const games = new GameService(store, transport, new ManualClock(), silent);
  const [game] = games.create([{ kind: 'race', playerId: player.id, variant: 'strict', seed: 'ports-1', startedAt: 0 }]);
  return { store, games, player, game: game!, acks: () => sent.filter((message) => message.type === 'ack').map((ack) => ack.index) };
}

/** The first `count` actions `chooseAction` plays from the game's deal (none is a redeal). */
function firstActions(deal: readonly string[], count: number): string[] {
  const position = unwrap(Position.start('strict', layoutOf(deal)));
  return Array.from({ length: count }, () => {
    const action = chooseAction(position)!;
    position.play(action);
    return makeAction(action);
  });
}

describe('GameService on a store that answers later', () => {
  it('applies, stores and acknowledges a game’s moves one at a time, in order, each after its write', async () => {
    const { store, games, player, game, acks } = setUp();
    const actions = firstActions(game.deals[0]!, 3);
    const outcomes = actions.map((action, index) => games.play(player, { gameId: game.id, index, action }));
    expect(outcomes.every((outcome) => outcome instanceof Promise)).toBe(true);
    await flush();
    // Only the first write is in flight; nothing is applied or acknowledged yet.
    expect(store.waiting.map(({ move }) => move.index)).toEqual([0]);
    expect(game.actions).toEqual([]);
    expect(acks()).toEqual([]);
    for (let index = 0; index < actions.length; index++) {
      store.waiting[index]!.settle();
      await flush();
      expect(acks()).toEqual(Array.from({ length: index + 1 }, (_, i) => i));
      expect(game.actions).toEqual(actions.slice(0, index + 1));
    }
    expect(await Promise.all(outcomes)).toEqual([undefined, undefined, undefined]);
    expect(store.loadMoveLog(game.id).actions).toEqual(actions);
  });

  it('changes nothing and acknowledges nothing when the write fails, then takes the same move again', async () => {
    const { store, games, player, game, acks } = setUp();
    const [action] = firstActions(game.deals[0]!, 1);
    const failed = games.play(player, { gameId: game.id, index: 0, action: action! });
    await flush();
    store.waiting[0]!.settle(new Error('disk gone'));
    await expect(failed).rejects.toThrow('disk gone');
    expect(game.actions).toEqual([]);
    expect(acks()).toEqual([]);
    const retried = games.play(player, { gameId: game.id, index: 0, action: action! });
    await flush();
    store.waiting[1]!.settle();
    expect(await retried).toBeUndefined();
    expect(acks()).toEqual([0]);
  });
});
