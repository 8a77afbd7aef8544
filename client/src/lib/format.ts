import type { GameState, ProgressStatus } from '../../../server/protocol.js';

/** `4:07` or `1:02:03`: a duration in minutes and seconds. */
export function duration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

const STATUS_TEXT: { readonly [status in ProgressStatus]: string } = {
  playing: 'playing',
  won: 'won',
  'out-of-moves': 'out of moves',
  resigned: 'resigned',
  'timed-out': 'out of time',
  disconnected: 'disconnected',
};

export const statusText = (status: ProgressStatus | GameState): string => STATUS_TEXT[status];

/** The race code in a pasted link or code, upper-cased; undefined when there is none. */
export function codeFrom(text: string): string | undefined {
  const match = /(?:^|\/)([A-Za-z0-9]{6})\/?(?:[?#].*)?$/.exec(text.trim());
  return match?.[1]!.toUpperCase();
}
