// How the client writes ratings: the number with "?" while provisional, a change with its sign,
// and the rating chart's value axis on round steps.
import { describe, expect, it } from 'vitest';
import { chartScale } from '../../client/src/lib/chart-scale.js';
import { changeText, ratingText } from '../../client/src/lib/rating.js';

describe('ratings as written', () => {
  it('marks a provisional rating with "?" and writes a change as +14, −9 (a true minus) or ±0, digits ungrouped', () => {
    expect(ratingText(1514, true)).toBe('1514?');
    expect(ratingText(1514, false)).toBe('1514');
    expect(changeText(1500, 1514)).toBe('+14');
    expect(changeText(1514, 1505)).toBe('−9');
    expect(changeText(1505, 1505)).toBe('±0');
  });

  it('draws the value axis on round steps around the values, never a zero span', () => {
    expect(chartScale([1500, 1553, 1531], 4)).toEqual({ min: 1500, max: 1560, ticks: [1500, 1520, 1540, 1560] });
    expect(chartScale([1497, 1412], 4)).toEqual({ min: 1400, max: 1500, ticks: [1400, 1450, 1500] });
    expect(chartScale([1500], 4)).toEqual({ min: 1500, max: 1510, ticks: [1500, 1510] });
    expect(chartScale([1500, 1503], 4)).toEqual({ min: 1500, max: 1510, ticks: [1500, 1510] });
  });
});
