import { CARD_COUNT, makeCard, suitName, suitOf } from './card.js';
import type { Problem } from './problem.js';
import { RECORD_FIELDS, RECORD_FORMAT } from './record.js';
import { FAN_SIZE, VARIANT_IDS, type BuildRule } from './variant.js';

const BUILD_TEXT: { readonly [rule in BuildRule]: string } = {
  'same-suit-down': 'a card goes only on the next higher card of its own suit',
  'any-suit-down': 'a card goes only on a card one rank higher',
  'same-suit-up-or-down': 'a card goes only on a card of its own suit one rank higher or lower',
};

const CARD_RULE = 'rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠';
const ACTION_GRAMMAR = 'a>F, a>b, a>Cn, Cn>b, Cn>F, R, M XY>b or M XY>F';
const FANS_RULE = `fans of ${FAN_SIZE}, only the last shorter`;

/**
 * A problem in English, for the `lucie` command, logs and API consumers reading `message`; a
 * player's screen words it through the client's catalogue instead, by its code.
 */
export function problemText(problem: Problem): string {
  switch (problem.code) {
    case 'not-a-card':
      return `"${problem.text}" is not a card (${CARD_RULE})`;
    case 'not-an-action':
      return `"${problem.text}" is not an action (${ACTION_GRAMMAR})`;
    case 'unknown-variant':
      return `unknown variant "${problem.text}" (one of ${VARIANT_IDS.join(', ')})`;
    case 'card-spacing':
      return `"${problem.text}": cards must be separated by single spaces`;
    case 'in-fan':
      return `fan ${problem.fan}: ${problemText(problem.problem)}`;
    case 'card-twice':
      return `${makeCard(problem.card)} appears twice`;
    case 'card-not-dealt':
      return `${makeCard(problem.card)} should not be in this layout`;
    case 'cards-missing':
      return `missing ${problem.cards.map(makeCard).join(' ')}`;
    case 'fan-size':
      return `fan ${problem.fan} has ${problem.size} cards, should have ${problem.expected} (${FANS_RULE})`;
    case 'extra-fan':
      return `fan ${problem.fan} has ${problem.size} cards, should not be there (${problem.total} cards make ${problem.fans} fans of ${FAN_SIZE}, only the last shorter)`;
    case 'first-layout':
      return `the first layout is wrong: ${problemText(problem.problem)}`;
    case 'cell-count':
      return `${problem.variant} has ${problem.cells} reserve cells, not ${problem.size}`;
    case 'foundation-heights':
      return 'foundations must be four heights from 0 to 13 (C, D, H, S)';
    case 'aces-start':
      return `in ${problem.variant} the Aces start on the foundations`;
    case 'redeals-used':
      return `redeals used must be 0-${problem.redeals} in ${problem.variant}`;
    case 'no-fans':
      return 'a position needs at least one fan';
    case 'card-home':
      return `${makeCard(problem.card)} is already on its foundation`;
    case 'no-such-fan':
      return `there is no fan ${problem.fan} (this layout has fans 1-${problem.fans})`;
    case 'fan-empty':
      return `fan ${problem.fan} is empty`;
    case 'own-fan':
      return 'a card cannot move onto its own fan';
    case 'foundation-starts':
      return `${makeCard(problem.card)} cannot go to the foundation: the ${suitName(suitOf(problem.needed))} foundation starts with ${makeCard(problem.needed)}`;
    case 'foundation-needs':
      return `${makeCard(problem.card)} cannot go to the foundation: the ${suitName(suitOf(problem.needed))} foundation needs ${makeCard(problem.needed)} next`;
    case 'empty-fan-stays-empty':
      return `fan ${problem.fan} is empty, and an empty fan stays empty for the rest of the deal`;
    case 'king-only':
      return `only a King may go to the empty fan ${problem.fan}, not ${makeCard(problem.card)}`;
    case 'king-alone':
      return `${makeCard(problem.card)} is alone in its fan: moving it to another empty fan changes nothing`;
    case 'fan-full':
      return `${makeCard(problem.card)} cannot go on ${makeCard(problem.target)}: fan ${problem.fan} already holds ${problem.size} cards, the most a fan may hold in ${problem.variant}`;
    case 'cannot-build':
      return `${makeCard(problem.card)} cannot go on ${makeCard(problem.target)}: ${BUILD_TEXT[problem.rule]}`;
    case 'no-cells':
      return `reserve cells exist only in the fan-reserve variant, not in ${problem.variant}`;
    case 'no-such-cell':
      return `there is no cell ${problem.cell}`;
    case 'cell-empty':
      return `cell ${problem.cell} is empty`;
    case 'cell-full':
      return `cell ${problem.cell} already holds ${makeCard(problem.card)}`;
    case 'no-redeal':
      return `the ${problem.variant} variant has no redeal`;
    case 'no-redeal-left':
      return `no redeal left: all ${problem.redeals} have been used`;
    case 'game-won':
      return 'the game is won: there is nothing to redeal';
    case 'redeal-layout':
      return `the layout of redeal ${problem.redeal} is wrong: ${problemText(problem.problem)}`;
    case 'redeal-needs-layout':
      return 'a redeal needs the next layout';
    case 'no-merci':
      return `the merci exists only in the merci variant, not in ${problem.variant}`;
    case 'merci-used':
      return 'the merci has already been used';
    case 'merci-too-early':
      return `the merci comes only in the last deal (${problem.left} redeal${problem.left > 1 ? 's' : ''} left)`;
    case 'merci-not-needed':
      return `the merci is only for when no other move is legal (${problem.action} is)`;
    case 'not-in-fans':
      return `${problem.card >= 0 && problem.card < CARD_COUNT ? makeCard(problem.card) : `card ${problem.card}`} is not in the fans`;
    case 'merci-top-card':
      return `${makeCard(problem.card)} is the top card of fan ${problem.fan}, not a buried card`;
    case 'not-json':
      return `not JSON: ${problem.detail}`;
    case 'not-an-object':
      return 'a record must be a JSON object';
    case 'unknown-field':
      return `unknown field "${problem.name}" (fields: ${RECORD_FIELDS.join(', ')})`;
    case 'missing-field':
      return `missing field "${problem.name}"`;
    case 'not-a-string':
      return `"${problem.name}" must be a string`;
    case 'no-deals':
      return '"deals" must be a non-empty array of layouts';
    case 'deal-not-fans':
      return `deals[${problem.deal}] must be an array of fan strings`;
    case 'actions-not-strings':
      return '"actions" must be an array of strings';
    case 'meta-not-object':
      return '"meta" must be an object';
    case 'unsupported-format':
      return `unsupported format "${problem.text}" (expected "${RECORD_FORMAT}")`;
    case 'in-deal':
      // `deals[2] fan 1: ...` reads on; any other problem of a deal follows a colon.
      return `deals[${problem.deal}]${problem.problem.code === 'in-fan' ? ' ' : ': '}${problemText(problem.problem)}`;
    case 'redeal-without-layout':
      return `redeal ${problem.redeal} has no layout: deals[${problem.redeal}] is missing`;
    case 'deal-never-reached':
      return `deals[${problem.deal}] is never reached: only ${problem.redeals} redeal(s) were made`;
    case 'in-line':
      return `line ${problem.line}: ${problemText(problem.problem)}`;
    case 'not-a-foundation':
      return `"${problem.text}" is not a foundation (like C-0, D-A, H-T)`;
    case 'in-board':
      return `board: ${problemText(problem.problem)}`;
  }
}
