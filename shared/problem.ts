import type { Card } from './card.js';
import type { BuildRule, VariantId } from './variant.js';

/**
 * Why the engine says no, as data: a code and its parameters, never a sentence, so each reader
 * words it in its own language (`problemText` gives the English one). Fans, cells, deals and
 * redeals are numbered as a player reads them (fan 1 first, deals[0] the first layout).
 *
 * Each parameter name means one kind of value wherever it appears, so a message catalogue can
 * format a parameter by its kind (a card by its name, a nested problem by its own message).
 */
export const PROBLEM_PARAM_KINDS = {
  card: 'card',
  target: 'card',
  needed: 'card',
  cards: 'cards',
  fan: 'number',
  fans: 'number',
  cell: 'number',
  cells: 'number',
  size: 'number',
  expected: 'number',
  total: 'number',
  deal: 'number',
  redeal: 'number',
  redeals: 'number',
  left: 'number',
  line: 'number',
  text: 'text',
  name: 'text',
  detail: 'text',
  action: 'text',
  variant: 'variant',
  rule: 'build-rule',
  problem: 'problem',
} as const;
export type ProblemParamName = keyof typeof PROBLEM_PARAM_KINDS;
export type ProblemParamKind = (typeof PROBLEM_PARAM_KINDS)[ProblemParamName];

/** The value each kind of parameter holds. */
export interface ProblemParamValues {
  card: Card;
  cards: readonly Card[];
  number: number;
  /** Shown as written: a word that could not be read, a record field's name, the JSON parser's own message. */
  text: string;
  variant: VariantId;
  'build-rule': BuildRule;
  /** A problem inside another (the card a layout's fan could not read). */
  problem: Problem;
}

/** Every problem code with the names of its parameters: the one list, in the order the engine meets them. */
export const PROBLEM_PARAMS = {
  // Reading text: cards, actions, variants, layouts.
  'not-a-card': ['text'],
  'not-an-action': ['text'],
  'unknown-variant': ['text'],
  'card-spacing': ['text'],
  'in-fan': ['fan', 'problem'],
  // A layout's cards and fans.
  'card-twice': ['card'],
  'card-not-dealt': ['card'],
  'cards-missing': ['cards'],
  'fan-size': ['fan', 'size', 'expected'],
  'extra-fan': ['fan', 'size', 'total', 'fans'],
  'first-layout': ['problem'],
  // A position built from its parts.
  'cell-count': ['variant', 'cells', 'size'],
  'foundation-heights': [],
  'aces-start': ['variant'],
  'redeals-used': ['variant', 'redeals'],
  'no-fans': [],
  'card-home': ['card'],
  // Moves.
  'no-such-fan': ['fan', 'fans'],
  'fan-empty': ['fan'],
  'own-fan': [],
  'foundation-starts': ['card', 'needed'],
  'foundation-needs': ['card', 'needed'],
  'empty-fan-stays-empty': ['fan'],
  'king-only': ['fan', 'card'],
  'king-alone': ['card'],
  'fan-full': ['card', 'target', 'fan', 'size', 'variant'],
  'cannot-build': ['card', 'target', 'rule'],
  'no-cells': ['variant'],
  'no-such-cell': ['cell'],
  'cell-empty': ['cell'],
  'cell-full': ['cell', 'card'],
  // Redeals.
  'no-redeal': ['variant'],
  'no-redeal-left': ['redeals'],
  'game-won': [],
  'redeal-layout': ['redeal', 'problem'],
  'redeal-needs-layout': [],
  // The merci.
  'no-merci': ['variant'],
  'merci-used': [],
  'merci-too-early': ['left'],
  'merci-not-needed': ['action'],
  'not-in-fans': ['card'],
  'merci-top-card': ['card', 'fan'],
  // Records.
  'not-json': ['detail'],
  'not-an-object': [],
  'unknown-field': ['name'],
  'missing-field': ['name'],
  'not-a-string': ['name'],
  'no-deals': [],
  'deal-not-fans': ['deal'],
  'actions-not-strings': [],
  'meta-not-object': [],
  'unsupported-format': ['text'],
  'in-deal': ['deal', 'problem'],
  'redeal-without-layout': ['redeal'],
  'deal-never-reached': ['deal', 'redeals'],
  // Boards (the solver's text form of a position).
  'in-line': ['line', 'problem'],
  'not-a-foundation': ['text'],
  'in-board': ['problem'],
} as const satisfies Record<string, readonly ProblemParamName[]>;

export type ProblemCode = keyof typeof PROBLEM_PARAMS;
export const PROBLEM_CODES = /* @__PURE__ */ Object.keys(PROBLEM_PARAMS) as ProblemCode[];

/** The parameters of a problem with code `C`. */
export type ProblemParamsOf<C extends ProblemCode> = {
  readonly [P in (typeof PROBLEM_PARAMS)[C][number]]: ProblemParamValues[(typeof PROBLEM_PARAM_KINDS)[P]];
};

/** One problem: `{ code: 'fan-empty', fan: 3 }`. */
export type Problem = { [C in ProblemCode]: { readonly code: C } & ProblemParamsOf<C> }[ProblemCode];
export type ProblemOf<C extends ProblemCode> = Extract<Problem, { code: C }>;

/** Builds a problem, checked against its code's parameters. */
export const problemOf = <C extends ProblemCode>(code: C, ...params: keyof ProblemParamsOf<C> extends never ? [] : [ProblemParamsOf<C>]): ProblemOf<C> =>
  ({ code, ...params[0] }) as ProblemOf<C>;
