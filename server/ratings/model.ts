/**
 * The rating model, pure: OpenSkill's Plackett-Luce model (the `openskill` package's default),
 * one rating per player and variant, a race's racers as one-player teams ranked by the race's
 * standings (a shared rank is a tie). What players see is a number in the familiar range of
 * chess ratings, drawn from the model's mean (mu) alone, with "?" while its uncertainty (sigma)
 * is still high.
 */
import { rate, rating as initialRating, type Rating } from 'openskill';
import type { RatingChangeView, RatingView } from '../../contract/index.js';

export type { Rating };

/** Everyone starts here: OpenSkill's defaults, mu 25 and sigma 25/3. */
export const INITIAL_RATING: Rating = initialRating();

/** The displayed rating: mu 25 shows as 1500, each point of mu as 20 (mu 0 to 50 spans 1000 to 2000). */
export const DISPLAY_CENTRE = 1500;
export const DISPLAY_SCALE = 20;

/**
 * Provisional (shown "?") while sigma is above this: a newcomer's 8.33 falls below it after about
 * four races against one rival, six against three, ten in a field of eight, whatever the results.
 */
export const PROVISIONAL_SIGMA = 7.5;

export const displayRating = (mu: number): number => Math.round(DISPLAY_CENTRE + DISPLAY_SCALE * (mu - INITIAL_RATING.mu));

export const isProvisional = (sigma: number): boolean => sigma > PROVISIONAL_SIGMA;

/** One racer of a rated race: their standing's rank (1 is best, equal ranks tie) and their rating before it. */
export interface RatedRacer {
  readonly playerId: number;
  readonly rank: number;
  readonly before: Rating;
}

/** Every racer's rating after the race, in the order given. A race of fewer than two moves nobody. */
export function rateRace(racers: readonly RatedRacer[]): Rating[] {
  if (racers.length < 2) return racers.map(({ before }) => before);
  const after = rate(
    racers.map(({ before }) => [before]),
    { rank: racers.map(({ rank }) => rank) },
  );
  return after.map(([rating]) => ({ mu: rating!.mu, sigma: rating!.sigma }));
}

/** A stored rating as players see it. */
export const ratingView = (rating: { mu: number; sigma: number; games: number }): RatingView => ({
  rating: displayRating(rating.mu),
  provisional: isProvisional(rating.sigma),
  games: rating.games,
  mu: rating.mu,
  sigma: rating.sigma,
});

/** Where a newcomer to a variant stands. */
export const NEWCOMER: RatingView = ratingView({ ...INITIAL_RATING, games: 0 });

export const changeView = (change: { playerId: number; muBefore: number; muAfter: number; sigmaAfter: number }): RatingChangeView => ({
  playerId: change.playerId,
  before: displayRating(change.muBefore),
  after: displayRating(change.muAfter),
  provisional: isProvisional(change.sigmaAfter),
});
