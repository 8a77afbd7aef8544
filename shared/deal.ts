import { DECK, rankOf, type Card } from './card.js';
import { dealFans, makeLayout, type Layout } from './layout.js';
import { sha256 } from './sha256.js';
import { encodeUtf8 } from './utf8.js';
import { VARIANTS, type VariantId } from './variant.js';

/**
 * The dealing algorithm, versioned: change anything below and this name must change too.
 *
 * `lucie-deal/1`, for deal k (0 = the first layout, k = the k-th redeal) of seed S:
 * 1. Word stream: block i (i = 0, 1, 2, ...) is SHA-256 of the UTF-8 bytes of
 *    `lucie-deal/1:{k}:{i}:{S}` (k and i in decimal); each block gives eight 32-bit big-endian
 *    words, used in order.
 * 2. uniform(n): take the next word x; reject it while x >= n * floor(2^32 / n); return x mod n.
 * 3. Fisher-Yates over the cards in canonical order (C, D, H, S, then A..K): for i from the
 *    last index down to 1, swap card i with card uniform(i + 1).
 * 4. Card i of the shuffled list goes to fan floor(i / 3) + 1, bottom to top.
 *
 * SHA-256 keeps the stream unpredictable: seeing one layout tells nothing of the next.
 */
export const DEAL_ALGORITHM = 'lucie-deal/1';

/** Shuffles `cards` (any order: they are sorted canonically first) for deal `k` of `seed`. */
export function shuffleForDeal(seed: string, k: number, cards: readonly Card[]): Card[] {
  const deck = [...cards].sort((a, b) => a - b);
  let block = 0;
  let words: Uint32Array = new Uint32Array(0);
  let next = 0;
  const nextWord = (): number => {
    if (next === words.length) {
      words = sha256(encodeUtf8(`${DEAL_ALGORITHM}:${k}:${block++}:${seed}`));
      next = 0;
    }
    return words[next++]!;
  };
  const uniform = (n: number): number => {
    const limit = n * Math.floor(0x100000000 / n);
    for (;;) {
      const x = nextWord();
      if (x < limit) return x % n;
    }
  };
  for (let i = deck.length - 1; i > 0; i--) {
    const j = uniform(i + 1);
    const card = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = card;
  }
  return deck;
}

/** The cards a variant deals at the start: the whole deck, less the Aces in trefoil. */
export const startingCards = (variant: VariantId): Card[] =>
  VARIANTS[variant].acesStart ? DECK.filter((card) => rankOf(card) !== 0) : [...DECK];

/** The first layout of a seed in a variant. */
export const dealLayout = (seed: string, variant: VariantId): Layout =>
  dealFans(shuffleForDeal(seed, 0, startingCards(variant)));

/** The layout of the k-th redeal (k >= 1) of the gathered cards. */
export const redealLayout = (seed: string, k: number, gathered: readonly Card[]): Layout =>
  dealFans(shuffleForDeal(seed, k, gathered));

/**
 * Redeal streams of their own, versioned like the deal itself.
 *
 * `lucie-attempt/1`: attempt A (a decimal number) of seed S redeals from the seed
 * `lucie-attempt/1:{A}:{S}`: the k-th redeal of attempt A is `redealLayout(attemptSeed(S, A), k,
 * gathered)`. The first layout still comes from S, so every attempt starts alike, while two
 * attempts that gather the same cards get unrelated redeals: copying someone's moves on another
 * identity previews nothing of their next layout. Without S the stream cannot be computed;
 * with S (revealed when its day is over) anyone can recompute every attempt's deals.
 */
export const ATTEMPT_STREAM = 'lucie-attempt/1';

/** The seed attempt `attempt` of `seed` redeals from. */
export function attemptSeed(seed: string, attempt: number): string {
  if (!Number.isSafeInteger(attempt) || attempt < 0) throw new RangeError(`an attempt is a whole number, not ${attempt}`);
  return `${ATTEMPT_STREAM}:${attempt}:${seed}`;
}

/** Where a game's deals differ from what its seed deals: the first deal k that differs, and the layout the seed gives there. */
export interface DealMismatch {
  readonly k: number;
  readonly expected: string[];
}

/**
 * Recomputes a game's deals from its seed: deals[0] from `seed`, each redeal deals[k] (the same
 * cards, whatever the order they were gathered in) from `redealSeed` (`attemptSeed(seed, A)` for
 * a daily attempt, `seed` itself for races and practice). Undefined when every deal matches.
 */
export function dealsMismatch(variant: VariantId, seed: string, redealSeed: string, deals: readonly Layout[]): DealMismatch | undefined {
  for (const [k, deal] of deals.entries()) {
    const expected = makeLayout(k === 0 ? dealLayout(seed, variant) : redealLayout(redealSeed, k, deal.flat()));
    if (JSON.stringify(expected) !== JSON.stringify(makeLayout(deal))) return { k, expected };
  }
  return undefined;
}
