// The engine-to-board geometry: sources, targets, destinations, the one-click choice, and
// which cards may go home by themselves.
import { describe, expect, it } from 'vitest';
import {
  problemText,
  cardOf,
  destinations,
  isSafeHome,
  makeAction,
  oneClickDestination,
  parseCard,
  safeHomeAction,
  type Action,
  type Card,
  type Source,
  type Target,
} from '../../shared/index.js';
import { DEAD, play, start, swap } from './helpers.js';

const card = (text: string): Card => {
  const parsed = parseCard(text);
  if (!parsed.ok) throw new Error(problemText(parsed.error));
  return parsed.value;
};
const fan = (number: number): Source => ({ kind: 'fan', fan: number - 1 });
const written = (found: { action: Action }[]): string[] => found.map((choice) => makeAction(choice.action));

/** The rule sheets' worked example: fan 1 holds Q♦ 2♠ 8♣, fan 9 shows 9♣, A♠ is home. */
function workedExample() {
  const fans = swap(DEAD, ['AC', 'QD'], ['AD', '2S'], ['KC', '8C'], ['AS', 'KD']);
  return play(start('strict', fans), ['2>F']);
}

describe('the board offers what the engine allows', () => {
  it('sends 8♣ to its only destination, fan 9, in the worked example', () => {
    const position = workedExample();
    expect(written(destinations(position.legalActions(), fan(1)))).toEqual(['1>9']);
    const after = play(position, ['1>9']);
    expect(written(destinations(after.legalActions(), fan(1)))).toEqual(['1>F']);
  });

  it('lists every destination when a card has several: an Ace may go home or onto its 2', () => {
    const position = start('strict', swap(DEAD, ['2D', 'KH'], ['AD', 'KC']));
    const found = destinations(position.legalActions(), fan(1));
    expect(written(found)).toEqual(['1>F', '1>3']);
    expect(found.map((choice) => choice.target)).toEqual([{ kind: 'foundation' }, { kind: 'fan', fan: 2 }]);
  });

  it('offers covered cards only through the merci, in the last deal with nothing else legal', () => {
    const position = play(start('merci', DEAD), ['R', 'R'], [DEAD, DEAD]);
    const legal = position.legalActions();
    const aceOfClubs = destinations(legal, { kind: 'buried', card: card('AC') });
    expect(written(aceOfClubs).slice(0, 3)).toEqual(['M AC>F', 'M AC>1', 'M AC>2']);
    expect(aceOfClubs).toHaveLength(1 + 18);
    expect(destinations(legal, fan(1))).toEqual([]);
  });

  it('finds no destination for a source that has none', () => {
    const position = workedExample();
    expect(destinations(position.legalActions(), fan(3))).toEqual([]);
    expect(destinations(position.legalActions(), { kind: 'buried', card: card('2S') })).toEqual([]);
  });
});

describe('one click plays the only sensible destination', () => {
  it('sends a card home whenever it can go there, even when a fan would take it', () => {
    const position = start('strict', swap(DEAD, ['2D', 'KH'], ['AD', 'KC']));
    expect(makeAction(oneClickDestination(destinations(position.legalActions(), fan(1)))!.action)).toBe('1>F');
  });

  it('plays the only fan, and waits when two fans would take the card', () => {
    const position = workedExample();
    expect(makeAction(oneClickDestination(destinations(position.legalActions(), fan(1)))!.action)).toBe('1>9');
    // Building up or down in suit, 8♦ on top of fan 1 may go on 9♦ (fan 10) or 7♦ (fan 14).
    const two = start('super-flower-garden', swap(DEAD, ['8D', 'KC']));
    const found = destinations(two.legalActions(), fan(1));
    expect(written(found)).toEqual(['1>10', '1>14']);
    expect(oneClickDestination(found)).toBeUndefined();
  });

  it('counts the empty cells as one destination, and a fan beside them as another', () => {
    const reserve = start('fan-reserve', DEAD);
    const cells = destinations(reserve.legalActions(), fan(2));
    expect(written(cells)).toEqual(['2>C1', '2>C2', '2>C3', '2>C4']);
    expect(makeAction(oneClickDestination(cells)!.action)).toBe('2>C1');
    const withFan = start('fan-reserve', swap(DEAD, ['QC', 'KD']));
    const found = destinations(withFan.legalActions(), fan(2));
    expect(written(found)).toEqual(['2>1', '2>C1', '2>C2', '2>C3', '2>C4']);
    expect(oneClickDestination(found)).toBeUndefined();
  });

  it('has nothing to play for a card with no destination', () => {
    expect(oneClickDestination([])).toBeUndefined();
  });
});

describe('safe cards go home by themselves', () => {
  const acesOnTop = swap(DEAD, ['AC', 'KC'], ['AD', 'KD'], ['AH', 'KH'], ['AS', 'KS']);

  it('building down in suit, every card that may go home is safe', () => {
    const position = play(workedExample(), ['1>9']);
    expect(isSafeHome(position, card('2S'))).toBe(true);
    expect(makeAction(safeHomeAction(position, position.legalActions())!)).toBe('1>F');
  });

  it('building down in any suit, a card is safe once every card a rank below is home', () => {
    const position = start('shamrocks', acesOnTop);
    expect(isSafeHome(position, card('AS'))).toBe(true);
    const threeAces = play(position, ['1>F', '2>F', '3>F']);
    expect(isSafeHome(threeAces, card('2C'))).toBe(false);
    expect(isSafeHome(play(threeAces, ['4>F']), card('2C'))).toBe(true);
    expect(isSafeHome(play(threeAces, ['4>F']), card('3C'))).toBe(false);
  });

  it('building up or down in suit, only Kings are safe', () => {
    const position = start('super-flower-garden', acesOnTop);
    expect(isSafeHome(position, card('AC'))).toBe(false);
    expect(isSafeHome(position, cardOf(0, 12))).toBe(true);
    expect(safeHomeAction(position, position.legalActions())).toBeUndefined();
  });

  it('never plays the merci or a move that is not legal', () => {
    const merci = play(start('merci', DEAD), ['R', 'R'], [DEAD, DEAD]);
    expect(safeHomeAction(merci, merci.legalActions())).toBeUndefined();
    expect(safeHomeAction(workedExample(), [])).toBeUndefined();
  });
});
