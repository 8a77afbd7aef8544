import { dealFans, shuffleForDeal, type Card, type Layout } from '../shared/index.js';

/** Where redeal layouts come from: deal k (1 = first redeal) of the gathered cards. */
export type Dealer = (deal: number, gathered: readonly Card[]) => Layout;

/**
 * The redeals of a seed under lucie-deal/1 (a race seed, or a daily attempt's redeal seed), the
 * same layouts as `redealLayout`. The clairvoyant solver asks for thousands of layouts of one
 * seed, and hashing the word stream for each was a fifth of its time; but the stream depends
 * only on the seed and the deal, and Fisher-Yates swaps places whatever the cards are, so the
 * shuffle of places 0..n-1 is, once per deal and card count, the order in which any n gathered
 * cards (sorted canonically) come out.
 */
export const seedDealer = (seed: string): Dealer => {
  const orders = new Map<number, number[]>();
  return (deal, gathered) => {
    const key = deal * 64 + gathered.length;
    let order = orders.get(key);
    if (!order) orders.set(key, (order = shuffleForDeal(seed, deal, gathered.map((_, place) => place))));
    const sorted = [...gathered].sort((a, b) => a - b);
    return dealFans(order.map((place) => sorted[place]!));
  };
};

