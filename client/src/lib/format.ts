import { dayStart, RACE_CODE_IN_TEXT, type GameState, type ProgressStatus } from './contract.js';

/** `4:07` or `1:02:03`: a duration in minutes and seconds; with `tenths`, `4:07.3` (ranked times, where ties are close). */
export function duration(ms: number, tenths = false): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0') + (tenths ? `.${Math.floor((Math.max(0, ms) % 1000) / 100)}` : '');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A server message as a sentence: `you have played…` → `You have played…`. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const STATUS_TEXT: { readonly [status in ProgressStatus]: string } = {
  playing: 'playing',
  won: 'won',
  'out-of-moves': 'out of moves',
  resigned: 'resigned',
  'timed-out': 'out of time',
  abandoned: 'abandoned',
  disconnected: 'disconnected',
};

export const statusText = (status: ProgressStatus | GameState): string => STATUS_TEXT[status];

/** The race code in a pasted link or code, upper-cased; undefined when there is none. */
export function codeFrom(text: string): string | undefined {
  const match = RACE_CODE_IN_TEXT.exec(text.trim());
  return match?.[1]!.toUpperCase();
}

/** `2026-11-29` → `Sunday 29 November 2026` (a UTC day, as the daily deal counts them). */
export const formatDay = (day: string): string =>
  new Date(dayStart(day)).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });


/** A moment as a short local date and time: `29 Nov 2026, 10:04`. */
export const formatTime = (at: number): string =>
  new Date(at).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
