// The replay viewer's model: every position of a record rebuilt with the shared engine, the
// record file's verdict, and where a tampered record breaks.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { problemWords } from '../../client/src/lib/moves.js';
import { buildReplay, openRecord, recordFileName, recordText } from '../../client/src/lib/replay.js';
import {
  problemText,
  dealLayout,
  makeBoard,
  makeRecord,
  parseRecord,
  Position,
  recordOf,
  redealLayout,
  replayRecord,
  verifyRecord,
  type Action,
  type GameRecord,
  type Layout,
} from '../../shared/index.js';
import { layout, WINNABLE, WINNING_ACTIONS } from '../shared/helpers.js';

beforeAll(() => setLocale('en', [], 'every'));

/** Plays a seed to the end the simple way (home first, a redeal only when nothing else is left). */
function playedRecord(seed: string): GameRecord {
  const deals: Layout[] = [dealLayout(seed, 'strict')];
  const start = Position.start('strict', deals[0]!);
  if (!start.ok) throw new Error(problemText(start.error));
  const position = start.value;
  const actions: Action[] = [];
  for (;;) {
    const legal = position.legalActions();
    const action = legal.find((a) => a.type === 'fan-to-foundation') ?? legal.find((a) => a.type !== 'redeal') ?? legal[0];
    if (!action) break;
    let next: Layout | undefined;
    if (action.type === 'redeal') deals.push((next = redealLayout(seed, position.redealsUsed + 1, position.gatheredCards())));
    position.play(action, next);
    actions.push(action);
  }
  return recordOf('strict', deals, actions, { seed, meta: { player: 'Ana' } });
}

const game = playedRecord('replay-viewer');
const text = recordText(makeRecord(game));

describe('buildReplay', () => {
  it('keeps one position per step, the last one being the engine’s final position', () => {
    const replay = buildReplay(game);
    expect(replay.failure).toBeNull();
    expect(replay.positions).toHaveLength(game.actions.length + 1);
    expect(replay.steps.map((step) => step.text)).toEqual(game.actions);
    expect(replay.steps.every((step) => step.playable)).toBe(true);
    expect(replay.positions[0]!.fans).toEqual(game.deals[0]);
    const final = replayRecord(game);
    expect(final.ok && makeBoard(replay.positions.at(-1)!)).toBe(final.ok && makeBoard(final.value));
    // Each position is its own copy: stepping back shows the earlier table.
    expect(new Set(replay.positions).size).toBe(replay.positions.length);
    expect(replay.positions[1]!.foundationCount() + replay.positions[1]!.fans.flat().length).toBe(52);
    expect(makeBoard(replay.positions[0]!)).not.toBe(makeBoard(replay.positions[1]!));
  });

  it('says what each step did and in which deal', () => {
    const replay = buildReplay({ variant: 'strict', deals: [layout(WINNABLE)], actions: WINNING_ACTIONS });
    expect(replay.steps[0]).toEqual({ text: '1>F', card: 'A♣', description: 'Ace of clubs to its foundation', deal: 0, playable: true });
    expect(replay.positions.at(-1)!.status()).toMatchObject({ won: true, over: true, foundations: 52 });

    // This seed's game redeals twice.
    const steps = buildReplay(game).steps;
    const redeals = steps.filter((step) => step.text === 'R');
    expect(redeals.map((step) => [step.description, step.card, step.deal])).toEqual([
      ['Redeal 1', null, 0],
      ['Redeal 2', null, 1],
    ]);
    expect(steps[game.actions.indexOf('R') + 1]!.deal).toBe(1);
    expect(steps.at(-1)!.deal).toBe(2);
  });
});

