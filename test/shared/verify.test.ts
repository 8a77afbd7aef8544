// The `lucie verify` contract of docs/record-format.md, one record at a time (cli.test.ts runs the command).
import { describe, expect, it } from 'vitest';
import { verifyLine } from '../../cli/verify-line.js';
import { dealFans, dealLayout, makeLayout, verifyRecord, type ProblemCode } from '../../shared/index.js';
import { DEAD, DEAD_TREFOIL, WINNABLE, WINNING_ACTIONS, swap } from './helpers.js';

const WORKED = swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']);
const ACTION_GRAMMAR = '(a>F, a>b, a>Cn, Cn>b, Cn>F, R, M XY>b or M XY>F)';
/** WINNABLE after AC 2C 3C went home, dealt again in canonical order: 17 fans, KS alone last. */
const CLUBS_REDEALT = makeLayout(dealFans(Array.from({ length: 49 }, (_, i) => i + 3)));

type Fields = { format?: unknown; variant?: unknown; seed?: unknown; deals?: unknown; actions?: unknown; meta?: unknown };
const record = (fields: Fields = {}) => ({ format: 'lucie-record/1', variant: 'strict', deals: [DEAD], actions: [], ...fields });
/** The line `lucie verify` prints for a record. */
const line = (input: Fields | string) => verifyLine(verifyRecord(typeof input === 'string' ? input : JSON.stringify(input)));
const success = (foundations: number, won: boolean, over: boolean, redealsUsed: number) =>
  JSON.stringify({ ok: true, foundations, won, over, redealsUsed });
const malformed = (code: ProblemCode, reason: string) => JSON.stringify({ ok: false, index: null, code, reason });
const illegal = (index: number, action: string, code: ProblemCode, reason: string) => JSON.stringify({ ok: false, index, action, code, reason });

