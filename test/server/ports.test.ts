// The storage port with a store that answers later (as a networked database does), in every
// call: creating, loading, appending, ending. A game's work still happens in order, each move is
// acknowledged only once its write has resolved, a failed write changes nothing, a game being
// loaded is loaded once, and shutdown waits for what is in flight. The SQLite store, for its
// part, answers every call in the same turn, except the moves after the first of a turn: it
// commits those together once the turn is over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../contract/index.js';
import { makeAction, Position } from '../../shared/index.js';
import { sqliteStorage } from '../../server/db/storage.js';
import { closeDatabase, openDatabase, type Db } from '../../server/db/index.js';
import { players } from '../../server/db/schema.js';
import { DomainEvents } from '../../server/events.js';
import { GAME_DEADLINE } from '../../server/games/deadlines.js';
import { DeadlineScheduler } from '../../server/scale/scheduler.js';
import { GameService } from '../../server/games/service.js';
import type { GameStore, MoveLog, Pending, Transport } from '../../server/ports.js';
import { homeFirst, layoutOf, ManualClock, unwrap } from './helpers.js';

interface Call {
  readonly name: string;
  readonly args: unknown;
  settle(error?: Error): void;
}

/** SQLite underneath, but every call answers (or fails) only when the test says so. */
class LaterStore implements GameStore {
  readonly waiting: Call[] = [];
  readonly calls: string[] = [];
  readonly inner: GameStore;
  constructor(db: Db) {
    this.inner = sqliteStorage(db).games;
  }
  createGames: GameStore['createGames'] = (rows, starts) => this.later('createGames', rows, () => this.inner.createGames(rows, starts));
  loadGame: GameStore['loadGame'] = (id) => this.later('loadGame', id, () => this.inner.loadGame(id));
  loadMoveLog: GameStore['loadMoveLog'] = (id) => this.later('loadMoveLog', id, () => this.inner.loadMoveLog(id));
  playingGameIds: GameStore['playingGameIds'] = () => this.later('playingGameIds', null, () => this.inner.playingGameIds());
  appendMove: GameStore['appendMove'] = (move) => this.later('appendMove', move.index, () => this.inner.appendMove(move));
  endGame: GameStore['endGame'] = (end) => this.later('endGame', end.status, () => this.inner.endGame(end));
  storageFailure: GameStore['storageFailure'] = (error) => this.inner.storageFailure(error);
  isDuplicate: GameStore['isDuplicate'] = (error) => this.inner.isDuplicate(error);

  /** The calls waiting, named. */
  pending(): string[] {
    return this.waiting.map((call) => `${call.name} ${String(call.args)}`);
  }

  /** Answers the oldest waiting call (with `error`: fails it) and lets its continuations run. */
  async answer(error?: Error): Promise<void> {
    const call = this.waiting.shift();
    if (!call) throw new Error('no call is waiting');
    call.settle(error);
    await flush();
  }

  /** Answers every call, including those the answers lead to, until none is waiting. */
  async answerAll(): Promise<void> {
    for (let rounds = 0; rounds < 1000 && this.waiting.length > 0; rounds++) await this.answer();
  }

  private later<T>(name: string, args: unknown, run: () => Pending<T>): Promise<T> {
    this.calls.push(name);
    return new Promise<T>((resolve, reject) =>
      this.waiting.push({
        name,
        args: Array.isArray(args) ? args.length : args,
        settle: (error) => {
          if (error) return reject(error);
          try {
            resolve(run());
          } catch (failure) {
            reject(failure);
          }
        },
      }),
    );
  }
}

/** A listener that throws fails the test. */
const fail = (error: unknown): never => {
  throw error;
};
const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
let db: Db | undefined;
afterEach(async () => {
  if (db) await closeDatabase(db);
  db = undefined;
});

function openStore() {
  db = openDatabase(':memory:');
  const player = db.insert(players).values({ name: 'Ana', createdAt: 0 }).returning({ id: players.id, name: players.name }).get();
  return { db, player };
}

