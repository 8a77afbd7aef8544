import { describe, expect, it } from 'vitest';
import { boardGeometry, CARD_RATIO, CHROME, fanStep, NUMBER_ROOM } from '../../client/src/lib/board/layout.js';

const tall = (geometry: ReturnType<typeof boardGeometry>): number =>
  CHROME + geometry.barHeight + geometry.cardHeight * (geometry.rows + 1) + geometry.rows * (NUMBER_ROOM + geometry.gap);

describe('the board is sized from the space it has', () => {
  it('uses the width of a large screen: six fans a row, cards over 100 px wide', () => {
    const geometry = boardGeometry({ width: 1600, height: 900, fans: 18, piles: 4, barLines: 1 });
    expect(geometry).toMatchObject({ columns: 6, rows: 3 });
    expect(geometry.cardWidth).toBeGreaterThan(100);
    expect(geometry.columns * geometry.slotWidth + (geometry.columns - 1) * geometry.gap).toBeLessThanOrEqual(1600 - 16);
    expect(tall(geometry)).toBeLessThanOrEqual(900);
  });

  it('fits a phone: every row within the height, every slot within the width', () => {
    for (const fans of [18, 16]) {
      const geometry = boardGeometry({ width: 374, height: 700, fans, piles: 4, barLines: 1 });
      expect(geometry.columns * geometry.slotWidth + (geometry.columns - 1) * geometry.gap).toBeLessThanOrEqual(374 - 16);
      expect(tall(geometry)).toBeLessThanOrEqual(700);
      expect(geometry.cardWidth).toBeGreaterThanOrEqual(26);
      expect(geometry.cardHeight).toBe(Math.round(geometry.cardWidth * CARD_RATIO));
    }
  });

  it('gives a two-line status bar its room from the start, at the cards\' expense, never below the fold', () => {
    const one = boardGeometry({ width: 374, height: 700, fans: 18, piles: 4, barLines: 1 });
    const two = boardGeometry({ width: 374, height: 700, fans: 18, piles: 4, barLines: 2 });
    expect(one.barHeight).toBe(34);
    expect(two.barHeight).toBe(56);
    expect(two.cardWidth).toBeLessThanOrEqual(one.cardWidth);
    expect(tall(two)).toBeLessThanOrEqual(700);
  });

  it('keeps the foundations and four reserve cells on one row', () => {
    const geometry = boardGeometry({ width: 374, height: 2000, fans: 18, piles: 8, barLines: 1 });
    expect(8 * geometry.cardWidth + 9 * geometry.gap).toBeLessThanOrEqual(374 - 16);
  });

  it('closes a growing fan up inside its slot', () => {
    const geometry = boardGeometry({ width: 1200, height: 800, fans: 18, piles: 4, barLines: 1 });
    expect(fanStep(geometry, 1)).toBe(0);
    expect(fanStep(geometry, 3)).toBeLessThanOrEqual(geometry.cardWidth * 0.45);
    expect(fanStep(geometry, 3)).toBeGreaterThan(geometry.cardWidth * 0.4);
    for (const count of [5, 9, 14]) {
      expect(geometry.cardWidth + (count - 1) * fanStep(geometry, count)).toBeLessThanOrEqual(geometry.slotWidth + 0.001);
    }
  });
});
