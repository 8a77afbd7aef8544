import { actionFor, cardAt, cardLabel, CARD_COUNT, makeAction, PROBLEM_PARAM_KINDS, sourceOf, targetOf, type Action, type Position, type Problem, type Source, type Target } from './engine.js';
import { cardSpoken } from './card-names.js';
import { variantName } from './format.js';
import { formatLocale, t, type Values } from './i18n.svelte.js';
import { listFormat } from './intl.js';

// The board's words: what a move does and why an attempt is refused, from the engine's problem
// codes through the catalogue (`problem.*`). Where a card may go is the engine's geometry
// (`shared/compat.ts`).

/** A card as the board shows it in a sentence: `8♣` (a number off the deck, from a broken record, as it is). */
const shownCard = (card: number): string => (Number.isInteger(card) && card >= 0 && card < CARD_COUNT ? cardLabel(card) : String(card));

/** An engine problem in the player's language, each parameter written by its kind (a card as `8♣`, a nested problem by its own message). */
export function problemWords(problem: Problem): string {
  const values: Record<string, Values[string]> = {};
  for (const [name, value] of Object.entries(problem) as [keyof typeof PROBLEM_PARAM_KINDS | 'code', unknown][]) {
    if (name === 'code') continue;
    const kind = PROBLEM_PARAM_KINDS[name];
    if (kind === 'card') values[name] = shownCard(value as number);
    else if (kind === 'cards') values[name] = (value as number[]).map(shownCard).join(' ');
    else if (kind === 'variant') values[name] = variantName(value as Parameters<typeof variantName>[0]);
    else if (kind === 'build-rule') values[name] = t(`build-rule.${value as 'same-suit-down'}`);
    else if (kind === 'problem') values[name] = problemWords(value as Problem);
    else values[name] = value as string | number;
  }
  return t(`problem.${problem.code}`, values);
}

/** Where a move goes, in words: `its foundation`, `fan 5`, `cell 2`. */
export function targetName(target: Target): string {
  return t('board.target', { kind: target.kind, number: target.kind === 'fan' ? target.fan + 1 : target.kind === 'cell' ? target.cell + 1 : 0 });
}

/** Why moving `source` to `target` is refused, in the engine's reasons. */
export function attemptProblem(position: Position, source: Source, target: Target): string {
  const action = actionFor(source, target);
  if (!action) return t(source.kind === 'cell' ? 'board.cell-goes' : 'board.covered-to-cell');
  const problem = position.problem(action);
  return problem ? problemWords(problem) : t('board.not-now', { action: makeAction(action) });
}

/** Why a picked source has nowhere to go: the engine's reason for its foundation, and the fact that no fan takes it. */
export function stuckReason(position: Position, source: Source): string {
  const card = cardAt(position, source);
  if (card === undefined) return source.kind === 'cell' ? t('problem.cell-empty', { cell: source.cell + 1 }) : t('board.no-card');
  const label = cardLabel(card);
  if (source.kind === 'buried') {
    const covered = t('board.covered', { card: label });
    if (!position.rules.merci) return covered;
    const merci = position.problem({ type: 'merci', card, to: null });
    return t('board.covered-merci', { covered, merci: merci ? problemWords(merci) : t('board.merci-nowhere') });
  }
  const toFoundation = position.problem(actionFor(source, { kind: 'foundation' })!);
  return t('board.stuck', { card: label, foundation: toFoundation ? problemWords(toFoundation) : t('board.not-home', { card: label }) });
}

/** The places a picked card may go, as one phrase: `fan 3 or its foundation`. */
export const targetList = (targets: readonly Target[]): string =>
  listFormat(formatLocale(), { type: 'disjunction' }).format(targets.map(targetName));

/** A short sentence for screen readers and the move log: "8 of clubs to fan 5". */
export function describeAction(position: Position, action: Action): string {
  if (action.type === 'redeal') return t('board.redeal-number', { number: position.redealsUsed + 1 });
  const card = cardAt(position, sourceOf(action)!);
  const target = targetOf(action)!;
  return t('board.move', {
    merci: action.type === 'merci' ? 'yes' : 'no',
    card: card === undefined ? makeAction(action) : cardSpoken(card),
    where: targetName(target),
  });
}
