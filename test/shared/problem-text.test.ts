// Problems are data; `problemText` words each in English for the `lucie` command, logs and API consumers.
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODES, PROBLEM_PARAM_KINDS, PROBLEM_PARAMS, problemText, type Problem, type ProblemCode } from '../../shared/index.js';
import { cardNamed as card } from './helpers.js';

const TWICE: Problem = { code: 'card-twice', card: card('KC') };

/** One problem of every code with the sentence it reads as. */
const EXAMPLES: { readonly [code in ProblemCode]: readonly [Problem & { code: code }, string] } = {
  'not-a-card': [{ code: 'not-a-card', text: 'KX' }, '"KX" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)'],
  'not-an-action': [{ code: 'not-an-action', text: '1>f' }, '"1>f" is not an action (a>F, a>b, a>Cn, Cn>b, Cn>F, R, M XY>b or M XY>F)'],
  'unknown-variant': [{ code: 'unknown-variant', text: 'klondike' }, 'unknown variant "klondike" (one of strict, merci, trefoil, shamrocks, super-flower-garden, fan-reserve, kings-in-spaces, no-redeal)'],
  'card-spacing': [{ code: 'card-spacing', text: 'AC  AD' }, '"AC  AD": cards must be separated by single spaces'],
  'in-fan': [{ code: 'in-fan', fan: 2, problem: { code: 'not-a-card', text: 'ZZ' } }, 'fan 2: "ZZ" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)'],
  'card-twice': [{ code: 'card-twice', card: card('KC') }, 'KC appears twice'],
  'card-not-dealt': [{ code: 'card-not-dealt', card: card('AC') }, 'AC should not be in this layout'],
  'cards-missing': [{ code: 'cards-missing', cards: [card('AC'), card('AD')] }, 'missing AC AD'],
  'fan-size': [{ code: 'fan-size', fan: 1, size: 4, expected: 3 }, 'fan 1 has 4 cards, should have 3 (fans of 3, only the last shorter)'],
  'extra-fan': [{ code: 'extra-fan', fan: 19, size: 0, total: 52, fans: 18 }, 'fan 19 has 0 cards, should not be there (52 cards make 18 fans of 3, only the last shorter)'],
  'first-layout': [{ code: 'first-layout', problem: TWICE }, 'the first layout is wrong: KC appears twice'],
  'cell-count': [{ code: 'cell-count', variant: 'fan-reserve', cells: 4, size: 2 }, 'fan-reserve has 4 reserve cells, not 2'],
  'foundation-heights': [{ code: 'foundation-heights' }, 'foundations must be four heights from 0 to 13 (C, D, H, S)'],
  'aces-start': [{ code: 'aces-start', variant: 'trefoil' }, 'in trefoil the Aces start on the foundations'],
  'redeals-used': [{ code: 'redeals-used', variant: 'strict', redeals: 2 }, 'redeals used must be 0-2 in strict'],
  'no-fans': [{ code: 'no-fans' }, 'a position needs at least one fan'],
  'card-home': [{ code: 'card-home', card: card('AC') }, 'AC is already on its foundation'],
  'no-such-fan': [{ code: 'no-such-fan', fan: 19, fans: 18 }, 'there is no fan 19 (this layout has fans 1-18)'],
  'fan-empty': [{ code: 'fan-empty', fan: 18 }, 'fan 18 is empty'],
  'own-fan': [{ code: 'own-fan' }, 'a card cannot move onto its own fan'],
  'foundation-starts': [{ code: 'foundation-starts', card: card('KC'), needed: card('AC') }, 'KC cannot go to the foundation: the clubs foundation starts with AC'],
  'foundation-needs': [{ code: 'foundation-needs', card: card('4C'), needed: card('2C') }, '4C cannot go to the foundation: the clubs foundation needs 2C next'],
  'empty-fan-stays-empty': [{ code: 'empty-fan-stays-empty', fan: 1 }, 'fan 1 is empty, and an empty fan stays empty for the rest of the deal'],
  'king-only': [{ code: 'king-only', fan: 17, card: card('JC') }, 'only a King may go to the empty fan 17, not JC'],
  'king-alone': [{ code: 'king-alone', card: card('KC') }, 'KC is alone in its fan: moving it to another empty fan changes nothing'],
  'fan-full': [
    { code: 'fan-full', card: card('8C'), target: card('9C'), fan: 9, size: 3, variant: 'shamrocks' },
    '8C cannot go on 9C: fan 9 already holds 3 cards, the most a fan may hold in shamrocks',
  ],
  'cannot-build': [{ code: 'cannot-build', card: card('8C'), target: card('9S'), rule: 'same-suit-down' }, '8C cannot go on 9S: a card goes only on the next higher card of its own suit'],
  'no-cells': [{ code: 'no-cells', variant: 'strict' }, 'reserve cells exist only in the fan-reserve variant, not in strict'],
  'no-such-cell': [{ code: 'no-such-cell', cell: 5 }, 'there is no cell 5'],
  'cell-empty': [{ code: 'cell-empty', cell: 2 }, 'cell 2 is empty'],
  'cell-full': [{ code: 'cell-full', cell: 1, card: card('KC') }, 'cell 1 already holds KC'],
  'no-redeal': [{ code: 'no-redeal', variant: 'no-redeal' }, 'the no-redeal variant has no redeal'],
  'no-redeal-left': [{ code: 'no-redeal-left', redeals: 2 }, 'no redeal left: all 2 have been used'],
  'game-won': [{ code: 'game-won' }, 'the game is won: there is nothing to redeal'],
  'redeal-layout': [{ code: 'redeal-layout', redeal: 1, problem: { code: 'cards-missing', cards: [card('KS')] } }, 'the layout of redeal 1 is wrong: missing KS'],
  'redeal-needs-layout': [{ code: 'redeal-needs-layout' }, 'a redeal needs the next layout'],
  'no-merci': [{ code: 'no-merci', variant: 'strict' }, 'the merci exists only in the merci variant, not in strict'],
  'merci-used': [{ code: 'merci-used' }, 'the merci has already been used'],
  'merci-too-early': [{ code: 'merci-too-early', left: 1 }, 'the merci comes only in the last deal (1 redeal left)'],
  'merci-not-needed': [{ code: 'merci-not-needed', action: '2>F' }, 'the merci is only for when no other move is legal (2>F is)'],
  'not-in-fans': [{ code: 'not-in-fans', card: card('AS') }, 'AS is not in the fans'],
  'merci-top-card': [{ code: 'merci-top-card', card: card('KC'), fan: 1 }, 'KC is the top card of fan 1, not a buried card'],
  'not-json': [{ code: 'not-json', detail: 'Unexpected end of JSON input' }, 'not JSON: Unexpected end of JSON input'],
  'not-an-object': [{ code: 'not-an-object' }, 'a record must be a JSON object'],
  'unknown-field': [{ code: 'unknown-field', name: 'player' }, 'unknown field "player" (fields: format, variant, seed, deals, actions, meta)'],
  'missing-field': [{ code: 'missing-field', name: 'deals' }, 'missing field "deals"'],
  'not-a-string': [{ code: 'not-a-string', name: 'seed' }, '"seed" must be a string'],
  'no-deals': [{ code: 'no-deals' }, '"deals" must be a non-empty array of layouts'],
  'deal-not-fans': [{ code: 'deal-not-fans', deal: 1 }, 'deals[1] must be an array of fan strings'],
  'actions-not-strings': [{ code: 'actions-not-strings' }, '"actions" must be an array of strings'],
  'meta-not-object': [{ code: 'meta-not-object' }, '"meta" must be an object'],
  'unsupported-format': [{ code: 'unsupported-format', text: 'lucie-record/0' }, 'unsupported format "lucie-record/0" (expected "lucie-record/1")'],
  'in-deal': [{ code: 'in-deal', deal: 0, problem: { code: 'first-layout', problem: TWICE } }, 'deals[0]: the first layout is wrong: KC appears twice'],
  'redeal-without-layout': [{ code: 'redeal-without-layout', redeal: 1 }, 'redeal 1 has no layout: deals[1] is missing'],
  'deal-never-reached': [{ code: 'deal-never-reached', deal: 1, redeals: 0 }, 'deals[1] is never reached: only 0 redeal(s) were made'],
  'in-line': [{ code: 'in-line', line: 3, problem: { code: 'not-a-foundation', text: 'C-Z' } }, 'line 3: "C-Z" is not a foundation (like C-0, D-A, H-T)'],
  'not-a-foundation': [{ code: 'not-a-foundation', text: 'C-Z' }, '"C-Z" is not a foundation (like C-0, D-A, H-T)'],
  'in-board': [{ code: 'in-board', problem: TWICE }, 'board: KC appears twice'],
};

describe('problems', () => {
  it.each(PROBLEM_CODES)('%s reads as its English sentence', (code) => {
    const [problem, text] = EXAMPLES[code];
    expect(problemText(problem)).toBe(text);
  });

  it('list their parameters by name, each name of one kind, as the examples carry them', () => {
    for (const code of PROBLEM_CODES) {
      const [problem] = EXAMPLES[code];
      expect(Object.keys(problem).filter((key) => key !== 'code').sort(), code).toEqual([...PROBLEM_PARAMS[code]].sort());
      for (const name of PROBLEM_PARAMS[code]) expect(Object.keys(PROBLEM_PARAM_KINDS)).toContain(name);
    }
  });

  it('nest: a deal names its fan without a colon, anything else after one', () => {
    expect(problemText({ code: 'in-deal', deal: 2, problem: { code: 'in-fan', fan: 2, problem: { code: 'not-a-card', text: 'ZZ' } } })).toBe(
      'deals[2] fan 2: "ZZ" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)',
    );
  });
});