describe('openRecord', () => {
  it('verifies a downloaded record and replays it in full', () => {
    const opened = openRecord(text);
    expect(opened.verdict).toEqual(verifyRecord(text));
    expect(opened.verdict.ok).toBe(true);
    const status = replayRecord(game);
    expect(opened.verdict).toMatchObject({ foundations: status.ok && status.value.foundationCount(), over: true });
    expect(opened.replay!.positions).toHaveLength(game.actions.length + 1);
  });

  it('shows where a tampered record breaks, playable up to the step before', () => {
    // Fan 18 holds one card: a second move from it, right after the first, is illegal.
    const broken = game.actions.indexOf('18>16') + 1;
    expect(broken).toBeGreaterThan(1);
    const actions = [...game.actions];
    actions[broken] = '18>F';
    const tampered = JSON.stringify({ ...makeRecord(game), actions });
    const opened = openRecord(tampered);
    expect(opened.verdict).toMatchObject({ ok: false, index: broken, action: actions[broken] });
    const replay = opened.replay!;
    expect(replay.failure).toMatchObject({ index: broken, action: actions[broken] });
    expect(replay.positions).toHaveLength(broken + 1);
    expect(replay.steps).toHaveLength(actions.length);
    expect(replay.steps.slice(0, broken).every((step) => step.playable)).toBe(true);
    expect(replay.steps[broken]).toMatchObject({ text: actions[broken], playable: false, card: null });
    expect(replay.steps[broken]!.description).toBe(problemWords(replay.failure!.problem));
    expect(replay.failure!.problem).toMatchObject({ fan: 18 });
    expect(replay.steps.slice(broken + 1).every((step) => !step.playable && step.description.startsWith('not played'))).toBe(true);
  });

  it('writes the engine’s reason with card symbols', () => {
    const opened = openRecord(JSON.stringify({ format: 'lucie-record/1', variant: 'strict', deals: [WINNABLE], actions: ['2>F'] }));
    expect(opened.verdict).toEqual({ ok: false, index: 0, action: '2>F', problem: { code: 'foundation-starts', card: 3, needed: 0 } });
    expect(opened.replay!.steps[0]!.description).toBe('4♣ cannot go to the foundation: its foundation starts with A♣');
    expect(opened.replay!.positions).toHaveLength(1);
  });

  it('gives no replay for a record that cannot be read, with the engine’s reason', () => {
    expect(openRecord('{"format":')).toMatchObject({ verdict: { ok: false, index: null }, replay: null });
    expect(openRecord(JSON.stringify({ ...makeRecord(game), format: 'lucie-record/2' }))).toEqual({
      verdict: { ok: false, index: null, problem: { code: 'unsupported-format', text: 'lucie-record/2' } },
      replay: null,
    });
    const missingCard = { ...makeRecord(game), deals: [makeRecord(game).deals[0]!.slice(0, -1)] };
    expect(openRecord(JSON.stringify(missingCard))).toMatchObject({ verdict: { ok: false, index: null }, replay: null });
  });

  it('replays a record in full yet reports a deal that no redeal reaches', () => {
    const extra = { format: 'lucie-record/1', variant: 'strict', deals: [WINNABLE, WINNABLE], actions: ['1>F'] };
    const opened = openRecord(JSON.stringify(extra));
    expect(opened.verdict).toEqual({ ok: false, index: null, problem: { code: 'deal-never-reached', deal: 1, redeals: 0 } });
    expect(opened.replay!.positions).toHaveLength(2);
    expect(opened.replay!.steps.every((step) => step.playable)).toBe(true);
  });
});

describe('record files', () => {
  it('writes lucie-record/1 text that reads back to the same game', () => {
    expect(JSON.parse(text)).toEqual(makeRecord(game));
    expect(text.endsWith('}\n')).toBe(true);
    const back = parseRecord(text);
    expect(back.ok && back.value).toEqual(game);
  });

  it('names the file after what the game was', () => {
    expect(recordFileName({ kind: 'daily', where: '2026-11-29', player: 'Ana Lía', id: 12 })).toBe('lucie-daily-2026-11-29-ana-lia-game-12.json');
    expect(recordFileName({ kind: 'race', where: 'K7MQ2X', player: 'Bo' })).toBe('lucie-race-k7mq2x-bo.json');
    expect(recordFileName({})).toBe('lucie.json');
  });
});
