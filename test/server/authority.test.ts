// The move authority alone (server/games/authority.ts): a game, a request, the time and a dealer
// in; the write and its ack, the ack of a stored action, or a refusal out. No store, no clock.
import { describe, expect, it, vi } from 'vitest';
import { dealLayout, makeAction, makeLayout, redealLayout, type Card } from '../../shared/index.js';
import { Refusal } from '../../server/errors.js';
import { decideMove, seededDealer, type AuthorityGame, type Dealer } from '../../server/games/authority.js';
import { replayed } from '../../server/games/live-game.js';
import { dailySeed } from '../../server/daily.js';
import { rankKey } from '../../server/standings.js';
import { homeFirst, TEST_DAILY_SECRET } from './helpers.js';

const SEED = 'authority-1';
// Deal 0 of SEED on strict: its first legal moves are 2>F 4>17 5>F 7>F 8>3 15>16 17>10 R.
const DEAL = makeLayout(dealLayout(SEED, 'strict'));
const STARTED_AT = 1_000;
const NOW = 61_000;

function gameOf(actions: string[] = [], state: AuthorityGame['state'] = 'playing', seed = SEED): AuthorityGame {
  const deals = [makeLayout(dealLayout(seed, 'strict'))];
  return { id: 7, kind: 'race', seed, redealFrom: null, startedAt: STARTED_AT, deals, actions, position: replayed('strict', deals, actions), state };
}

const noDealer: Dealer = () => {
  throw new Error('no redeal expected');
};

const refusal = (decision: unknown) => {
  expect(decision).toBeInstanceOf(Refusal);
  const { code, message, field, nextIndex } = decision as Refusal;
  return { code, message, field, nextIndex };
};

