/**
 * The board's geometry from the space it has: how many fans a row and how wide a card is, so
 * that the cards are as large as the width and the viewport height allow. Every fan keeps its
 * slot for the whole game (the grid is sized for the first deal's fans); a growing fan
 * overlaps its cards more tightly inside its slot (see `fanStep`) instead of taking more room.
 */
export interface Space {
  /** The board's width, px. */
  readonly width: number;
  /** The height from the board's top to the bottom of the viewport, px. */
  readonly height: number;
  /** Fan slots: 18, or 16 when the Aces start home. */
  readonly fans: number;
  /** Piles in the top row: the 4 foundations and any reserve cells. */
  readonly piles: number;
  /** Lines the status bar needs at its longest (counts, redeals, the merci's state), so that it never grows mid-game. */
  readonly barLines: number;
}

export interface Geometry {
  readonly columns: number;
  readonly rows: number;
  readonly cardWidth: number;
  readonly cardHeight: number;
  readonly slotWidth: number;
  readonly gap: number;
  /** The status bar's fixed height, px. */
  readonly barHeight: number;
}

/** A card is this much taller than wide. */
export const CARD_RATIO = 1.4;
/** A fan slot is this many cards wide: three cards show their indices side by side. */
export const SLOT_CARDS = 1.9;
/** Room under each fan for its number, px. */
export const NUMBER_ROOM = 18;
/** The status bar's height for one line and for each further line, px. */
export const BAR_LINE = 34;
export const BAR_MORE = 22;
/** What the board draws besides piles, fans and the status bar, px: padding, gaps, the message line. */
export const CHROME = 16 + 8 + 8 + 30;
export const MIN_CARD = 26;
export const MAX_CARD = 150;

export function boardGeometry(space: Space): Geometry {
  const gap = space.width < 640 ? 4 : 10;
  const inner = space.width - 16;
  const pileLimit = (inner - (space.piles + 1) * gap) / space.piles;
  const barHeight = BAR_LINE + (space.barLines - 1) * BAR_MORE;
  let best: Geometry | undefined;
  for (let rows = 1; rows <= space.fans; rows++) {
    const columns = Math.ceil(space.fans / rows);
    if (Math.ceil(space.fans / columns) !== rows) continue; // the same grid as fewer rows
    const byWidth = (inner - (columns - 1) * gap) / (columns * SLOT_CARDS);
    const byHeight = (space.height - CHROME - barHeight - rows * NUMBER_ROOM - rows * gap) / (CARD_RATIO * (rows + 1));
    const cardWidth = Math.floor(Math.max(MIN_CARD, Math.min(MAX_CARD, byWidth, byHeight, pileLimit)));
    if (!best || cardWidth > best.cardWidth) {
      best = { columns, rows, cardWidth, cardHeight: Math.round(cardWidth * CARD_RATIO), slotWidth: Math.floor(Math.min(cardWidth * SLOT_CARDS, (inner - (columns - 1) * gap) / columns)), gap, barHeight };
    }
  }
  return best!;
}

/** How far apart the cards of a fan of `count` cards sit so that they stay inside the slot, px. */
export function fanStep(geometry: Geometry, count: number): number {
  const open = geometry.cardWidth * 0.45;
  return count <= 1 ? 0 : Math.min(open, (geometry.slotWidth - geometry.cardWidth) / (count - 1));
}