function serviceOn(store: GameStore, clock = new ManualClock()) {
  const sent: ServerMessage[] = [];
  const record = (_to: unknown, message: ServerMessage) => void sent.push(message);
  const transport: Transport = { toPlayer: record, toPlayerNow: record, toRace: record, isConnected: () => true, onPresence: () => {}, closeDevice: () => {} };
  // Alone: this instance runs every deadline, on the test's clock.
  const scheduler = new DeadlineScheduler(clock, { log: silent, failure: () => undefined, retryMs: 1000, notify() {} });
  scheduler.clock.owner = true;
  const games = new GameService({ store, transport, clock, log: silent, events: new DomainEvents(fail), scheduler, othersWrite: false });
  scheduler.handle(GAME_DEADLINE, games.deadlineHandler(() => []));
  return { games, sent, acks: () => sent.filter((message) => message.type === 'ack').map((ack) => ack.index) };
}

async function setUp() {
  const { db, player } = openStore();
  const store = new LaterStore(db);
  const service = serviceOn(store);
  const creating = service.games.create([{ kind: 'race', playerId: player.id, variant: 'strict', seed: 'ports-1', startedAt: 0 }]);
  await store.answer();
  const [game] = await creating;
  return { store, player, game: game!, ...service };
}

/** The first `count` actions `homeFirst` plays from the game's deal (none is a redeal). */
function firstActions(deal: readonly string[], count: number): string[] {
  const position = unwrap(Position.start('strict', layoutOf(deal)));
  return Array.from({ length: count }, () => {
    const action = homeFirst(position)!;
    position.play(action);
    return makeAction(action);
  });
}

const storedActions = (store: LaterStore, gameId: number) => (store.inner.loadMoveLog(gameId) as MoveLog).actions;

