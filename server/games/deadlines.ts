/**
 * Game deadlines (a race's time limit or hard cap, the end of a daily attempt's day), stored with
 * each playing game, as one kind of the scheduler's deadlines (ports.ts): keyed by game id,
 * read from the playing games' index, and acted on by ending the game as timed out if it still
 * plays when read afresh.
 */
import { after, type DeadlineHandler, type Pending, type StoredDeadline } from '../ports.js';

export const GAME_DEADLINE = 'game-deadline';

export interface DeadlineWork {
  /** Ends the game as timed out at `deadline` if it is still playing (read afresh). */
  expire(gameId: number, deadline: number): Pending<void>;
  /** Whether the game has work in flight: its end may be being stored now, so it is left alone. */
  busy(gameId: number): boolean;
  /** The playing games that have a deadline, as stored. */
  playing(): Pending<readonly { id: number; deadline: number }[]>;
}

export const gameDeadlines = (work: DeadlineWork): DeadlineHandler => ({
  due: (key, at) => work.expire(Number(key), at),
  stored: () =>
    after(work.playing(), (games): StoredDeadline[] => games.filter(({ id }) => !work.busy(id)).map(({ id, deadline }) => ({ key: String(id), at: deadline }))),
});
