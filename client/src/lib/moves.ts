import {
  actionFor,
  cardAt,
  cardLabel,
  cardName,
  makeAction,
  parseCard,
  problemText,
  sourceOf,
  suitName,
  suitOf,
  targetOf,
  type Action,
  type Position,
  type Problem,
  type Source,
  type Target,
} from './engine.js';

// The board's words: what a move does and why an attempt is refused, in the engine's reasons.
// Where a card may go is the engine's geometry (`shared/compat.ts`).

/** Engine reasons name cards as `8C`; people read `8♣`. */
export const humanize = (reason: string): string =>
  reason.replace(/\b(?:[2-9TJQKA])[CDHS]\b/g, (code) => {
    const card = parseCard(code);
    return card.ok ? cardLabel(card.value) : code;
  });

/** An engine problem as the board words it (English until the message catalogue words it by its code). */
export const problemWords = (problem: Problem): string => humanize(problemText(problem));

export function targetName(target: Target): string {
  switch (target.kind) {
    case 'foundation':
      return 'its foundation';
    case 'fan':
      return `fan ${target.fan + 1}`;
    case 'cell':
      return `cell ${target.cell + 1}`;
  }
}

/** Why moving `source` to `target` is refused, in the engine's words. */
export function attemptProblem(position: Position, source: Source, target: Target): string {
  const action = actionFor(source, target);
  if (!action) return source.kind === 'cell' ? 'a card in a cell can only go to its foundation or onto a fan' : 'a covered card cannot go to a cell';
  const problem = position.problem(action);
  return problem ? problemWords(problem) : `${makeAction(action)} is not available right now`;
}

/** Why a picked source has nowhere to go: the engine's reason for its foundation, and the fact that no fan takes it. */
export function stuckReason(position: Position, source: Source): string {
  const card = cardAt(position, source);
  if (card === undefined) return source.kind === 'cell' ? `cell ${source.cell + 1} is empty` : 'there is no card there';
  const label = cardLabel(card);
  if (source.kind === 'buried') {
    const covered = `${label} is covered: only the top card of a fan can be played`;
    if (!position.rules.merci) return covered;
    const merci = position.problem({ type: 'merci', card, to: null });
    return `${covered} (merci: ${merci ? problemWords(merci) : 'it has nowhere to go'})`;
  }
  const toFoundation = position.problem(actionFor(source, { kind: 'foundation' })!);
  const foundation = toFoundation ? problemWords(toFoundation) : `${label} cannot go to the foundation`;
  return `No move for ${label}: ${foundation}, and no fan takes it`;
}

/** A short sentence for screen readers and the move log: "8♣ to fan 5". */
export function describeAction(position: Position, action: Action): string {
  if (action.type === 'redeal') return `Redeal ${position.redealsUsed + 1}`;
  const source = sourceOf(action)!;
  const card = cardAt(position, source);
  const target = targetOf(action)!;
  const what = card === undefined ? makeAction(action) : cardName(card);
  const where = target.kind === 'foundation' && card !== undefined ? `the ${suitName(suitOf(card))} foundation` : targetName(target);
  return `${action.type === 'merci' ? 'Merci: ' : ''}${what} to ${where}`;
}