describe('GameService on a store that answers later', () => {
  it('creates games only once the store has: nothing is dealt to memory before', async () => {
    const { db, player } = openStore();
    const store = new LaterStore(db);
    const { games } = serviceOn(store);
    const creating = games.create([{ kind: 'race', playerId: player.id, variant: 'strict', seed: 'ports-1', startedAt: 0 }]);
    expect(creating).toBeInstanceOf(Promise);
    await flush();
    expect(store.pending()).toEqual(['createGames 1']);
    expect(games.live(1)).toBeUndefined();
    await store.answer();
    const [game] = await creating;
    expect(game!.id).toBe(1);
    expect(games.live(1)).toBe(game);
  });

  it('applies, stores and acknowledges a game’s moves one at a time, in order, each after its write', async () => {
    const { store, games, player, game, acks } = await setUp();
    const actions = firstActions(game.deals[0]!, 3);
    const outcomes = actions.map((action, index) => games.play(player, { gameId: game.id, index, action }));
    expect(outcomes.every((outcome) => outcome instanceof Promise)).toBe(true);
    await flush();
    // Only the first write is in flight; nothing is applied or acknowledged yet.
    expect(store.pending()).toEqual(['appendMove 0']);
    expect(game.actions).toEqual([]);
    expect(acks()).toEqual([]);
    for (let index = 0; index < actions.length; index++) {
      await store.answer();
      expect(acks()).toEqual(Array.from({ length: index + 1 }, (_, i) => i));
      expect(game.actions).toEqual(actions.slice(0, index + 1));
    }
    expect(await Promise.all(outcomes)).toEqual([undefined, undefined, undefined]);
    expect(storedActions(store, game.id)).toEqual(actions);
  });

  it('changes nothing and acknowledges nothing when the write fails, then takes the same move again', async () => {
    const { store, games, player, game, acks } = await setUp();
    const [action] = firstActions(game.deals[0]!, 1);
    const failed = games.play(player, { gameId: game.id, index: 0, action: action! });
    await flush();
    await store.answer(new Error('disk gone'));
    await expect(failed).rejects.toThrow('disk gone');
    expect(game.actions).toEqual([]);
    expect(acks()).toEqual([]);
    const retried = games.play(player, { gameId: game.id, index: 0, action: action! });
    await flush();
    await store.answer();
    expect(await retried).toBeUndefined();
    expect(acks()).toEqual([0]);
  });

  it('loads a game not in memory once, and plays the moves sent meanwhile in order after the load', async () => {
    const { store, player, game } = await setUp();
    const actions = firstActions(game.deals[0]!, 2);
    // Another process (or this one after a restart) holds the game only in the store.
    const other = serviceOn(store);
    const outcomes = actions.map((action, index) => other.games.play(player, { gameId: game.id, index, action }));
    const watching = other.games.get(game.id);
    await flush();
    expect(store.pending()).toEqual([`loadGame ${game.id}`]);
    await store.answer();
    expect(store.pending()).toEqual([`loadMoveLog ${game.id}`]);
    await store.answer();
    expect(store.pending()).toEqual(['appendMove 0']);
    await store.answerAll();
    expect(await Promise.all(outcomes)).toEqual([undefined, undefined]);
    expect(other.acks()).toEqual([0, 1]);
    expect(store.calls.filter((name) => name === 'loadGame')).toHaveLength(1);
    expect(await watching).toBe(other.games.live(game.id));
    expect(storedActions(store, game.id)).toEqual(actions);
  });

  it('answers unknown-game after the load finds nothing', async () => {
    const { store, games, player } = await setUp();
    const outcome = games.play(player, { gameId: 99, index: 0, action: 'x' });
    await store.answerAll();
    expect((await outcome)?.code).toBe('unknown-game');
  });

  it('keeps a resignation behind the move in flight, and refuses the moves behind the resignation', async () => {
    const { store, games, player, game, sent } = await setUp();
    const [first, second] = firstActions(game.deals[0]!, 2);
    const move = games.play(player, { gameId: game.id, index: 0, action: first! });
    const resign = games.resign(player, game.id);
    const late = games.play(player, { gameId: game.id, index: 1, action: second! });
    await flush();
    expect(store.pending()).toEqual(['appendMove 0']);
    await store.answer();
    expect(store.pending()).toEqual(['endGame resigned']);
    expect(game.state).toBe('playing');
    await store.answer();
    expect(await move).toBeUndefined();
    expect(await resign).toBeUndefined();
    // A finished game leaves memory: the late move reads it back from the store, then is refused.
    expect(store.pending()).toEqual([`loadGame ${game.id}`]);
    await store.answerAll();
    expect((await late)?.code).toBe('game-over');
    expect(game.state).toBe('resigned');
    expect(sent.filter((message) => message.type === 'game-over')).toHaveLength(1);
    expect(storedActions(store, game.id)).toEqual([first]);
  });

  it('rebuilds the playing games at start and ends the one whose deadline passed while it was down', async () => {
    const { store, player, game } = await setUp();
    const clock = new ManualClock();
    const creating = serviceOn(store, clock).games.create([{ kind: 'race', playerId: player.id, variant: 'strict', seed: 'ports-2', startedAt: 0, deadline: clock.now() - 1 }]);
    await store.answer();
    const [expired] = await creating;
    const restarted = serviceOn(store, clock);
    const loading = restarted.games.loadPlaying();
    expect(loading).toBeInstanceOf(Promise);
    await store.answerAll();
    await loading;
    // Its time-out fires at once and is stored.
    clock.advance(0);
    await store.answerAll();
    expect(restarted.games.live(game.id)?.state).toBe('playing');
    expect(restarted.games.live(expired!.id)).toBeUndefined();
    expect(store.inner.loadGame(expired!.id)).toMatchObject({ status: 'timed-out' });
  });

  it('settles every write in flight before shutdown lets the store close', async () => {
    const { store, games, player, game, acks } = await setUp();
    const [action] = firstActions(game.deals[0]!, 1);
    void games.play(player, { gameId: game.id, index: 0, action: action! });
    games.close();
    let settled = false;
    const closing = games.settled().then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    await store.answer();
    await closing;
    expect(acks()).toEqual([0]);
    expect(storedActions(store, game.id)).toEqual([action]);
  });
});

