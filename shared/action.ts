import { makeCard, parseCard, type Card } from './card.js';
import { problemOf, type Problem } from './problem.js';
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

const REDEAL: Action = { type: 'redeal' };

/** Where a move starts or ends: a fan index (0 and up), the foundation, or cell n as CELL - n. */
const FOUNDATION = -1;
const CELL = -2;
const cellIndex = (place: number): number => CELL - place;

/** Reads `F`, a fan number (1 and up, no leading zero) or a cell `C1`-`C4`; undefined otherwise. */
function readPlace(text: string, start: number, end: number): number | undefined {
  const first = text.charCodeAt(start);
  if (end - start === 1 && first === 70 /* F */) return FOUNDATION;
  if (first === 67 /* C */) {
    const digit = text.charCodeAt(start + 1) - 48;
    return end - start === 2 && digit >= 1 && digit <= 4 ? CELL - (digit - 1) : undefined;
  }
  if (!(first >= 49 && first <= 57)) return undefined;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value - 1;
}

function readAction(text: string): Action | undefined {
  if (text === 'R') return REDEAL;
  const arrow = text.lastIndexOf('>');
  if (arrow < 0) return undefined;
  const to = readPlace(text, arrow + 1, text.length);
  if (to === undefined) return undefined;
  if (text.startsWith('M ')) {
    if (to <= CELL) return undefined;
    const card = parseCard(text.slice(2, arrow));
    return card.ok ? { type: 'merci', card: card.value, to: to === FOUNDATION ? null : to } : undefined;
  }
  const from = readPlace(text, 0, arrow);
  if (from === undefined || from === FOUNDATION) return undefined;
  if (from <= CELL) {
    if (to <= CELL) return undefined; // there is no cell-to-cell action
    return to === FOUNDATION
      ? { type: 'cell-to-foundation', cell: cellIndex(from) }
      : { type: 'cell-to-fan', cell: cellIndex(from), to };
  }
  if (to === FOUNDATION) return { type: 'fan-to-foundation', from };
  return to <= CELL ? { type: 'fan-to-cell', from, cell: cellIndex(to) } : { type: 'fan-to-fan', from, to };
}

/**
 * Reads an action exactly as the grammar writes it (no spaces, capital F R C M, no leading
 * zeros); only the card inside a merci is read leniently.
 */
export function parseAction(text: string): Result<Action, Problem> {
  const action = readAction(text);
  return action ? ok(action) : err(problemOf('not-an-action', { text }));
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