describe('verify: legal records', () => {
  it('prints exactly ok, foundations, won, over, redealsUsed', () => {
    expect(line(record())).toBe('{"ok":true,"foundations":0,"won":false,"over":false,"redealsUsed":0}');
    expect(Object.keys(verifyRecord(JSON.stringify(record())))).toEqual(['ok', 'foundations', 'won', 'over', 'redealsUsed']);
  });

  it.each<[string, Fields, string]>([
    ['a won game', { deals: [WINNABLE], actions: [...WINNING_ACTIONS] }, success(52, true, true, 0)],
    ['the worked example', { deals: [WORKED], actions: ['2>F', '4>9', '4>F', '4>2'] }, success(2, false, false, 0)],
    ['a lost game, both redeals used', { deals: [DEAD, DEAD, DEAD], actions: ['R', 'R'] }, success(0, false, true, 2)],
    ['a redeal of 49 cards', { deals: [WINNABLE, CLUBS_REDEALT], actions: ['1>F', '1>F', '1>F', 'R'] }, success(3, false, false, 1)],
    ['a game with a redeal left and no move', { deals: [DEAD, DEAD], actions: ['R'] }, success(0, false, false, 1)],
    ['merci: stuck in the last deal with the merci left', { variant: 'merci', deals: [DEAD, DEAD, DEAD], actions: ['R', 'R'] }, success(0, false, false, 2)],
    ['merci: after the merci', { variant: 'merci', deals: [DEAD, DEAD, DEAD], actions: ['R', 'R', 'M 5H>17'] }, success(0, false, true, 2)],
    ['merci: a leniently written merci card', { variant: 'merci', deals: [DEAD, DEAD, DEAD], actions: ['R', 'R', 'M 10c>13'] }, success(0, false, false, 2)],
    ['merci: to the foundation', { variant: 'merci', deals: [DEAD, DEAD, DEAD], actions: ['R', 'R', 'M AC>F'] }, success(1, false, true, 2)],
    ['trefoil: a new game scores 4', { variant: 'trefoil', deals: [DEAD_TREFOIL] }, success(4, false, false, 0)],
    ['trefoil: a lost game', { variant: 'trefoil', deals: [DEAD_TREFOIL, DEAD_TREFOIL, DEAD_TREFOIL], actions: ['R', 'R'] }, success(4, false, true, 2)],
    ['no-redeal: over at once with no move', { variant: 'no-redeal' }, success(0, false, true, 0)],
    ['fan-reserve: through a cell to the foundation', { variant: 'fan-reserve', actions: ['1>C1', '1>C2', 'C2>F', '1>F'] }, success(2, false, false, 0)],
    ['fan-reserve: a redeal gathering the cells', { variant: 'fan-reserve', deals: [DEAD, DEAD], actions: ['1>C1', 'R'] }, success(0, false, false, 1)],
    ['kings-in-spaces: a King to an emptied fan', { variant: 'kings-in-spaces', deals: [swap(DEAD, ['AS', '5D'])], actions: ['18>F', '1>18'] }, success(1, false, false, 0)],
    ['shamrocks: any-suit build', { variant: 'shamrocks', deals: [swap(DEAD, ['3C', '2S'], ['JC', '4C'])], actions: ['5>18', '5>18'] }, success(0, false, false, 0)],
    ['super-flower-garden: a build up', { variant: 'super-flower-garden', deals: [swap(DEAD, ['6D', '9C'], ['6D', '8C'])], actions: ['9>13', '13>9', '9>13'] }, success(0, false, false, 0)],
    ['a seed the deals do not come from, and free-form meta', { seed: 'not-the-seed', meta: { player: 'ana', x: [1, { y: null }], format: 2 } }, success(0, false, false, 0)],
    ['cards spelled leniently', { deals: [DEAD.map((fan) => fan.replace('TC', '10♣').replace('KD', 'kd'))] }, success(0, false, false, 0)],
    ['a fresh deal from a seed', { seed: 'lucie', deals: [makeLayout(dealLayout('lucie', 'strict'))] }, success(0, false, false, 0)],
  ])('%s', (_, fields, expected) => {
    expect(line(record(fields))).toBe(expected);
  });

  it('gives the same answer for a parsed object as for its text', () => {
    const fields = record({ deals: [WORKED], actions: ['2>F', '4>12'] });
    expect(verifyRecord(fields)).toEqual(verifyRecord(JSON.stringify(fields)));
  });
});

