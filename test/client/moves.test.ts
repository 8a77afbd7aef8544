import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, duration } from '../../client/src/lib/format.js';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { attemptProblem, describeAction, problemWords, stuckReason, targetList } from '../../client/src/lib/moves.js';
import { actionFor, parseCard, type Card, type Source, type Target, problemText } from '../../shared/index.js';
import { DEAD, play, start, swap } from '../shared/helpers.js';

const card = (text: string): Card => {
  const parsed = parseCard(text);
  if (!parsed.ok) throw new Error(problemText(parsed.error));
  return parsed.value;
};
const fan = (number: number): Source => ({ kind: 'fan', fan: number - 1 });
const toFan = (number: number): Target => ({ kind: 'fan', fan: number - 1 });
const foundation: Target = { kind: 'foundation' };

beforeAll(() => setLocale('en', ['en-GB'], 'every'));
afterAll(() => setLocale('en', [], 'every'));

/** The rule sheets' worked example: fan 1 holds Q♦ 2♠ 8♣, fan 9 shows 9♣, A♠ is home. */
function workedExample() {
  const fans = swap(DEAD, ['AC', 'QD'], ['AD', '2S'], ['KC', '8C'], ['AS', 'KD']);
  return play(start('strict', fans), ['2>F']);
}

describe('refused attempts are explained in the engine’s words', () => {
  it('says why 8♣ cannot go on K♥', () => {
    expect(attemptProblem(workedExample(), fan(1), toFan(3))).toBe('8♣ cannot go on K♥: a card goes only on the next higher card of its own suit');
  });

  it('says why a card cannot go home', () => {
    expect(attemptProblem(workedExample(), fan(1), foundation)).toBe('8♣ cannot go to the foundation: its foundation starts with A♣');
  });

  it('says why a picked card has nowhere to go', () => {
    expect(stuckReason(workedExample(), fan(3))).toBe(
      'No move for K♥: K♥ cannot go to the foundation: its foundation starts with A♥, and no fan takes it',
    );
  });

  it('says a covered card cannot be played, and when the merci would come', () => {
    const covered = { kind: 'buried', card: card('2S') } as const;
    expect(stuckReason(workedExample(), covered)).toBe('2♠ is covered: only the top card of a fan can be played');
    const merci = start('merci', swap(DEAD, ['AC', 'QD'], ['AD', '2S'], ['KC', '8C']));
    expect(stuckReason(merci, covered)).toBe(
      '2♠ is covered: only the top card of a fan can be played (merci: the merci comes only in the last deal (2 redeals left))',
    );
  });

  it('explains moves the game has no action for', () => {
    const reserve = start('fan-reserve', DEAD);
    expect(actionFor({ kind: 'cell', cell: 0 }, { kind: 'cell', cell: 1 })).toBeUndefined();
    expect(attemptProblem(reserve, { kind: 'cell', cell: 0 }, { kind: 'cell', cell: 1 })).toBe(
      'a card in a cell can only go to its foundation or onto a fan',
    );
    expect(attemptProblem(reserve, { kind: 'buried', card: card('AC') }, { kind: 'cell', cell: 0 })).toBe('a covered card cannot go to a cell');
    expect(attemptProblem(reserve, { kind: 'cell', cell: 2 }, toFan(1))).toBe('cell 3 is empty');
  });

  it('asks the engine about an empty fan', () => {
    const emptied = play(start('strict', swap(DEAD, ['AD', 'KD'])), ['2>F', '2>F', '2>F']);
    expect(emptied.fans[1]).toEqual([]);
    expect(attemptProblem(emptied, fan(1), toFan(2))).toBe('fan 2 is empty, and an empty fan stays empty until the next redeal');
    expect(stuckReason(emptied, fan(2))).toBe('there is no card there');
  });
});

describe('names and keys', () => {
  it('writes an engine problem by its code, its cards as people read them, a nested problem inside', () => {
    expect(problemWords({ code: 'foundation-needs', card: card('TC'), needed: card('2C') })).toBe('10♣ cannot go to the foundation: its foundation needs 2♣ first');
    expect(problemWords({ code: 'in-deal', deal: 1, problem: { code: 'in-fan', fan: 3, problem: { code: 'card-twice', card: card('QH') } } })).toBe(
      'deals[1]: fan 3: Q♥ appears twice',
    );
    expect(problemWords({ code: 'merci-too-early', left: 1 })).toBe('the merci comes only in the last deal (1 redeal left)');
    expect(problemWords({ code: 'not-in-fans', card: 99 })).toBe('99 is not in the fans');
  });

  it('speaks the player’s language', async () => {
    await setLocale('fr', ['fr-FR'], 'every');
    expect(attemptProblem(workedExample(), fan(1), toFan(3))).toBe('8♣ ne peut pas aller sur K♥ : une carte ne va que sur la carte immédiatement supérieure de sa couleur');
    expect(describeAction(workedExample(), { type: 'fan-to-fan', from: 0, to: 8 })).toBe('8 de trèfle vers l’éventail 9');
    expect(targetList([toFan(2), foundation])).toBe('l’éventail 2 ou sa fondation');
    await setLocale('es', ['es-ES'], 'every');
    expect(problemWords({ code: 'no-cells', variant: 'strict' })).toBe('Estricta no tiene celdas de reserva');
    await setLocale('en', ['en-GB'], 'every');
  });

  it('describes actions for the live region', () => {
    const position = workedExample();
    expect(describeAction(position, { type: 'fan-to-fan', from: 0, to: 8 })).toBe('8 of clubs to fan 9');
    expect(describeAction(play(position, ['1>9']), { type: 'fan-to-foundation', from: 0 })).toBe('2 of spades to its foundation');
    expect(describeAction(position, { type: 'redeal' })).toBe('Redeal 1');
  });
});

describe('formatting', () => {
  it('finds the race code in a link or a typed code', () => {
    expect(codeFrom('https://lucie.example/race/k7mq2x')).toBe('K7MQ2X');
    expect(codeFrom('  K7MQ2X ')).toBe('K7MQ2X');
    expect(codeFrom('/r/ABCDEF/')).toBe('ABCDEF');
    expect(codeFrom('http://127.0.0.1:3000/race/ABCDEF?from=mail')).toBe('ABCDEF');
    expect(codeFrom('ABC')).toBeUndefined();
    expect(codeFrom('https://lucie.example/race/')).toBeUndefined();
  });

  it('writes durations as m:ss or h:mm:ss', () => {
    expect(duration(0)).toBe('0:00');
    expect(duration(65_400)).toBe('1:05');
    expect(duration(3_723_000)).toBe('1:02:03');
    expect(duration(-500)).toBe('0:00');
  });
});
