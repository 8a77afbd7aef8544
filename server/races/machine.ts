/**
 * A race as a state machine: lobby → countdown → running → finished, and a lobby → closed
 * (cancelled, expired, or empty). `stepRace` holds the rules and nothing else: given the race as
 * stored and what happened, it answers the stored change to make (conditional on the race still
 * being in `from`, so of two instances only one makes it) and the effects that follow it, or a
 * refusal. The effects are run by races/effects.ts once the change is stored.
 */
import type { ClosedReason, GameState, PlayerView, RaceEvent, RaceState, StandingView } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import { rankStandings, type Finisher } from '../standings.js';
import type { RaceRow } from '../stores.js';

/** What happened to a race. */
export type RaceCommand =
  /** Its creator starts the lobby: the countdown begins. */
  | { readonly type: 'start'; readonly by: number; readonly seated: number; readonly at: number; readonly countdownMs: number }
  /** The countdown is over: every racer's game is dealt (`present`: how many of them have a socket open). */
  | { readonly type: 'deal'; readonly hardCapMs: number; readonly present: number; readonly at: number }
  /** A game of the race ended: the race finishes once none plays. */
  | { readonly type: 'game-ended'; readonly games: readonly Finisher[] }
  /** The lobby closes: its creator cancels it, its limit passed, or its last racer left. */
  | { readonly type: 'close'; readonly reason: ClosedReason; readonly by: PlayerView | null; readonly at: number };

export type RaceEffect =
  /** The deal, due at the end of the countdown. */
  | { readonly type: 'arm-deal'; readonly at: number }
  /** The lobby's limit no longer applies. */
  | { readonly type: 'end-lobby-limit' }
  /** Nobody's grace period in the lobby matters any more. */
  | { readonly type: 'end-grace-periods' }
  | { readonly type: 'announce'; readonly event: RaceEvent }
  /** The race-finished domain event, with the standings stored. */
  | { readonly type: 'finished'; readonly standings: readonly StandingView[]; readonly finishedAt: number }
  /** The new race view to its watchers. */
  | { readonly type: 'broadcast' };

export interface RaceStep {
  readonly from: RaceState;
  /** The stored fields that change (a deal stores its games, and the race running, in one write). */
  readonly change: Partial<Pick<RaceRow, 'state' | 'startsAt' | 'closedReason' | 'finishedAt' | 'capAt' | 'rated'>>;
  readonly effects: readonly RaceEffect[];
  /** A deal's games: when they start and stop by themselves. */
  readonly deal?: { readonly startedAt: number; readonly capAt: number | null; readonly deadline: number };
  readonly standings?: readonly StandingView[];
}

type RaceFacts = Pick<RaceRow, 'code' | 'state' | 'creatorId' | 'closedReason' | 'startsAt' | 'timeLimitSeconds' | 'rated'>;

const CLOSED_WORDS = {
  cancelled: 'its creator cancelled it',
  expired: 'it was not started in time',
  empty: 'everyone left it',
} as const;

export const closedRefusal = (race: Pick<RaceRow, 'code' | 'closedReason'>): Refusal =>
  new Refusal('race-closed', `race ${race.code} is closed: ${CLOSED_WORDS[race.closedReason ?? 'empty']}`, { params: { race: race.code, reason: race.closedReason ?? 'empty' } });

/** Refused unless the race is a lobby: `what` is what a racer wanted to do to it. */
export function lobbyRefusal(race: Pick<RaceRow, 'code' | 'state' | 'closedReason'>, what: string): Refusal | undefined {
  if (race.state === 'closed') return new Refusal('race-closed', `race ${race.code} is closed (${race.closedReason})`, { params: { race: race.code, reason: race.closedReason ?? 'empty' } });
  if (race.state !== 'lobby') return new Refusal('not-in-lobby', `race ${race.code} has started: you cannot ${what} it any more`, { params: { race: race.code } });
  return undefined;
}

const stillPlaying = (state: GameState): boolean => state === 'playing';

/** The step `command` makes from `race`; undefined when it changes nothing (a race not done yet, a deal already made). */
export function stepRace(race: RaceFacts, command: RaceCommand): RaceStep | Refusal | undefined {
  switch (command.type) {
    case 'start': {
      if (race.state === 'closed') return closedRefusal(race);
      if (race.creatorId !== command.by) return new Refusal('not-creator', 'only the player who created the race can start it', { params: { race: race.code } });
      if (race.state !== 'lobby') return new Refusal('not-in-lobby', `race ${race.code} has already started`, { params: { race: race.code } });
      if (command.seated < 2) return new Refusal('not-enough-racers', 'a race needs at least 2 racers: share the link first', { params: { race: race.code, limit: 2 } });
      const startsAt = command.at + command.countdownMs;
      return {
        from: 'lobby',
        change: { state: 'countdown', startsAt },
        effects: [{ type: 'end-lobby-limit' }, { type: 'arm-deal', at: startsAt }, { type: 'broadcast' }],
      };
    }
    case 'deal': {
      if (race.state !== 'countdown') return undefined;
      // A rated race all of whose racers left before the deal is nobody's result: closed, unrated.
      if (race.rated && command.present === 0) {
        return {
          from: 'countdown',
          change: { state: 'closed', closedReason: 'empty', finishedAt: command.at, rated: false },
          effects: [{ type: 'end-grace-periods' }, { type: 'announce', event: { kind: 'closed', player: null, at: command.at } }, { type: 'broadcast' }],
        };
      }
      const startedAt = race.startsAt!;
      // No race waits forever: without a time limit the hard cap stops it.
      const capAt = race.timeLimitSeconds === null ? startedAt + command.hardCapMs : null;
      const deadline = capAt ?? startedAt + race.timeLimitSeconds! * 1000;
      return { from: 'countdown', change: { state: 'running', capAt }, effects: [{ type: 'broadcast' }], deal: { startedAt, capAt, deadline } };
    }
    case 'game-ended': {
      if (race.state !== 'running' || command.games.length === 0 || command.games.some((game) => stillPlaying(game.state))) return undefined;
      const finishedAt = Math.max(...command.games.map((game) => game.finishedAt ?? 0));
      const standings = rankStandings(command.games);
      return {
        from: 'running',
        change: { state: 'finished', finishedAt },
        effects: [{ type: 'finished', standings, finishedAt }, { type: 'broadcast' }],
        standings,
      };
    }
    case 'close': {
      if (command.reason === 'cancelled' && race.creatorId !== command.by?.id) return new Refusal('not-creator', 'only the creator of the race can cancel it', { params: { race: race.code } });
      const refused = lobbyRefusal(race, 'cancel');
      if (refused) return refused;
      return {
        from: 'lobby',
        change: { state: 'closed', closedReason: command.reason, finishedAt: command.at },
        effects: [
          { type: 'end-lobby-limit' },
          { type: 'end-grace-periods' },
          { type: 'announce', event: { kind: command.reason === 'cancelled' ? 'cancelled' : 'closed', player: command.by, at: command.at } },
          { type: 'broadcast' },
        ],
      };
    }
  }
}
