/**
 * The move authority: given a game, a request, the time and the dealer, decides what happens —
 * the write to make and the ack it earns, the ack of an action stored already, or a refusal. It
 * is pure: it reads the game and changes nothing, so the service stores the write first and
 * applies it to memory only once stored, and tests pin every outcome without a store.
 */
import { makeAction, makeLayout, parseAction, problemText, redealLayout, type Card, type Layout, type Position } from '../../shared/index.js';
import type { AckBody, GameState, ServerMessageOf } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import type { MoveWrite } from '../ports.js';
import { rankKey } from '../standings.js';
import { ackOf, redealSeedOf, type ActionRequest, type LiveGame } from './live-game.js';

/** What the authority reads of a game. */
export type AuthorityGame = Pick<LiveGame, 'id' | 'kind' | 'seed' | 'redealFrom' | 'startedAt' | 'deals' | 'actions' | 'position' | 'state'>;

/** Deals the layout of redeal number `redeal` (1 for the first) from the cards gathered off the tableau. */
export type Dealer = (game: AuthorityGame, redeal: number, gathered: Card[]) => Layout;

/** The production dealer: a race's seats redeal alike, an attempt from its own stream (live-game.ts). */
export const seededDealer: Dealer = (game, redeal, gathered) => redealLayout(redealSeedOf(game), redeal, gathered);

export type MoveDecision =
  /** The same action at an index stored already (a resend): acknowledged again, nothing written. */
  | { readonly kind: 'stored-already'; readonly ack: AckBody }
  /** A new action: store `move`, then the game is `position` in `state` and the player gets `ack`. */
  | { readonly kind: 'write'; readonly move: MoveWrite; readonly position: Position; readonly state: GameState; readonly ack: ServerMessageOf<'ack'> }
  | Refusal;

export function decideMove(game: AuthorityGame, request: ActionRequest, now: number, dealer: Dealer): MoveDecision {
  const nextIndex = game.actions.length;
  const parsed = parseAction(request.action);
  if (request.index < nextIndex) {
    const stored = game.actions[request.index]!;
    if (parsed.ok && makeAction(parsed.value) === stored) return { kind: 'stored-already', ack: ackOf(game, request.index) };
    const message = `action ${request.index} of this game is already "${stored}"; the next action is number ${nextIndex}`;
    return new Refusal('index-conflict', message, { field: 'index', nextIndex, params: { index: request.index, stored, next: nextIndex } });
  }
  if (game.state !== 'playing') {
    const message = `game ${game.id} is over (${game.state}): no more actions`;
    return new Refusal('game-over', message, { field: 'gameId', nextIndex, params: { game: game.id, state: game.state } });
  }
  if (request.index > nextIndex) {
    const message = `action ${request.index} is ahead of this game: the next action is number ${nextIndex} (resync first)`;
    return new Refusal('index-ahead', message, { field: 'index', nextIndex, params: { index: request.index, next: nextIndex } });
  }
  if (!parsed.ok) return new Refusal('illegal-action', problemText(parsed.error), { field: 'action', nextIndex, params: { action: request.action, problem: parsed.error } });
  const action = parsed.value;
  let nextLayout: Layout | undefined;
  if (action.type === 'redeal' && game.position.problem(action) === undefined) {
    nextLayout = dealer(game, game.position.redealsUsed + 1, game.position.gatheredCards());
  }
  const problem = game.position.problem(action, nextLayout);
  if (problem !== undefined) {
    return new Refusal('illegal-action', `"${request.action}": ${problemText(problem)}`, { field: 'action', nextIndex, params: { action: request.action, problem } });
  }

  const position = game.position.clone();
  position.play(action, nextLayout);
  const status = position.status();
  const state: GameState = status.won ? 'won' : status.over ? 'out-of-moves' : 'playing';
  const text = makeAction(action);
  const layout = nextLayout && makeLayout(nextLayout);
  const move: MoveWrite = {
    gameId: game.id,
    index: nextIndex,
    action: text,
    at: now,
    ...(layout && { deal: { k: position.redealsUsed, layout } }),
    counts: { foundations: status.foundations, redealsUsed: status.redealsUsed, moves: nextIndex + 1 },
    ...(state !== 'playing' && { result: { status: state, finishedAt: now, rankKey: rankKey(status.foundations, now - game.startedAt) } }),
  };
  const ack: ServerMessageOf<'ack'> = { type: 'ack', gameId: game.id, index: nextIndex, action: text, ...(layout && { layout }) };
  return { kind: 'write', move, position, state, ack };
}
