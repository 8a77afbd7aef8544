import type { Action } from '../shared/action.js';

/** A solver move is one number: kind | a << 4 | b << 12, the kind an index into MOVE_KINDS. */
export const MOVE_KINDS = ['fan-to-foundation', 'fan-to-fan', 'fan-to-cell', 'cell-to-fan', 'cell-to-foundation', 'merci'] as const;
export const FAN_HOME = 0;
export const FAN_FAN = 1;
export const FAN_CELL = 2;
export const CELL_FAN = 3;
export const CELL_HOME = 4;
export const MERCI = 5;
/** The `b` of a merci to the foundation. */
export const TO_HOME = 255;

export const move = (kind: number, a: number, b = 0): number => kind | (a << 4) | (b << 12);
export const kindOf = (m: number): number => m & 15;
export const aOf = (m: number): number => (m >> 4) & 255;
export const bOf = (m: number): number => (m >> 12) & 255;

/** The engine's action for a solver move. */
export function actionOf(m: number): Action {
  const a = aOf(m);
  const b = bOf(m);
  switch (kindOf(m)) {
    case FAN_HOME:
      return { type: 'fan-to-foundation', from: a };
    case FAN_FAN:
      return { type: 'fan-to-fan', from: a, to: b };
    case FAN_CELL:
      return { type: 'fan-to-cell', from: a, cell: b };
    case CELL_FAN:
      return { type: 'cell-to-fan', cell: a, to: b };
    case CELL_HOME:
      return { type: 'cell-to-foundation', cell: a };
    default:
      return { type: 'merci', card: a, to: b === TO_HOME ? null : b };
  }
}