describe('verify: malformed records (index null)', () => {
  it.each<[string, string, string, ProblemCode]>([
    ['not JSON', '{"format":', 'not JSON: ', 'not-json'],
    ['empty input', '', 'not JSON: ', 'not-json'],
    ['a JSON array', '[]', 'a record must be a JSON object', 'not-an-object'],
    ['a JSON string', '"lucie-record/1"', 'a record must be a JSON object', 'not-an-object'],
  ])('%s', (_, text, reason, code) => {
    const outcome = verifyRecord(text);
    expect(Object.keys(outcome)).toEqual(['ok', 'index', 'problem']);
    expect(outcome).toMatchObject({ ok: false, index: null, problem: { code } });
    const printed = JSON.parse(line(text)) as { code: string; reason: string };
    expect(Object.keys(printed)).toEqual(['ok', 'index', 'code', 'reason']);
    expect(printed.code).toBe(code);
    expect(printed.reason.startsWith(reason)).toBe(true);
  });

  it.each<[string, Fields, string, ProblemCode]>([
    ['wrong format', { format: 'lucie-record/0' }, 'unsupported format "lucie-record/0" (expected "lucie-record/1")', 'unsupported-format'],
    ['format not a string', { format: null }, '"format" must be a string', 'not-a-string'],
    ['unknown field', { player: 'ana' } as Fields, 'unknown field "player" (fields: format, variant, seed, deals, actions, meta)', 'unknown-field'],
    ['unknown variant', { variant: 'klondike' }, 'unknown variant "klondike" (one of strict, merci, trefoil, shamrocks, super-flower-garden, fan-reserve, kings-in-spaces, no-redeal)', 'unknown-variant'],
    ['actions not strings', { actions: [1] }, '"actions" must be an array of strings', 'actions-not-strings'],
    ['no deals', { deals: [] }, '"deals" must be a non-empty array of layouts', 'no-deals'],
    ['bad card in deals[0]', { deals: [swap(DEAD, ['KC', 'KC']).map((fan) => fan.replace('KC', 'KX'))] }, 'deals[0] fan 1: "KX" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)', 'in-deal'],
    ['bad card in a deal never reached', { deals: [DEAD, DEAD, ['AC', 'ZZ']] }, 'deals[2] fan 2: "ZZ" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)', 'in-deal'],
    ['double space in deals[1]', { deals: [DEAD, ['AC  AD KC']], actions: ['R'] }, 'deals[1] fan 1: "AC  AD KC": cards must be separated by single spaces', 'in-deal'],
    ['duplicate card in deals[0]', { deals: [[...DEAD.slice(0, 17), 'KC']] }, 'deals[0]: the first layout is wrong: KC appears twice', 'in-deal'],
    ['missing card in deals[0]', { deals: [DEAD.slice(0, 17)] }, 'deals[0]: the first layout is wrong: missing 5D', 'in-deal'],
    ['deals[0] of the wrong variant', { variant: 'trefoil' }, 'deals[0]: the first layout is wrong: AC should not be in this layout', 'in-deal'],
    ['deals[0] missing the Aces', { deals: [DEAD_TREFOIL] }, 'deals[0]: the first layout is wrong: missing AC AD AH AS', 'in-deal'],
    ['fans of 4 in deals[0]', { deals: [['AC AD KC 5D', ...DEAD.slice(1, 17)]] }, 'deals[0]: the first layout is wrong: fan 1 has 4 cards, should have 3 (fans of 3, only the last shorter)', 'in-deal'],
    ['the short fan first in deals[0]', { deals: [['5D', ...DEAD.slice(0, 17)]] }, 'deals[0]: the first layout is wrong: fan 1 has 1 cards, should have 3 (fans of 3, only the last shorter)', 'in-deal'],
    ['an empty fan in deals[0]', { deals: [[...DEAD, '']] }, 'deals[0]: the first layout is wrong: fan 19 has 0 cards, should not be there (52 cards make 18 fans of 3, only the last shorter)', 'in-deal'],
    ['an empty deals[0]', { deals: [[]] }, 'deals[0]: the first layout is wrong: missing ' + makeLayout([Array.from({ length: 52 }, (_, i) => i)])[0], 'in-deal'],
  ])('%s', (_, fields, reason, code) => {
    expect(line(record(fields))).toBe(malformed(code, reason));
  });

  it('checks the shape in the order of the spec: fields, types, format, variant, card spelling, then deals[0]', () => {
    expect(line(record({ format: 'x', extra: 1 } as Fields))).toBe(malformed('unknown-field', 'unknown field "extra" (fields: format, variant, seed, deals, actions, meta)'));
    expect(line(record({ format: 'x', actions: 'R' }))).toBe(malformed('actions-not-strings', '"actions" must be an array of strings'));
    expect(line(record({ format: 'x', variant: 'y' }))).toBe(malformed('unsupported-format', 'unsupported format "x" (expected "lucie-record/1")'));
    expect(line(record({ variant: 'y', deals: [['QQ']] }))).toMatch(/^\{"ok":false,"index":null,"code":"unknown-variant","reason":"unknown variant \\"y\\"/);
    expect(line(record({ deals: [['AC'], ['QQ']] }))).toBe(malformed('in-deal', 'deals[1] fan 1: "QQ" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)'));
    // A malformed record is malformed even when its first action is illegal.
    expect(line(record({ deals: [DEAD.slice(1)], actions: ['1>f'] }))).toBe(
      malformed('in-deal', 'deals[0]: the first layout is wrong: missing AC KC AD'),
    );
  });

  it('reports a deal no redeal reaches, only after a fully legal replay', () => {
    expect(line(record({ deals: [DEAD, DEAD] }))).toBe(malformed('deal-never-reached', 'deals[1] is never reached: only 0 redeal(s) were made'));
    expect(line(record({ deals: [DEAD, DEAD, DEAD, DEAD], actions: ['R', 'R'] }))).toBe(
      malformed('deal-never-reached', 'deals[3] is never reached: only 2 redeal(s) were made'),
    );
    // Never reached, so never judged: its cards do not matter.
    expect(line(record({ deals: [DEAD, ['AC']] }))).toBe(malformed('deal-never-reached', 'deals[1] is never reached: only 0 redeal(s) were made'));
    expect(line(record({ variant: 'no-redeal', deals: [DEAD, DEAD] }))).toBe(malformed('deal-never-reached', 'deals[1] is never reached: only 0 redeal(s) were made'));
    // An illegal action comes first.
    expect(line(record({ deals: [DEAD, DEAD], actions: ['1>F'] }))).toBe(
      illegal(0, '1>F', 'foundation-starts', 'KC cannot go to the foundation: the clubs foundation starts with AC'),
    );
    expect(line(record({ deals: [WINNABLE, DEAD], actions: [...WINNING_ACTIONS] }))).toBe(
      malformed('deal-never-reached', 'deals[1] is never reached: only 0 redeal(s) were made'),
    );
  });
});

describe('verify: illegal actions (index, action, reason)', () => {
  it('names the first illegal action by its index, as written', () => {
    const outcome = verifyRecord(JSON.stringify(record({ deals: [WORKED], actions: ['2>F', '4>12', 'garbage'] })));
    expect(Object.keys(outcome)).toEqual(['ok', 'index', 'action', 'problem']);
    expect(verifyLine(outcome)).toBe(illegal(1, '4>12', 'cannot-build', '8C cannot go on 9S: a card goes only on the next higher card of its own suit'));
  });

  it.each([
    '1>f', '01>F', ' 1>F', '1 > F', '1>F ', '1>F\n', 'r', 'R ', '', '1>C5', '1>C0', 'C1>C2', 'C0>F', 'M QD>f', 'm QD>1',
    'M QD>C1', 'M XX>F', 'M  QD>1', '1>0', '0>F', '+2>F', '2.0>F', '１>F', '2>F>F', '2->F', 'F>2',
  ])('refuses the unreadable action %j at its index', (text) => {
    expect(line(record({ deals: [WORKED], actions: ['2>F', '4>9', text, '4>F'] }))).toBe(
      illegal(2, text, 'not-an-action', `"${text}" is not an action ${ACTION_GRAMMAR}`),
    );
  });

  it.each<[string, Fields, string, ProblemCode]>([
    ['a fan that does not exist', { actions: ['19>F'] }, 'there is no fan 19 (this layout has fans 1-18)', 'no-such-fan'],
    ['a move onto its own fan', { actions: ['3>3'] }, 'a card cannot move onto its own fan', 'own-fan'],
    ['a cell in strict', { actions: ['1>C1'] }, 'reserve cells exist only in the fan-reserve variant, not in strict', 'no-cells'],
    ['a merci in strict', { actions: ['M AC>F'] }, 'the merci exists only in the merci variant, not in strict', 'no-merci'],
    ['a merci before the last deal', { variant: 'merci', actions: ['M AC>F'] }, 'the merci comes only in the last deal (2 redeals left)', 'merci-too-early'],
    ['a redeal in no-redeal', { variant: 'no-redeal', deals: [DEAD, DEAD], actions: ['R'] }, 'the no-redeal variant has no redeal', 'no-redeal'],
    ['a King to an empty fan in strict', { deals: [swap(DEAD, ['AS', '5D'])], actions: ['18>F', '1>18'] }, 'fan 18 is empty, and an empty fan stays empty for the rest of the deal', 'empty-fan-stays-empty'],
    ['a card onto a fan of 3 in shamrocks', { variant: 'shamrocks', deals: [WORKED], actions: ['4>9'] }, '8C cannot go on 9C: fan 9 already holds 3 cards, the most a fan may hold in shamrocks', 'fan-full'],
    ['a cell to a cell in fan-reserve', { variant: 'fan-reserve', actions: ['1>C1', 'C1>C2'] }, `"C1>C2" is not an action ${ACTION_GRAMMAR}`, 'not-an-action'],
  ])('%s', (_, fields, reason, code) => {
    const actions = (fields.actions as string[]) ?? [];
    expect(line(record(fields))).toBe(illegal(actions.length - 1, actions.at(-1)!, code, reason));
  });

  it('refuses a redeal beyond the redeal count at its index, whether or not a layout follows', () => {
    expect(line(record({ deals: [DEAD, DEAD, DEAD, DEAD], actions: ['R', 'R', 'R'] }))).toBe(
      illegal(2, 'R', 'no-redeal-left', 'no redeal left: all 2 have been used'),
    );
    expect(line(record({ deals: [DEAD, DEAD, DEAD], actions: ['R', 'R', 'R'] }))).toBe(illegal(2, 'R', 'no-redeal-left', 'no redeal left: all 2 have been used'));
    expect(line(record({ variant: 'no-redeal', actions: ['R'] }))).toBe(illegal(0, 'R', 'no-redeal', 'the no-redeal variant has no redeal'));
  });

  it('refuses a redeal whose layout is missing, at the index of the R', () => {
    expect(line(record({ actions: ['R'] }))).toBe(illegal(0, 'R', 'redeal-without-layout', 'redeal 1 has no layout: deals[1] is missing'));
    expect(line(record({ deals: [DEAD, DEAD], actions: ['R', 'R'] }))).toBe(illegal(1, 'R', 'redeal-without-layout', 'redeal 2 has no layout: deals[2] is missing'));
  });

  it('refuses a redeal whose layout has the wrong cards or fan sizes, at the index of the R', () => {
    const after = (deal: readonly string[], actions = ['1>F', '1>F', '1>F', 'R']) => line(record({ deals: [WINNABLE, deal], actions }));
    expect(after(DEAD)).toBe(illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: AC should not be in this layout'));
    expect(after([...CLUBS_REDEALT.slice(0, 16), 'QS'])).toBe(illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: QS appears twice'));
    expect(after(CLUBS_REDEALT.slice(0, 16))).toBe(illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: missing KS'));
    expect(after(['KS', ...CLUBS_REDEALT.slice(0, 16)])).toBe(
      illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: fan 1 has 1 cards, should have 3 (fans of 3, only the last shorter)'),
    );
    expect(after([...CLUBS_REDEALT, ''])).toBe(
      illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: fan 18 has 0 cards, should not be there (49 cards make 17 fans of 3, only the last shorter)'),
    );
    expect(after(makeLayout(dealFans(Array.from({ length: 52 }, (_, i) => i))), ['R'])).toBe(success(0, false, false, 1));
    expect(line(record({ deals: [DEAD, []], actions: ['R'] }))).toMatch(/^\{"ok":false,"index":0,"action":"R","code":"redeal-layout","reason":"the layout of redeal 1 is wrong: missing AC 2C 3C /);
  });

  it('numbers fans afresh after a redeal', () => {
    expect(line(record({ deals: [WINNABLE, CLUBS_REDEALT], actions: ['1>F', '1>F', '1>F', 'R', '18>F'] }))).toBe(
      illegal(4, '18>F', 'no-such-fan', 'there is no fan 18 (this layout has fans 1-17)'),
    );
    const fourOnTop = ['6C 5C 4C', ...CLUBS_REDEALT.slice(1)];
    expect(line(record({ deals: [WINNABLE, fourOnTop], actions: ['1>F', '1>F', '1>F', 'R', '1>F'] }))).toBe(success(4, false, false, 1));
  });

  it('refuses any action once the game is won', () => {
    expect(line(record({ deals: [WINNABLE, DEAD], actions: [...WINNING_ACTIONS, 'R'] }))).toBe(
      illegal(52, 'R', 'game-won', 'the game is won: there is nothing to redeal'),
    );
    expect(line(record({ deals: [WINNABLE], actions: [...WINNING_ACTIONS, '18>F'] }))).toBe(illegal(52, '18>F', 'fan-empty', 'fan 18 is empty'));
  });

  it('refuses a second merci, and a merci while another move is legal', () => {
    const merci = (actions: string[], last = DEAD) => line(record({ variant: 'merci', deals: [DEAD, DEAD, last], actions }));
    expect(merci(['R', 'R', 'M QD>18', 'M AC>F'])).toBe(illegal(3, 'M AC>F', 'merci-used', 'the merci has already been used'));
    expect(merci(['R', 'R', 'M AC>F'], swap(DEAD, ['AS', 'KD']))).toBe(
      illegal(2, 'M AC>F', 'merci-not-needed', 'the merci is only for when no other move is legal (2>F is)'),
    );
  });

  it('reads huge fan numbers as fans that do not exist', () => {
    const outcome = verifyRecord(JSON.stringify(record({ actions: ['99999999999999999999>F'] })));
    expect(outcome).toMatchObject({ ok: false, index: 0, action: '99999999999999999999>F' });
    expect(!outcome.ok && outcome.problem).toEqual({ code: 'no-such-fan', fan: expect.any(Number), fans: 18 });
    expect(!outcome.ok && outcome.problem.code === 'no-such-fan' && outcome.problem.fan).toBeGreaterThan(1e19);
  });
});

describe('verify: text and syntax', () => {
  const text = JSON.stringify(record());

  it('ignores one byte-order mark at the start of the text, and only there', () => {
    expect(line('\uFEFF' + text)).toBe(success(0, false, false, 0));
    expect(JSON.parse(line('\uFEFF\uFEFF' + text))).toMatchObject({ ok: false, index: null, code: 'not-json', reason: expect.stringMatching(/^not JSON: /) });
    expect(JSON.parse(line(' \uFEFF' + text))).toMatchObject({ ok: false, index: null, code: 'not-json', reason: expect.stringMatching(/^not JSON: /) });
  });

  it.each(['NaN', 'Infinity', '-Infinity'])('refuses %s, which is not JSON, as malformed', (literal) => {
    const outcome = verifyRecord(text.replace(/}$/, `,"meta":{"score":${literal}}}`));
    expect(outcome).toMatchObject({ ok: false, index: null, problem: { code: 'not-json', detail: expect.any(String) } });
  });

  it('reads lower case as ASCII letters only: the long s is no spade', () => {
    expect(line(record({ deals: [DEAD.map((fan) => fan.replace('KS', 'ks'))] }))).toBe(success(0, false, false, 0));
    expect(line(record({ deals: [DEAD.map((fan) => fan.replace('KS', 'k\u017F'))] }))).toMatch(/^\{"ok":false,"index":null,"code":"in-deal","reason":"deals\[0\] fan \d+: \\"kſ\\" is not a card/);
  });

  it('charges an empty fan string in a redeal layout to the R that deals it, as a fan of 0 cards', () => {
    const withEmpty = [...CLUBS_REDEALT.slice(0, 8), '', ...CLUBS_REDEALT.slice(8)];
    expect(line(record({ deals: [WINNABLE, withEmpty], actions: ['1>F', '1>F', '1>F', 'R'] }))).toBe(
      illegal(3, 'R', 'redeal-layout', 'the layout of redeal 1 is wrong: fan 9 has 0 cards, should have 3 (fans of 3, only the last shorter)'),
    );
    expect(line(record({ deals: [DEAD, DEAD, ['']], actions: ['R', 'R'] }))).toMatch(/^\{"ok":false,"index":1,"action":"R","code":"redeal-layout","reason":"the layout of redeal 2 is wrong: missing /);
  });
});
