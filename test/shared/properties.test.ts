// Properties of the engine over random playouts of every variant (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PROBLEM_CODES,
  problemText,
  DECK,
  Position,
  VARIANT_IDS,
  applyAction,
  cardOf,
  dealFans,
  dealLayout,
  makeAction,
  makeLayout,
  makeRecord,
  parseAction,
  parseRecord,
  recordOf,
  redealLayout,
  replayRecord,
  verifyRecord,
  type Action,
  type Card,
  type GameRecord,
  type Layout,
  type VariantId,
} from '../../shared/index.js';
import { census, snapshot } from './helpers.js';

// A failing playout shrinks slowly (hundreds of picks): report what shrinking found by then.
fc.configureGlobal({ interruptAfterTimeLimit: 20_000 });

const variants = fc.constantFrom(...VARIANT_IDS);
const seeds = fc.string({ maxLength: 12 });
/**
 * Each number picks the next action: 0 mod 8 redeals when a redeal is legal, anything else picks a
 * move. Long enough to finish most games (reaching the merci, emptied fans, full cells...).
 */
const picks = fc.array(fc.nat(), { minLength: 20, maxLength: 400, size: 'max' });

/** The next layout a redeal would deal from `seed`, as the server deals it. */
const nextLayout = (seed: string, position: Position): Layout =>
  redealLayout(seed, position.redealsUsed + 1, position.gatheredCards());

/** Every action of every shape the position could be asked about, fans and cells out of range included. */
function candidates(position: Position): Action[] {
  const fans = Array.from({ length: position.fans.length + 2 }, (_, i) => i - 1);
  const cells = [-1, 0, 1, 2, 3, 4];
  const actions: Action[] = [{ type: 'redeal' }];
  for (const from of fans) {
    actions.push({ type: 'fan-to-foundation', from });
    for (const to of fans) actions.push({ type: 'fan-to-fan', from, to });
    for (const cell of cells) actions.push({ type: 'fan-to-cell', from, cell });
  }
  for (const cell of cells) {
    actions.push({ type: 'cell-to-foundation', cell });
    for (const to of fans) actions.push({ type: 'cell-to-fan', cell, to });
  }
  for (const card of DECK) {
    actions.push({ type: 'merci', card, to: null });
    for (const to of fans) actions.push({ type: 'merci', card, to });
  }
  return actions;
}

/** An action is legal exactly when legalActions() lists it; a legal one plays, an illegal one gets a reason. */
function expectLegalityAgrees(position: Position, seed: string): void {
  const legal = new Set(position.legalActions().map(makeAction));
  const layout = nextLayout(seed, position);
  const disagreements: string[] = [];
  for (const action of candidates(position)) {
    const next = action.type === 'redeal' ? layout : undefined;
    const problem = position.problem(action, next);
    const listed = legal.has(makeAction(action));
    if (listed && problem !== undefined) disagreements.push(`${makeAction(action)} is listed, yet: ${problemText(problem)}`);
    if (!listed && (problem === undefined || !PROBLEM_CODES.includes(problem.code) || applyAction(position, action, next).ok)) {
      disagreements.push(`${JSON.stringify(action)} is not listed, yet it is accepted`);
    }
  }
  expect(disagreements).toEqual([]);
}

interface Game {
  readonly final: Position;
  readonly record: GameRecord;
}

/**
 * Plays the legal actions `picks` chooses from the seed's deal, checking after every action that
 * the 52 cards are all still there once each, and that status() agrees with legalActions().
 */
function playout(variant: VariantId, seed: string, choices: readonly number[], visit?: (position: Position, step: number) => void): Game {
  const deals: Layout[] = [dealLayout(seed, variant)];
  const started = Position.start(variant, deals[0]!);
  if (!started.ok) throw new Error(problemText(started.error));
  let position = started.value;
  const actions: Action[] = [];
  const check = (step: number) => {
    const legal = position.legalActions();
    const status = position.status();
    // Cheap checks first; expect() only to report what went wrong.
    const held = census(position);
    if (held.some((count) => count !== 1)) expect(held).toEqual(Array(52).fill(1));
    if (status.over !== (legal.length === 0)) expect({ over: status.over, legal: legal.map(makeAction) }).toEqual({ over: true, legal: [] });
    if (status.won !== (status.foundations === 52)) expect(status).toMatchObject({ won: status.foundations === 52 });
    if (status.redealsUsed + status.redealsLeft !== position.rules.redeals) expect(status.redealsUsed + status.redealsLeft).toBe(position.rules.redeals);
    visit?.(position, step);
    return legal;
  };
  for (const [step, choice] of choices.entries()) {
    const legal = check(step);
    if (legal.length === 0) break;
    const moves = legal.filter((action) => action.type !== 'redeal');
    const redeal = legal.find((action) => action.type === 'redeal');
    const action = redeal && (choice % 8 === 0 || moves.length === 0) ? redeal : moves[choice % moves.length]!;
    let next: Layout | undefined;
    if (action.type === 'redeal') deals.push((next = nextLayout(seed, position)));
    for (const each of legal) {
      const problem = position.problem(each, each.type === 'redeal' ? nextLayout(seed, position) : undefined);
      if (problem !== undefined) expect(problem, `${makeAction(each)} is listed`).toBeUndefined();
    }
    const played = applyAction(position, action, next);
    if (!played.ok) throw new Error(`${makeAction(action)}: ${problemText(played.error)}`);
    position = played.value;
    actions.push(action);
  }
  check(choices.length);
  return { final: position, record: recordOf(variant, deals, actions, { seed }) };
}

