import { redealLayout, type Card, type Layout } from '../shared/index.js';

/** Where redeal layouts come from: deal k (1 = first redeal) of the gathered cards. */
export type Dealer = (deal: number, gathered: readonly Card[]) => Layout;

/** The redeals of a seed under lucie-deal/1 (a race seed, or a daily attempt's redeal seed). */
export const seedDealer =
  (seed: string): Dealer =>
  (deal, gathered) =>
    redealLayout(seed, deal, gathered);