describe('the move authority', () => {
  it('answers a legal move with its write, its ack and the position after it, leaving the game as it was', () => {
    const game = gameOf();
    const decision = decideMove(game, { gameId: 7, index: 0, action: '2>F' }, NOW, noDealer);
    expect(decision).not.toBeInstanceOf(Refusal);
    if (decision instanceof Refusal || decision.kind !== 'write') throw new Error('a write was expected');
    expect(decision.move).toEqual({ gameId: 7, index: 0, action: '2>F', at: NOW, counts: { foundations: 1, redealsUsed: 0, moves: 1 } });
    expect(decision.ack).toEqual({ type: 'ack', gameId: 7, index: 0, action: '2>F' });
    expect(decision.state).toBe('playing');
    expect(decision.position.foundationCount()).toBe(1);
    // Pure: nothing of the game changed, the store decides whether it ever does.
    expect(game.position.foundationCount()).toBe(0);
    expect(game.actions).toEqual([]);
  });

  it('acknowledges again an action already stored at that index, and writes nothing', () => {
    const decision = decideMove(gameOf(['2>F', '5>F']), { gameId: 7, index: 1, action: '5>F' }, NOW, noDealer);
    expect(decision).toEqual({ kind: 'stored-already', ack: { gameId: 7, index: 1, action: '5>F' } });
  });

  it('acknowledges a stored action again even once the game is over', () => {
    const decision = decideMove(gameOf(['2>F'], 'resigned'), { gameId: 7, index: 0, action: '2>F' }, NOW, noDealer);
    expect(decision).toEqual({ kind: 'stored-already', ack: { gameId: 7, index: 0, action: '2>F' } });
  });

  it('refuses another action at a stored index as a conflict naming the stored one', () => {
    expect(refusal(decideMove(gameOf(['2>F']), { gameId: 7, index: 0, action: '5>F' }, NOW, noDealer))).toEqual({
      code: 'index-conflict',
      message: 'action 0 of this game is already "2>F"; the next action is number 1',
      field: 'index',
      nextIndex: 1,
    });
  });

  it('refuses an action ahead of the game', () => {
    expect(refusal(decideMove(gameOf(['2>F']), { gameId: 7, index: 3, action: '5>F' }, NOW, noDealer))).toEqual({
      code: 'index-ahead',
      message: 'action 3 is ahead of this game: the next action is number 1 (resync first)',
      field: 'index',
      nextIndex: 1,
    });
  });

  it('refuses any new action on a game that is over, before looking at the action', () => {
    expect(refusal(decideMove(gameOf(['2>F'], 'timed-out'), { gameId: 7, index: 1, action: 'nonsense' }, NOW, noDealer))).toEqual({
      code: 'game-over',
      message: 'game 7 is over (timed-out): no more actions',
      field: 'gameId',
      nextIndex: 1,
    });
  });

  it('refuses an action it cannot read, naming the field', () => {
    const answer = refusal(decideMove(gameOf(), { gameId: 7, index: 0, action: '2>' }, NOW, noDealer));
    expect(answer).toMatchObject({ code: 'illegal-action', field: 'action', nextIndex: 0 });
  });

  it('refuses a move the rules forbid, quoting it with the rule it breaks', () => {
    const answer = refusal(decideMove(gameOf(), { gameId: 7, index: 0, action: '1>F' }, NOW, noDealer));
    expect(answer).toMatchObject({ code: 'illegal-action', field: 'action', nextIndex: 0 });
    expect(answer.message.startsWith('"1>F": ')).toBe(true);
    expect(answer.message.length).toBeGreaterThan('"1>F": '.length);
  });

  it('deals a redeal with the dealer it is given, from the cards gathered off the tableau, and stores that deal', () => {
    const game = gameOf();
    const asked: { redeal: number; gathered: number }[] = [];
    const dealer: Dealer = (dealt, redeal, gathered: Card[]) => {
      asked.push({ redeal, gathered: gathered.length });
      expect(dealt).toBe(game);
      return redealLayout('a-fixed-stream', redeal, gathered);
    };
    const decision = decideMove(game, { gameId: 7, index: 0, action: 'R' }, NOW, dealer);
    if (decision instanceof Refusal || decision.kind !== 'write') throw new Error('a write was expected');
    expect(asked).toEqual([{ redeal: 1, gathered: 52 }]);
    const layout = makeLayout(redealLayout('a-fixed-stream', 1, game.position.gatheredCards()));
    expect(decision.move).toEqual({ gameId: 7, index: 0, action: 'R', at: NOW, deal: { k: 1, layout }, counts: { foundations: 0, redealsUsed: 1, moves: 1 } });
    expect(decision.ack).toEqual({ type: 'ack', gameId: 7, index: 0, action: 'R', layout });
  });

  it('deals nothing for a redeal the rules forbid', () => {
    // Strict allows two redeals: a third is refused before any layout is dealt.
    let game = gameOf();
    for (const index of [0, 1]) {
      const decision = decideMove(game, { gameId: 7, index, action: 'R' }, NOW, seededDealer);
      if (decision instanceof Refusal || decision.kind !== 'write') throw new Error('a write was expected');
      game = { ...game, deals: [...game.deals, decision.move.deal!.layout], actions: [...game.actions, 'R'], position: decision.position };
    }
    const dealer = vi.fn(noDealer);
    expect(refusal(decideMove(game, { gameId: 7, index: 2, action: 'R' }, NOW, dealer))).toMatchObject({ code: 'illegal-action', field: 'action', nextIndex: 2 });
    expect(dealer).not.toHaveBeenCalled();
  });

  it('a race seat redeals from the race seed, an attempt from its own stream', () => {
    const race = gameOf();
    const gathered = race.position.gatheredCards();
    expect(seededDealer(race, 1, gathered)).toEqual(redealLayout(SEED, 1, gathered));
    expect(seededDealer({ ...race, kind: 'daily' }, 1, gathered)).not.toEqual(redealLayout(SEED, 1, gathered));
  });

  it('stores the result and the rank key with the move that wins the game', () => {
    // homeFirst wins this daily deal in 67 actions without a redeal (test/server/helpers.ts).
    const seed = dailySeed(TEST_DAILY_SECRET, '2026-11-29');
    let game = gameOf([], 'playing', seed);
    for (let action = homeFirst(game.position); game.actions.length < 66; action = homeFirst(game.position)) {
      game = { ...game, actions: [...game.actions, makeAction(action!)], position: replayed('strict', game.deals, [...game.actions, makeAction(action!)]) };
    }
    const last = makeAction(homeFirst(game.position)!);
    const decision = decideMove(game, { gameId: 7, index: 66, action: last }, NOW, noDealer);
    if (decision instanceof Refusal || decision.kind !== 'write') throw new Error('a write was expected');
    expect(decision.state).toBe('won');
    expect(decision.move.result).toEqual({ status: 'won', finishedAt: NOW, rankKey: rankKey(52, NOW - STARTED_AT) });
    expect(decision.move.counts).toEqual({ foundations: 52, redealsUsed: 0, moves: 67 });
  });
});
