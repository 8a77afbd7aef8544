/** The zod pieces both transports use: ids, codes, and the views of players, games and races. */
import { z } from 'zod';
import { VARIANT_IDS } from '../shared/index.js';
import { CLOSED_REASONS, GAME_STATES, PRESENCE_STATES, PROGRESS_STATUSES, RACE_CODE_PATTERN, RACE_EVENT_KINDS, RACE_STATES } from './vocabulary.js';

/** A race code as a client writes it (any case), read upper-cased. */
export const raceCode = z
  .string()
  .regex(RACE_CODE_PATTERN, 'a race code is 6 letters or digits')
  .transform((code) => code.toUpperCase());

/** A series code, written and read like a race code. */
export const seriesCode = z
  .string()
  .regex(RACE_CODE_PATTERN, 'a series code is 6 letters or digits')
  .transform((code) => code.toUpperCase());

export const variantId = z.enum(VARIANT_IDS);
export const gameId = z.number().int().positive();
export const gameState = z.enum(GAME_STATES);
export const progressStatus = z.enum(PROGRESS_STATUSES);

export const gameStatus = z.object({
  state: gameState,
  /** Cards on the foundations, 0-52. */
  foundations: z.number().int(),
  redealsUsed: z.number().int(),
  /** Actions applied so far: also the index the next action must carry. */
  nextIndex: z.number().int(),
  finishedAt: z.number().nullable(),
});

export const playerView = z.object({ id: z.number().int(), name: z.string() });

export const progressView = z.object({
  playerId: z.number().int(),
  name: z.string(),
  gameId,
  foundations: z.number().int(),
  cardsLeft: z.number().int(),
  redealsUsed: z.number().int(),
  /** Actions applied. */
  moves: z.number().int(),
  status: progressStatus,
  finishedAt: z.number().nullable(),
});

/**
 * A rating as players see it: `rating` the displayed number (1500 + 20 x (mu - 25), rounded),
 * `provisional` while the model is unsure (sigma above 7.5: shown "?"), after `games` rated
 * races; `mu` and `sigma` the OpenSkill (Plackett-Luce) model's own parameters.
 */
export const ratingView = z.object({ rating: z.number().int(), provisional: z.boolean(), games: z.number().int(), mu: z.number(), sigma: z.number() });

/** What a rated race did to one racer's displayed rating. */
export const ratingChangeView = z.object({ playerId: z.number().int(), before: z.number().int(), after: z.number().int(), provisional: z.boolean() });

export const standingView = z.object({
  /** 1-based; winners by finish time, then the rest by cards on foundations; equal cards home share a rank. */
  rank: z.number().int(),
  playerId: z.number().int(),
  name: z.string(),
  gameId,
  state: gameState,
  foundations: z.number().int(),
  finishedAt: z.number().nullable(),
});

export const presenceView = z.object({
  state: z.enum(PRESENCE_STATES),
  since: z.number().nullable(),
  until: z.number().nullable(),
});
export const racerView = z.object({ id: z.number().int(), name: z.string(), seat: z.number().int(), presence: presenceView });

export const raceView = z.object({
  code: z.string(),
  variant: variantId,
  seats: z.number().int(),
  timeLimitSeconds: z.number().int().nullable(),
  /** Listed in the public lobby (anyone may join or watch it there); else reached by its link only. */
  listed: z.boolean(),
  /** Its result changes its racers' ratings: its creator's choice, or a quick race. */
  rated: z.boolean(),
  state: z.enum(RACE_STATES),
  creator: playerView,
  /** Seated players in seat order, each with their presence. */
  racers: z.array(racerView),
  createdAt: z.number(),
  /** When the first layout is dealt (set by start). */
  startsAt: z.number().nullable(),
  /** When the time limit stops the race, if it has one. */
  endsAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** One entry per racer once the race has started, in seat order. */
  progress: z.array(progressView),
  /** Final standings, once finished. */
  standings: z.array(standingView).nullable(),
  /** Revealed once the race is finished (so anyone can check the deals); null before. */
  seed: z.string().nullable(),
  /** Set when the state is `closed`. */
  closedReason: z.enum(CLOSED_REASONS).nullable(),
  /** A lobby not started by then closes. */
  lobbyClosesAt: z.number().nullable(),
  /** A race without a time limit ends by then at the latest (the hard cap). */
  capAt: z.number().nullable(),
  /** How long a racer may be without a socket before losing their seat (lobby) or being finished as `abandoned` (race). */
  graceSeconds: z.number().int(),
  /** The code of the race this one is a rematch of. */
  rematchOf: z.string().nullable(),
  /** Once finished: the rematch, if someone asked for one: its code and each racer's answer. */
  rematch: z.object({ code: z.string(), accepted: z.array(z.number().int()), declined: z.array(z.number().int()) }).nullable(),
  /** Once a rated race's ratings are applied (a moment after it finished): each racer's, in seat order; null before and for an unrated race. */
  ratingChanges: z.array(ratingChangeView).nullable(),
});

export const raceEvent = z.object({
  kind: z.enum(RACE_EVENT_KINDS),
  /** Who it happened to (the new creator for `creator-changed`; null when nobody did it). */
  player: playerView.nullable(),
  at: z.number(),
});

/** The full story of a player's own game so far (never its seed): rebuild it with the engine. */
export const gameSnapshot = z.object({
  type: z.literal('game'),
  gameId,
  raceCode: z.string().nullable(),
  variant: variantId,
  /** deals[0] is the first layout, deals[k] the layout of the k-th redeal. */
  deals: z.array(z.array(z.string())),
  actions: z.array(z.string()),
  startedAt: z.number(),
  status: gameStatus,
});

export type GameStatus = z.infer<typeof gameStatus>;
export type PlayerView = z.infer<typeof playerView>;
export type ProgressView = z.infer<typeof progressView>;
export type StandingView = z.infer<typeof standingView>;
export type RatingView = z.infer<typeof ratingView>;
export type RatingChangeView = z.infer<typeof ratingChangeView>;
export type RaceView = z.infer<typeof raceView>;
export type RacerView = z.infer<typeof racerView>;
export type PresenceView = z.infer<typeof presenceView>;
export type RaceEvent = z.infer<typeof raceEvent>;
export type GameSnapshot = z.infer<typeof gameSnapshot>;
