import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';

export const VARIANT_IDS = [
  'strict',
  'merci',
  'trefoil',
  'shamrocks',
  'super-flower-garden',
  'fan-reserve',
  'kings-in-spaces',
  'no-redeal',
] as const;
export type VariantId = (typeof VARIANT_IDS)[number];

/** How a card may build on another fan's top card. */
export const BUILD_RULES = ['same-suit-down', 'any-suit-down', 'same-suit-up-or-down'] as const;
export type BuildRule = (typeof BUILD_RULES)[number];

export interface Rules {
  readonly id: VariantId;
  readonly title: string;
  /** Redeals allowed after the first deal. */
  readonly redeals: number;
  /** One merci per game in the last deal, when nothing else is legal. */
  readonly merci: boolean;
  /** The four Aces start on the foundations. */
  readonly acesStart: boolean;
  readonly build: BuildRule;
  /** A move onto a fan holding this many cards is illegal (shamrocks); null when unlimited. */
  readonly maxFanSize: number | null;
  /** Reserve cells, each holding one card. */
  readonly cells: number;
  /** An empty fan may take a King during the deal in which it emptied. */
  readonly kingsInSpaces: boolean;
  /**
   * Play can cycle, so a game may never end by itself (a card shuttles between two fans, or to a
   * cell and back): such games need a time limit.
   */
  readonly canCycle: boolean;
}

const STRICT: Rules = {
  id: 'strict',
  title: 'Strict',
  redeals: 2,
  merci: false,
  acesStart: false,
  build: 'same-suit-down',
  maxFanSize: null,
  cells: 0,
  kingsInSpaces: false,
  canCycle: false,
};

/** The one table of rules: every variant is the strict profile with the differences named. */
export const VARIANTS: { readonly [id in VariantId]: Rules } = {
  strict: STRICT,
  merci: { ...STRICT, id: 'merci', title: 'Three shuffles and a draw (merci)', merci: true },
  trefoil: { ...STRICT, id: 'trefoil', title: 'Trefoil', acesStart: true },
  shamrocks: { ...STRICT, id: 'shamrocks', title: 'Shamrocks', build: 'any-suit-down', maxFanSize: 3, canCycle: true },
  'super-flower-garden': {
    ...STRICT,
    id: 'super-flower-garden',
    title: 'Super Flower Garden',
    build: 'same-suit-up-or-down',
    canCycle: true,
  },
  'fan-reserve': { ...STRICT, id: 'fan-reserve', title: 'Fan with reserve', cells: 4, canCycle: true },
  'kings-in-spaces': { ...STRICT, id: 'kings-in-spaces', title: 'Kings in spaces', kingsInSpaces: true },
  'no-redeal': { ...STRICT, id: 'no-redeal', title: 'No redeal', redeals: 0 },
};

/** Cards per fan when dealing; the remainder forms a last, shorter fan. */
export const FAN_SIZE = 3;

export function parseVariant(text: string): Result<VariantId, Problem> {
  return (VARIANT_IDS as readonly string[]).includes(text) ? ok(text as VariantId) : err(problemOf('unknown-variant', { text }));
}
