/** The views of the public lobby and of the quick-race pool (server/API.md, "Lobby and pool"). */
import { z } from 'zod';
import { POOL_STATES } from './vocabulary.js';
import { variantId } from './views.js';

/** A player in a public list: their name, the short tag that tells two of one name apart, and their rating in the list's variant (null: none yet). */
export const publicPlayer = z.object({ id: z.number().int(), name: z.string(), tag: z.string(), rating: z.number().nullable() });

/** A listed lobby anyone may join. */
export const openRaceView = z.object({
  code: z.string(),
  variant: variantId,
  seats: z.number().int(),
  taken: z.number().int(),
  timeLimitSeconds: z.number().int().nullable(),
  rated: z.boolean(),
  creator: publicPlayer,
  createdAt: z.number(),
});

/** A race counting down or being played that anyone may watch. */
export const liveRaceView = z.object({
  code: z.string(),
  variant: variantId,
  rated: z.boolean(),
  state: z.enum(['countdown', 'running']),
  startsAt: z.number().nullable(),
  racers: z.array(publicPlayer),
  /** The mean of its racers' ratings (null: none of them has one): what picks the featured race. */
  rating: z.number().nullable(),
});

export const lobbyView = z.object({
  /** Players with an open socket now, on every instance. */
  online: z.number().int(),
  open: z.array(openRaceView),
  live: z.array(liveRaceView),
  /** The code of the highest-rated running race (one of `live`), or null. */
  featured: z.string().nullable(),
  /** Players waiting in the quick-race pool, by variant (a variant nobody waits for is left out). */
  waiting: z.record(z.string(), z.number().int()),
});

/** Where this player stands in the quick-race pool. */
export const poolStatus = z.object({
  state: z.enum(POOL_STATES),
  variant: variantId.nullable(),
  /** Players waiting for that variant, this player included. */
  waiting: z.number().int(),
  /** When this player joined (server clock), while waiting. */
  since: z.number().nullable(),
  /** Set once this player has waited alone long enough: a ghost race may be offered while they stay in the pool. */
  ghostOffer: z.boolean(),
  /** The race the pool seated them in, once paired. */
  race: z.string().nullable(),
});

export const poolJoinBody = z.strictObject({ variant: variantId.default('strict') });
export const poolAnswer = z.object({ pool: poolStatus });
export const lobbyAnswer = z.object({ lobby: lobbyView, serverTime: z.number() });

export type PublicPlayer = z.infer<typeof publicPlayer>;
export type OpenRaceView = z.infer<typeof openRaceView>;
export type LiveRaceView = z.infer<typeof liveRaceView>;
export type LobbyView = z.infer<typeof lobbyView>;
export type PoolStatus = z.infer<typeof poolStatus>;
