import { RANKS, SUITS, makeCard } from './card.js';
import type { Position } from './position.js';

/**
 * A position as a Freecell Solver / PySolFC board: a `Foundations:` line, a `Freecells:` line
 * when the variant has reserve cells, then one line per fan, bottom card first (`:` alone for
 * an emptied fan).
 */
export function makeBoard(position: Position): string {
  const foundations = SUITS.map((suit, i) => {
    const height = position.foundations[i]!;
    return `${suit}-${height === 0 ? '0' : RANKS[height - 1]}`;
  });
  const lines = [`Foundations: ${foundations.join(' ')}`];
  if (position.cells.length > 0) {
    lines.push(`Freecells: ${position.cells.map((card) => (card === null ? '-' : makeCard(card))).join(' ')}`);
  }
  for (const fan of position.fans) lines.push([':', ...fan.map(makeCard)].join(' '));
  return lines.join('\n') + '\n';
}
