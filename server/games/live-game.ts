/**
 * A game as the server holds it while it is played: its stored identity, plus what its move log
 * rebuilds (the layouts dealt, the actions, the position). Race seats, daily attempts and series
 * deals are all this; only how they are created and who listens differ.
 */
import { attemptSeed, parseLayout, replayRecord, type Layout, type Position, type VariantId } from '../../shared/index.js';
import type { AckBody, GameKind, GameSnapshot, GameState, GameStatus } from '../../contract/index.js';
import type { StoredGame } from '../ports.js';

/** A game in memory: its stored identity, plus what its move log rebuilds. */
export interface LiveGame extends Pick<StoredGame, 'id' | 'kind' | 'playerId' | 'raceId' | 'variant' | 'seed' | 'startedAt' | 'deadline' | 'ghostOf' | 'redealFrom'> {
  /** Layouts dealt so far, as makeLayout strings: deals[k] after the k-th redeal. */
  readonly deals: string[][];
  /** The move log, canonical record notation. */
  readonly actions: string[];
  position: Position;
  state: GameState;
  finishedAt: number | null;
}

export interface NewGame {
  readonly kind: GameKind;
  readonly playerId: number;
  readonly raceId?: number;
  readonly day?: string;
  readonly series?: { readonly id: number; readonly deal: number };
  /** A ghost race: the game raced against and the attempt whose redeal stream it redeals from (null: the seed's). */
  readonly ghost?: { readonly of: number; readonly redealFrom: number | null };
  readonly variant: VariantId;
  readonly seed: string;
  readonly startedAt: number;
  readonly deadline?: number | null;
}

export interface ActionRequest {
  readonly gameId: number;
  readonly index: number;
  readonly action: string;
}

export const gameStatusOf = (game: LiveGame): GameStatus => ({
  state: game.state,
  foundations: game.position.foundationCount(),
  redealsUsed: game.position.redealsUsed,
  nextIndex: game.actions.length,
  finishedAt: game.finishedAt,
});

/** The whole game as a client starts it (a deal, a resync that claims too much, a watch). */
export const snapshotOf = (game: LiveGame, raceCode: string | null): GameSnapshot => ({
  type: 'game',
  gameId: game.id,
  raceCode,
  variant: game.variant,
  deals: game.deals,
  actions: game.actions,
  startedAt: game.startedAt,
  status: gameStatusOf(game),
});

/** The ack of a stored action, identical every time it is asked for. */
export function ackOf(game: Pick<LiveGame, 'id' | 'actions' | 'deals'>, index: number): AckBody {
  const action = game.actions[index]!;
  if (action !== 'R') return { gameId: game.id, index, action };
  const k = game.actions.slice(0, index + 1).filter((text) => text === 'R').length;
  return { gameId: game.id, index, action, layout: game.deals[k]! };
}

/**
 * The seed a game's redeals come from. A daily attempt, or a series deal, redeals from its own
 * stream (the deal's seed and its game id): another identity copying its moves gets other
 * layouts, so nobody can preview, or choose among, the redeals of the day or of a friend's deal.
 * Race seats share the race seed on purpose: fair redeals, the same cards give every racer the
 * same layout. A ghost race redeals from the stream of the game it races (`redealFrom`, set when
 * it is dealt), so it is as fair as a race.
 */
export function redealSeedOf(game: Pick<LiveGame, 'kind' | 'id' | 'seed' | 'redealFrom'>): string {
  switch (game.kind) {
    case 'race':
      return game.seed;
    case 'ghost':
      return game.redealFrom === null ? game.seed : attemptSeed(game.seed, game.redealFrom);
    case 'daily':
    case 'series':
      return attemptSeed(game.seed, game.id);
  }
}

/** The attempt whose redeal stream a ghost race of `game` redeals from (null: the seed's own stream). */
export function redealStreamOf(game: Pick<LiveGame, 'kind' | 'id' | 'redealFrom'>): number | null {
  switch (game.kind) {
    case 'race':
      return null;
    case 'ghost':
      return game.redealFrom;
    case 'daily':
    case 'series':
      return game.id;
  }
}

/** A stored layout (deals[k] of a game), read back; the server wrote it, so a failure is a fault. */
export function storedLayout(deal: readonly string[], k: number): Layout {
  const layout = parseLayout(deal);
  if (!layout.ok) throw new Error(`stored deal ${k} is unreadable: ${layout.error}`);
  return layout.value;
}

/** The position a stored move log leads to; a log that does not replay is a fault. */
export function replayed(variant: VariantId, deals: readonly string[][], actions: readonly string[]): Position {
  const replay = replayRecord({ variant, deals: deals.map(storedLayout), actions });
  if (!replay.ok) throw new Error(`stored move log does not replay: ${JSON.stringify(replay.error)}`);
  return replay.value;
}