describe('properties of random playouts', () => {
  it('conserve the 52 cards, play every listed action, and never throw, in every variant', () => {
    fc.assert(
      fc.property(variants, seeds, picks, (variant, seed, choices) => {
        playout(variant, seed, choices);
      }),
      { numRuns: 120 },
    );
  });

  it('list exactly the legal actions: any other action of any shape is refused with a reason', () => {
    fc.assert(
      fc.property(variants, seeds, picks, fc.nat(), (variant, seed, choices, offset) => {
        playout(variant, seed, choices, (position, step) => {
          if ((step + offset) % 4 === 0 || position.status().over) expectLegalityAgrees(position, seed);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('leave nothing legal once the game is over', () => {
    fc.assert(
      fc.property(variants, seeds, (variant, seed) => {
        // Keep playing the second listed move (redealing only when stuck) until the game ends.
        const { final } = playout(variant, seed, Array(400).fill(1));
        // Play cannot cycle in these variants, so 400 actions always end the game.
        if (['strict', 'merci', 'trefoil', 'kings-in-spaces', 'no-redeal'].includes(variant)) expect(final.status().over).toBe(true);
        if (!final.status().over) return;
        expect(final.legalActions()).toEqual([]);
        expectLegalityAgrees(final, seed);
      }),
      { numRuns: 40 },
    );
  });

  it('replay from their record to the same final position, and verify with the same status', () => {
    fc.assert(
      fc.property(variants, seeds, picks, (variant, seed, choices) => {
        const { final, record } = playout(variant, seed, choices);
        const text = JSON.stringify(makeRecord(record));
        const parsed = parseRecord(text);
        expect(parsed).toEqual({ ok: true, value: record });
        const replay = replayRecord(record);
        expect(replay.ok).toBe(true);
        if (!replay.ok) return;
        expect(snapshot(replay.value)).toEqual(snapshot(final));
        expect(replay.value.merciUsed).toBe(final.merciUsed);
        const { foundations, won, over, redealsUsed } = final.status();
        expect(verifyRecord(text)).toEqual({ ok: true, foundations, won, over, redealsUsed });
      }),
      { numRuns: 120 },
    );
  });

  it('verify the first illegal action at its index, with the reason problem() gives', () => {
    fc.assert(
      fc.property(variants, seeds, picks, fc.nat(), (variant, seed, choices, pick) => {
        const { final, record } = playout(variant, seed, choices);
        const legal = new Set(final.legalActions().map(makeAction));
        const illegal = candidates(final).filter((action) => !legal.has(makeAction(action)));
        const text = makeAction(illegal[pick % illegal.length]!);
        // Out-of-range fans and cells write as text the grammar refuses (`0>F`, `C5>1`).
        const action = parseAction(text);
        const problem = action.ok ? final.problem(action.value) : action.error;
        const outcome = verifyRecord(JSON.stringify(makeRecord({ ...record, actions: [...record.actions, text, 'R'] })));
        expect(outcome).toEqual({ ok: false, index: record.actions.length, action: text, problem });
        expect(PROBLEM_CODES).toContain(problem?.code);
      }),
      { numRuns: 100 },
    );
  });

  it('cut short anywhere, verify as far as they go; deals past the last redeal kept are never reached', () => {
    fc.assert(
      fc.property(variants, seeds, picks, fc.nat(), (variant, seed, choices, cut) => {
        const { record } = playout(variant, seed, choices);
        const kept = record.actions.slice(0, record.actions.length === 0 ? 0 : cut % (record.actions.length + 1));
        const redeals = kept.filter((action) => action === 'R').length;
        const prefix: GameRecord = { ...record, actions: kept, deals: record.deals.slice(0, redeals + 1) };
        expect(verifyRecord(JSON.stringify(makeRecord(prefix))).ok).toBe(true);
        if (record.deals.length > redeals + 1) {
          const extra: GameRecord = { ...record, actions: kept };
          expect(verifyRecord(makeRecord(extra))).toEqual({
            ok: false,
            index: null,
            problem: { code: 'deal-never-reached', deal: redeals + 1, redeals },
          });
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('properties of notation', () => {
  it('parse(make(record)) is the record, for any record', () => {
    const layouts = fc
      .tuple(fc.shuffledSubarray([...DECK]), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 20 }))
      .map(([cards, cuts]) => {
        const fans: Card[][] = [];
        let i = 0;
        for (const cut of cuts) fans.push(cards.slice(i, (i += cut)));
        fans.push(cards.slice(i));
        return fans;
      });
    const record: fc.Arbitrary<GameRecord> = fc.record(
      {
        variant: variants,
        seed: fc.string(),
        deals: fc.array(layouts, { minLength: 1, maxLength: 4 }),
        actions: fc.array(fc.oneof(fc.string(), fc.constantFrom('R', '1>F', '3>9', 'M QD>F', '2>C1', 'C4>18'))),
        meta: fc.dictionary(fc.string(), fc.jsonValue()).map((meta) => JSON.parse(JSON.stringify(meta)) as Record<string, unknown>),
      },
      { requiredKeys: ['variant', 'deals', 'actions'] },
    );
    fc.assert(
      fc.property(record, (value) => {
        const json = makeRecord(value);
        expect(parseRecord(json)).toEqual({ ok: true, value });
        expect(parseRecord(JSON.stringify(json))).toEqual({ ok: true, value });
        expect(JSON.stringify(makeRecord((parseRecord(JSON.stringify(json)) as { value: GameRecord }).value))).toBe(JSON.stringify(json));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the redeal fairness rule', () => {
  /**
   * A layout whose first fans hold the cards `home` (in the order they go home, lowest on top),
   * the other cards after them in the order given: playing `n>F` fan by fan brings `home` home.
   */
  function homeFirst(home: readonly Card[], rest: readonly Card[]): { layout: Layout; actions: Action[] } {
    const fans: Card[][] = [];
    const actions: Action[] = [];
    const others = [...rest];
    for (let i = 0; i < home.length; i += 3) {
      const chunk = home.slice(i, i + 3).reverse();
      fans.push([...others.splice(0, 3 - chunk.length), ...chunk]);
      for (const _ of chunk) actions.push({ type: 'fan-to-foundation', from: fans.length - 1 });
    }
    return { layout: [...fans, ...dealFans(others)], actions };
  }

  it('gives two positions holding the same cards in different arrangements the same redeal layout', () => {
    const heights = fc.tuple(fc.nat(13), fc.nat(13), fc.nat(13), fc.nat(12));
    fc.assert(
      fc.property(
        fc.constantFrom<VariantId>('strict', 'merci', 'fan-reserve', 'kings-in-spaces', 'shamrocks', 'super-flower-garden'),
        seeds,
        heights,
        fc.nat(),
        fc.integer({ min: 1, max: 2 }),
        (variant, seed, height, shuffle, k) => {
          const home = height.flatMap((h, suit) => Array.from({ length: h }, (_, rank) => cardOf(suit, rank)));
          const rest = DECK.filter((card) => !home.includes(card));
          const arrangements = [rest, dealLayout(`${seed}/${shuffle}`, 'strict').flat().filter((card) => rest.includes(card))];
          const positions = arrangements.map((order, n) => {
            const { layout, actions } = homeFirst(home, order);
            const started = Position.start(variant, layout);
            if (!started.ok) throw new Error(problemText(started.error));
            let position = started.value;
            for (const action of actions) {
              const played = applyAction(position, action);
              if (!played.ok) throw new Error(problemText(played.error));
              position = played.value;
            }
            // In fan-reserve the second racer holds one card in a cell: a redeal gathers it too.
            if (variant === 'fan-reserve' && n === 1) {
              const from = position.fans.findIndex((fan) => fan.length > 0);
              if (from >= 0) position = (applyAction(position, { type: 'fan-to-cell', from, cell: 2 }) as { value: Position }).value;
            }
            return position;
          });
          const [a, b] = positions as [Position, Position];
          expect(a.foundationCount()).toBe(home.length);
          expect(b.foundations).toEqual(a.foundations);
          expect(b.gatheredCards()).toEqual(a.gatheredCards());
          const layoutA = redealLayout(seed, k, a.gatheredCards());
          expect(redealLayout(seed, k, b.gatheredCards())).toEqual(layoutA);
          expect(makeLayout(layoutA).join(' ').split(' ').filter(Boolean)).toHaveLength(rest.length);
          expect(a.problem({ type: 'redeal' }, layoutA)).toBeUndefined();
          expect(b.problem({ type: 'redeal' }, layoutA)).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });
});
