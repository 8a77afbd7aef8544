import { dayStart, RACE_CODE_IN_TEXT, type ClosedReason, type GameState, type PresenceView, type ProgressStatus, type RaceEvent } from './contract.js';
import type { VariantId } from './engine.js';
import { formatLocale, t } from './i18n.svelte.js';
import { numberFormat } from './intl.js';

/** Where a racer is, in words: `online`, `reconnecting (0:42 left)`, `gone`. */
export function presenceText(presence: PresenceView, serverNow: number): string {
  if (presence.state !== 'reconnecting') return t(`presence.${presence.state}`);
  return presence.until === null ? t('presence.reconnecting') : t('presence.reconnecting-until', { left: duration(presence.until - serverNow) });
}

/** What just happened to a race, as everyone watching it is told: `Bo is now the creator of the lobby.` */
export function eventText({ kind, player }: RaceEvent, myId: number | null): string {
  const who = player === null ? 'someone' : player.id === myId ? 'you' : 'other';
  return t(`race-event.${kind}`, { who, name: player?.name ?? '' });
}

/** Why a race is closed, said to whoever opens its link (read through getters, so it follows the language). */
export const CLOSED_TEXT: { readonly [reason in ClosedReason]: string } = {
  get cancelled() {
    return t('closed.cancelled');
  },
  get expired() {
    return t('closed.expired');
  },
  get empty() {
    return t('closed.empty');
  },
};

/** `1 card`, `12 cards`. */
export const cards = (count: number): string => t('cards', { count });

/** `4:07` or `1:02:03`: a duration in minutes and seconds; with `tenths`, `4:07.3` (ranked times, where ties are close). */
export function duration(ms: number, tenths = false): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const decimal = numberFormat(formatLocale()).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const seconds = String(total % 60).padStart(2, '0') + (tenths ? `${decimal}${Math.floor((Math.max(0, ms) % 1000) / 100)}` : '');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A rate 0-1 as a percentage with one decimal, the player's way: `6.0%`, `6,0 %`. */
export const percent = (rate: number): string =>
  numberFormat(formatLocale(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rate);

/** An average with one decimal, the player's way: `31.5`, `31,5`. */
export const oneDecimal = (value: number): string =>
  numberFormat(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** A server message as a sentence: `you have played…` → `You have played…`. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const statusText = (status: ProgressStatus | GameState): string => t(`status.${status}`);

/** A variant's name in the player's language. */
export const variantName = (variant: VariantId): string => t(`variant.${variant}`);

/** The race code in a pasted link or code, upper-cased; undefined when there is none. */
export function codeFrom(text: string): string | undefined {
  const match = RACE_CODE_IN_TEXT.exec(text.trim());
  return match?.[1]!.toUpperCase();
}

/** `2026-11-29` → `Sunday, 29 November 2026` (a UTC day, as the daily deal counts them). */
export const formatDay = (day: string): string =>
  new Date(dayStart(day)).toLocaleDateString(formatLocale(), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A moment as a short local date and time: `29 Nov 2026, 10:04`. */
export const formatTime = (at: number): string =>
  new Date(at).toLocaleString(formatLocale(), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
