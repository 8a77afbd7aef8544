import { RANKS, SUITS, makeCard, parseCard, type Card } from './card.js';
import { Position } from './position.js';
import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';
import { VARIANTS, type VariantId } from './variant.js';

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

const FOUNDATION = /^([CDHS])-(0|10|[A2-9TJQK])$/i;

function readCards(text: string, line: number): Result<Card[], Problem> {
  const cards: Card[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const card = parseCard(word);
    if (!card.ok) return err(problemOf('in-line', { line, problem: card.error }));
    cards.push(card.value);
  }
  return ok(cards);
}

/**
 * Reads a board: the `makeBoard` form, or simply one fan per line (bottom card first, `10` or
 * `T`, lines starting with `#` ignored), as other La Belle Lucie solvers write deals. Without a
 * `Foundations:` line the foundations are empty (the Aces in trefoil).
 */
export function parseBoard(text: string, variant: VariantId, extra: { redealsUsed?: number; merciUsed?: boolean } = {}): Result<Position, Problem> {
  const rules = VARIANTS[variant];
  const start = rules.acesStart ? 1 : 0;
  let foundations = [start, start, start, start];
  let cells: (Card | null)[] | undefined;
  const fans: Card[][] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const number = i + 1;
    if (line === '' || line.startsWith('#')) continue;
    if (/^foundations:/i.test(line)) {
      foundations = [0, 0, 0, 0];
      for (const word of line.slice(line.indexOf(':') + 1).trim().split(/\s+/).filter((w) => w !== '')) {
        const match = FOUNDATION.exec(word);
        if (!match) return err(problemOf('in-line', { line: number, problem: problemOf('not-a-foundation', { text: word }) }));
        const rank = match[2]!.toUpperCase();
        foundations[SUITS.indexOf(match[1]!.toUpperCase() as never)] = rank === '0' ? 0 : RANKS.indexOf((rank === '10' ? 'T' : rank) as never) + 1;
      }
      continue;
    }
    if (/^freecells:/i.test(line)) {
      cells = [];
      for (const word of line.slice(line.indexOf(':') + 1).trim().split(/\s+/).filter((w) => w !== '')) {
        if (word === '-') cells.push(null);
        else {
          const card = parseCard(word);
          if (!card.ok) return err(problemOf('in-line', { line: number, problem: card.error }));
          cells.push(card.value);
        }
      }
      while (cells.length < rules.cells) cells.push(null);
      continue;
    }
    const fan = readCards(line.startsWith(':') ? line.slice(1) : line, number);
    if (!fan.ok) return fan;
    fans.push(fan.value);
  }
  const position = Position.setup(variant, { fans, foundations, ...(cells ? { cells } : {}), ...extra });
  return position.ok ? position : err(problemOf('in-board', { problem: position.error }));
}
