import { dayStart, RACE_CODE_IN_TEXT, type ClosedReason, type GameState, type PresenceView, type ProgressStatus, type RaceEvent } from './contract.js';

/** Where a racer is, in words: `online`, `reconnecting (0:42 left)`, `gone`. */
export function presenceText(presence: PresenceView, serverNow: number): string {
  if (presence.state !== 'reconnecting') return presence.state;
  return presence.until === null ? 'reconnecting' : `reconnecting (${duration(presence.until - serverNow)} left)`;
}

/** What just happened to a race, as everyone watching it is told: `Bo is now the creator of the lobby.` */
export function eventText({ kind, player }: RaceEvent, myId: number | null): string {
  const who = player === null ? 'Someone' : player.id === myId ? 'You' : player.name;
  switch (kind) {
    case 'left':
      return `${who} left the lobby.`;
    case 'kicked':
      return `${who} ${who === 'You' ? 'were' : 'was'} removed from the lobby by its creator.`;
    case 'unseated':
      return `${who} lost ${who === 'You' ? 'your' : 'their'} seat: away for longer than the grace period.`;
    case 'creator-changed':
      return who === 'You' ? 'You are now the creator of this lobby: you start the race.' : `${who} is now the creator of this lobby.`;
    case 'cancelled':
      return 'The creator cancelled this race.';
    case 'closed':
      return 'This lobby closed.';
    case 'abandoned':
      return `${who} did not come back in time: ${who === 'You' ? 'your' : 'their'} game is finished as abandoned.`;
    case 'rematch':
      return `${who} answered the rematch.`;
  }
}

/** Why a race is closed, said to whoever opens its link. */
export const CLOSED_TEXT: { readonly [reason in ClosedReason]: string } = {
  cancelled: 'This race was cancelled by its creator.',
  expired: 'This lobby closed: the race was not started within its time limit.',
  empty: 'This lobby closed: everyone left it.',
};

/** `1 card`, `12 cards`. */
export const cards = (count: number): string => `${count} ${count === 1 ? 'card' : 'cards'}`;

/** `4:07` or `1:02:03`: a duration in minutes and seconds; with `tenths`, `4:07.3` (ranked times, where ties are close). */
export function duration(ms: number, tenths = false): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0') + (tenths ? `.${Math.floor((Math.max(0, ms) % 1000) / 100)}` : '');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A rate 0-1 as a percentage with one decimal: `6.0 %`. */
export const percent = (rate: number): string => `${(rate * 100).toFixed(1)} %`;

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
