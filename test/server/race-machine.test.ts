// The race as a state machine (server/races/machine.ts), alone: the race as stored and what
// happened in; the conditional change, its effects, or a refusal out.
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../server/errors.js';
import { stepRace } from '../../server/races/machine.js';
import type { Finisher } from '../../server/standings.js';

const lobby = { code: 'ABCD', state: 'lobby' as const, creatorId: 1, closedReason: null, startsAt: null, timeLimitSeconds: null, rated: false };
const ana = { id: 1, name: 'Ana' };
const bob = { id: 2, name: 'Bob' };

const finisher = (playerId: number, state: Finisher['state'], foundations: number, finishedAt: number | null): Finisher => ({
  playerId,
  name: `P${playerId}`,
  gameId: 10 + playerId,
  state,
  foundations,
  finishedAt,
});

const refusal = (step: unknown) => {
  expect(step).toBeInstanceOf(Refusal);
  return { code: (step as Refusal).code, message: (step as Refusal).message };
};

describe('the race state machine', () => {
  it('starts a lobby of two by its creator: the countdown stored, the lobby limit ended, the deal armed, the view sent', () => {
    expect(stepRace(lobby, { type: 'start', by: 1, seated: 2, at: 1000, countdownMs: 3000 })).toEqual({
      from: 'lobby',
      change: { state: 'countdown', startsAt: 4000 },
      effects: [{ type: 'end-lobby-limit' }, { type: 'arm-deal', at: 4000 }, { type: 'broadcast' }],
    });
  });

  it('refuses a start by anyone else, of a race under way or closed, or with one racer', () => {
    expect(refusal(stepRace(lobby, { type: 'start', by: 2, seated: 2, at: 0, countdownMs: 0 }))).toEqual({
      code: 'not-creator',
      message: 'only the player who created the race can start it',
    });
    expect(refusal(stepRace({ ...lobby, state: 'countdown' }, { type: 'start', by: 1, seated: 2, at: 0, countdownMs: 0 }))).toEqual({
      code: 'not-in-lobby',
      message: 'race ABCD has already started',
    });
    expect(refusal(stepRace({ ...lobby, state: 'closed', closedReason: 'expired' }, { type: 'start', by: 1, seated: 2, at: 0, countdownMs: 0 }))).toEqual({
      code: 'race-closed',
      message: 'race ABCD is closed: it was not started in time',
    });
    expect(refusal(stepRace(lobby, { type: 'start', by: 1, seated: 1, at: 0, countdownMs: 0 }))).toMatchObject({ code: 'not-enough-racers' });
  });

  it('deals at the end of the countdown, with the time limit as every game’s deadline, or the hard cap without one', () => {
    const countdown = { ...lobby, state: 'countdown' as const, startsAt: 5000 };
    expect(stepRace({ ...countdown, timeLimitSeconds: 60 }, { type: 'deal', hardCapMs: 86_400_000, present: 1, at: 5000 })).toEqual({
      from: 'countdown',
      change: { state: 'running', capAt: null },
      effects: [{ type: 'broadcast' }],
      deal: { startedAt: 5000, capAt: null, deadline: 65_000 },
    });
    expect(stepRace(countdown, { type: 'deal', hardCapMs: 86_400_000, present: 1, at: 5000 })).toMatchObject({ deal: { startedAt: 5000, capAt: 86_405_000, deadline: 86_405_000 } });
    // Dealt already (another instance, a stale owner): nothing to do.
    expect(stepRace({ ...countdown, state: 'running' }, { type: 'deal', hardCapMs: 1, present: 1, at: 5000 })).toBeUndefined();
  });

  it('closes a rated race unrated when none of its racers is there at the deal, and deals an unrated one all the same', () => {
    const countdown = { ...lobby, state: 'countdown' as const, startsAt: 5000 };
    expect(stepRace({ ...countdown, rated: true }, { type: 'deal', hardCapMs: 1, present: 0, at: 5001 })).toEqual({
      from: 'countdown',
      change: { state: 'closed', closedReason: 'empty', finishedAt: 5001, rated: false },
      effects: [{ type: 'end-grace-periods' }, { type: 'announce', event: { kind: 'closed', player: null, at: 5001 } }, { type: 'broadcast' }],
    });
    expect(stepRace({ ...countdown, rated: true }, { type: 'deal', hardCapMs: 1, present: 1, at: 5001 })).toMatchObject({ change: { state: 'running' } });
    expect(stepRace(countdown, { type: 'deal', hardCapMs: 1, present: 0, at: 5001 })).toMatchObject({ change: { state: 'running' } });
  });

  it('finishes a running race once no game plays, ranked, at the last end, announcing race-finished', () => {
    const running = { ...lobby, state: 'running' as const, startsAt: 0 };
    const games = [finisher(1, 'resigned', 10, 9000), finisher(2, 'won', 52, 7000)];
    const step = stepRace(running, { type: 'game-ended', games });
    const standings = [
      { rank: 1, ...games[1]! },
      { rank: 2, ...games[0]! },
    ];
    expect(step).toEqual({
      from: 'running',
      change: { state: 'finished', finishedAt: 9000 },
      effects: [{ type: 'finished', standings, finishedAt: 9000 }, { type: 'broadcast' }],
      standings,
    });
  });

  it('does not finish a race while a game plays, nor one not running, nor one without games', () => {
    const running = { ...lobby, state: 'running' as const, startsAt: 0 };
    expect(stepRace(running, { type: 'game-ended', games: [finisher(1, 'won', 52, 1), finisher(2, 'playing', 3, null)] })).toBeUndefined();
    expect(stepRace({ ...running, state: 'finished' }, { type: 'game-ended', games: [finisher(1, 'won', 52, 1)] })).toBeUndefined();
    expect(stepRace(running, { type: 'game-ended', games: [] })).toBeUndefined();
  });

  it('closes a lobby, ending its deadlines and telling why', () => {
    expect(stepRace(lobby, { type: 'close', reason: 'cancelled', by: ana, at: 500 })).toEqual({
      from: 'lobby',
      change: { state: 'closed', closedReason: 'cancelled', finishedAt: 500 },
      effects: [
        { type: 'end-lobby-limit' },
        { type: 'end-grace-periods' },
        { type: 'announce', event: { kind: 'cancelled', player: ana, at: 500 } },
        { type: 'broadcast' },
      ],
    });
    expect(stepRace(lobby, { type: 'close', reason: 'expired', by: null, at: 500 })).toMatchObject({
      effects: [{ type: 'end-lobby-limit' }, { type: 'end-grace-periods' }, { type: 'announce', event: { kind: 'closed', player: null, at: 500 } }, { type: 'broadcast' }],
    });
  });

  it('lets only the creator cancel, and only a lobby', () => {
    expect(refusal(stepRace(lobby, { type: 'close', reason: 'cancelled', by: bob, at: 0 }))).toEqual({
      code: 'not-creator',
      message: 'only the creator of the race can cancel it',
    });
    expect(refusal(stepRace({ ...lobby, state: 'running' }, { type: 'close', reason: 'cancelled', by: ana, at: 0 }))).toEqual({
      code: 'not-in-lobby',
      message: 'race ABCD has started: you cannot cancel it any more',
    });
    expect(refusal(stepRace({ ...lobby, state: 'closed', closedReason: 'empty' }, { type: 'close', reason: 'expired', by: null, at: 0 }))).toEqual({
      code: 'race-closed',
      message: 'race ABCD is closed (empty)',
    });
  });
});
