import { makeCard, parseCard, type Card } from './card.js';
import { err, ok, type Result } from './result.js';

export const ACTION_TYPES = [
  'fan-to-foundation',
  'fan-to-fan',
  'fan-to-cell',
  'cell-to-fan',
  'cell-to-foundation',
  'redeal',
  'merci',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Fans and cells are 0-based here; the notation numbers them from 1. */
export type Action =
  | { readonly type: 'fan-to-foundation'; readonly from: number }
  | { readonly type: 'fan-to-fan'; readonly from: number; readonly to: number }
  | { readonly type: 'fan-to-cell'; readonly from: number; readonly cell: number }
  | { readonly type: 'cell-to-fan'; readonly cell: number; readonly to: number }
  | { readonly type: 'cell-to-foundation'; readonly cell: number }
  | { readonly type: 'redeal' }
  /** `to` is a fan, or null for the foundation. */
  | { readonly type: 'merci'; readonly card: Card; readonly to: number | null };

const FAN = '([1-9][0-9]*)';
const CELL = 'C([1-4])';
const GRAMMAR: readonly [RegExp, (m: RegExpExecArray) => Action | undefined][] = [
  [new RegExp(`^${FAN}>F$`), (m) => ({ type: 'fan-to-foundation', from: fan(m[1]) })],
  [new RegExp(`^${FAN}>${FAN}$`), (m) => ({ type: 'fan-to-fan', from: fan(m[1]), to: fan(m[2]) })],
  [new RegExp(`^${FAN}>${CELL}$`), (m) => ({ type: 'fan-to-cell', from: fan(m[1]), cell: fan(m[2]) })],
  [new RegExp(`^${CELL}>${FAN}$`), (m) => ({ type: 'cell-to-fan', cell: fan(m[1]), to: fan(m[2]) })],
  [new RegExp(`^${CELL}>F$`), (m) => ({ type: 'cell-to-foundation', cell: fan(m[1]) })],
  [/^R$/, () => ({ type: 'redeal' })],
  [
    new RegExp(`^M (\\S+)>(?:F|${FAN})$`),
    (m) => {
      const card = parseCard(m[1]!);
      return card.ok ? { type: 'merci', card: card.value, to: m[2] === undefined ? null : fan(m[2]) } : undefined;
    },
  ],
];

/** A 1-based number from the notation as a 0-based index. */
const fan = (digits: string | undefined): number => Number(digits) - 1;

/**
 * Reads an action exactly as the grammar writes it (no spaces, capital F R C M, no leading
 * zeros); only the card inside a merci is read leniently.
 */
export function parseAction(text: string): Result<Action> {
  for (const [pattern, build] of GRAMMAR) {
    const match = pattern.exec(text);
    if (match) {
      const action = build(match);
      if (action) return ok(action);
      break;
    }
  }
  return err(`"${text}" is not an action (a>F, a>b, a>Cn, Cn>b, Cn>F, R, M XY>b or M XY>F)`);
}

export function makeAction(action: Action): string {
  switch (action.type) {
    case 'fan-to-foundation':
      return `${action.from + 1}>F`;
    case 'fan-to-fan':
      return `${action.from + 1}>${action.to + 1}`;
    case 'fan-to-cell':
      return `${action.from + 1}>C${action.cell + 1}`;
    case 'cell-to-fan':
      return `C${action.cell + 1}>${action.to + 1}`;
    case 'cell-to-foundation':
      return `C${action.cell + 1}>F`;
    case 'redeal':
      return 'R';
    case 'merci':
      return `M ${makeCard(action.card)}>${action.to === null ? 'F' : action.to + 1}`;
  }
}
