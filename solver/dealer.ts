import { DEAL_ALGORITHM, dealFans, sha256, type Card, type Layout } from '../shared/index.js';
import { encodeUtf8 } from '../shared/utf8.js';

/** Where redeal layouts come from: deal k (1 = first redeal) of the gathered cards. */
export type Dealer = (deal: number, gathered: readonly Card[]) => Layout;

/**
 * The redeals of a seed under lucie-deal/1 (a race seed, or a daily attempt's redeal seed), the
 * same layouts as `redealLayout` (a test holds them equal). The clairvoyant solver asks for
 * thousands of layouts of one seed, and hashing for each was a sixth of a cheap seed's time. But
 * the word stream depends only on the seed and the deal, not on the cards, so each deal's words
 * are hashed once; and Fisher-Yates swaps places whatever the cards are, so the shuffle of places
 * 0..n-1 is, once per deal and card count, the order in which any n gathered cards (sorted
 * canonically) come out.
 */
export const seedDealer = (seed: string): Dealer => {
  const orders = new Map<number, number[]>();
  const streams = new Map<number, WordStream>();
  return (deal, gathered) => {
    const key = deal * 64 + gathered.length;
    let order = orders.get(key);
    if (!order) {
      let words = streams.get(deal);
      if (!words) streams.set(deal, (words = new WordStream(seed, deal)));
      orders.set(key, (order = shuffledPlaces(words, gathered.length)));
    }
    // The clairvoyant solver gathers in canonical order already (cardsAbove): copying and sorting
    // those was a twentieth of a cheap seed's time.
    const sorted = ascending(gathered) ? gathered : [...gathered].sort((a, b) => a - b);
    return dealFans(order.map((place) => sorted[place]!));
  };
};

function ascending(cards: readonly Card[]): boolean {
  for (let i = 1; i < cards.length; i++) if (cards[i - 1]! > cards[i]!) return false;
  return true;
}

/** Steps 1-3 of lucie-deal/1 (see DEAL_ALGORITHM) over places 0..count-1, reading the stream from its start. */
function shuffledPlaces(words: WordStream, count: number): number[] {
  const places: number[] = [];
  for (let place = 0; place < count; place++) places.push(place);
  let next = 0;
  const uniform = (n: number): number => {
    const limit = n * Math.floor(0x100000000 / n);
    for (;;) {
      const x = words.at(next++);
      if (x < limit) return x % n;
    }
  };
  for (let i = count - 1; i > 0; i--) {
    const j = uniform(i + 1);
    const place = places[i]!;
    places[i] = places[j]!;
    places[j] = place;
  }
  return places;
}

/** Deal `deal`'s word stream of `seed` (step 1 of lucie-deal/1), each block hashed once when first read. */
class WordStream {
  private readonly words: number[] = [];

  constructor(
    private readonly seed: string,
    private readonly deal: number,
  ) {}

  at(index: number): number {
    while (index >= this.words.length) {
      const block = this.words.length / 8;
      this.words.push(...sha256(encodeUtf8(`${DEAL_ALGORITHM}:${this.deal}:${block}:${this.seed}`)));
    }
    return this.words[index]!;
  }
}
