import { describe, expect, it } from 'vitest';
import { parsePlace, placeKey, sourceAt, sourcePlace, targetAt, type Place } from '../../client/src/lib/board/places.js';
import { parseCard, type Card, problemText } from '../../shared/index.js';
import { DEAD, play, start, swap } from '../shared/helpers.js';

const card = (text: string): Card => {
  const parsed = parseCard(text);
  if (!parsed.ok) throw new Error(problemText(parsed.error));
  return parsed.value;
};

describe('one key scheme for every place on the board', () => {
  it('reads back the keys it writes, and nothing else', () => {
    const places: Place[] = [
      { kind: 'fan', fan: 17 },
      { kind: 'cell', cell: 3 },
      { kind: 'foundation', suit: 2 },
      { kind: 'card', card: 40 },
    ];
    expect(places.map(placeKey)).toEqual(['fan-17', 'cell-3', 'foundation-2', 'card-40']);
    for (const place of places) expect(parsePlace(placeKey(place))).toEqual(place);
    for (const bad of ['f3', 'F', 'fan-', 'pile-1', 'fan-1x', undefined]) expect(parsePlace(bad)).toBeUndefined();
  });

  it('resolves a card to the source and target it stands for in the position', () => {
    // Fan 1 is A♣ A♦ K♣: K♣ is its top card, A♦ is covered.
    const position = start('fan-reserve', DEAD);
    expect(sourceAt(position, { kind: 'card', card: card('KC') })).toEqual({ kind: 'fan', fan: 0 });
    expect(sourceAt(position, { kind: 'card', card: card('AD') })).toEqual({ kind: 'buried', card: card('AD') });
    expect(targetAt(position, { kind: 'card', card: card('AD') })).toEqual({ kind: 'fan', fan: 0 });
    expect(targetAt(position, { kind: 'foundation', suit: 3 })).toEqual({ kind: 'foundation' });
    expect(sourceAt(position, { kind: 'cell', cell: 0 })).toBeUndefined();
    expect(sourceAt(position, { kind: 'foundation', suit: 0 })).toBeUndefined();

    const inCell = play(position, ['1>C2']);
    expect(sourceAt(inCell, { kind: 'card', card: card('KC') })).toEqual({ kind: 'cell', cell: 1 });
    expect(targetAt(inCell, { kind: 'card', card: card('KC') })).toEqual({ kind: 'cell', cell: 1 });
    expect(sourcePlace(inCell, { kind: 'fan', fan: 0 })).toEqual({ kind: 'card', card: card('AD') });
    expect(sourcePlace(inCell, { kind: 'cell', cell: 1 })).toEqual({ kind: 'cell', cell: 1 });
  });

  it('finds nothing to pick on an empty fan', () => {
    const emptied = play(start('strict', swap(DEAD, ['AD', 'KD'])), ['2>F', '2>F', '2>F']);
    expect(sourceAt(emptied, { kind: 'fan', fan: 1 })).toBeUndefined();
    expect(sourcePlace(emptied, { kind: 'fan', fan: 1 })).toBeUndefined();
  });
});