describe('GameService on SQLite', () => {
  it('answers every call in the same turn, a move included when it is the first of its turn', () => {
    const { db, player } = openStore();
    const { games, acks } = serviceOn(sqliteStorage(db).games);
    const created = games.create([{ kind: 'race', playerId: player.id, variant: 'strict', seed: 'ports-1', startedAt: 0 }]);
    expect(Array.isArray(created)).toBe(true);
    const [game] = created as ReturnType<GameService['live']>[];
    const [action] = firstActions(game!.deals[0]!, 1);
    expect(games.play(player, { gameId: game!.id, index: 0, action: action! })).toBeUndefined();
    expect(acks()).toEqual([0]);
    expect(games.resign(player, game!.id)).toBeUndefined();
    expect(games.get(game!.id)).toMatchObject({ state: 'resigned', actions: [action] });
    expect(games.loadPlaying()).toBeUndefined();
  });

  it('commits the moves after the first of a turn together, and acknowledges each only after that commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-group-commit-'));
    try {
      // SQLite's own checkpoint off, so the log keeps every frame written: one commit writes each page it changed once.
      db = openDatabase(dir, { checkpoints: 'auto' });
      db.$client.pragma('wal_autocheckpoint = 0');
      const player = db.insert(players).values({ name: 'Ana', createdAt: 0 }).returning({ id: players.id, name: players.name }).get();
      const store = sqliteStorage(db).games;
      const { games, acks } = serviceOn(store);
      const seats = games.create(['a', 'b', 'c', 'd'].map((seed) => ({ kind: 'race' as const, playerId: player.id, variant: 'strict' as const, seed: `ports-${seed}`, startedAt: 0 })));
      const created = seats as NonNullable<ReturnType<GameService['live']>>[];
      const stored = () => created.map((game) => (store.loadMoveLog(game.id) as MoveLog).actions.length);
      // Frames written since the last call: the checkpoint copies them all, so the next commit starts the log over.
      const frames = () => (db!.$client.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
      await flush();
      frames();

      // Four moves in one turn: the first is stored and acknowledged at once, the other three only once the turn is over.
      const turn = created.map((game) => games.play(player, { gameId: game.id, index: 0, action: firstActions(game.deals[0]!, 1)[0]! }));
      expect(turn.map((outcome) => outcome instanceof Promise)).toEqual([false, true, true, true]);
      expect(acks()).toEqual([0]);
      expect(stored()).toEqual([1, 0, 0, 0]);
      expect(await Promise.all(turn)).toEqual([undefined, undefined, undefined, undefined]);
      expect(acks()).toEqual([0, 0, 0, 0]);
      expect(stored()).toEqual([1, 1, 1, 1]);
      // Two commits, each writing one page: the move log's (a move leaves its game's row alone).
      expect(frames()).toBe(2);

      // The four next moves, one per turn: a commit each.
      for (const game of created) {
        await flush();
        expect(games.play(player, { gameId: game.id, index: 1, action: firstActions(game.deals[0]!, 2)[1]! })).toBeUndefined();
      }
      expect(frames()).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses only the move whose index another process took, and stores the rest of its turn', async () => {
    const { db, player } = openStore();
    const store = sqliteStorage(db).games;
    const { games, acks } = serviceOn(store);
    const specs = ['e', 'f', 'g'].map((seed) => ({ kind: 'race' as const, playerId: player.id, variant: 'strict' as const, seed: `ports-${seed}`, startedAt: 0 }));
    const [first, taken, last] = games.create(specs) as NonNullable<ReturnType<GameService['live']>>[];
    // Two different legal first actions of the second game: the player sends one, another writer stored the other.
    const [sent, other] = unwrap(Position.start('strict', layoutOf(taken!.deals[0]!))).legalActions().map(makeAction);
    const turn = [
      games.play(player, { gameId: first!.id, index: 0, action: firstActions(first!.deals[0]!, 1)[0]! }),
      games.play(player, { gameId: taken!.id, index: 0, action: sent! }),
      games.play(player, { gameId: last!.id, index: 0, action: firstActions(last!.deals[0]!, 1)[0]! }),
    ];
    // Before the turn's group commit, another writer on the file stores its action at index 0 of the second game.
    db.$client.prepare('insert into game_actions (game_id, action_index, action, at) values (?, 0, ?, 0)').run(taken!.id, other!);
    const [played, refused, playedToo] = await Promise.all(turn);
    expect([played, playedToo]).toEqual([undefined, undefined]);
    expect(refused).toMatchObject({ code: 'index-conflict', field: 'index', nextIndex: 1 });
    expect(acks()).toEqual([0, 0]);
    expect([first, taken, last].map((game) => (store.loadMoveLog(game!.id) as MoveLog).actions)).toEqual([
      [firstActions(first!.deals[0]!, 1)[0]],
      [other],
      [firstActions(last!.deals[0]!, 1)[0]],
    ]);
  });
});
