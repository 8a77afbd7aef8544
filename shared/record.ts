import { makeAction, parseAction, type Action } from './action.js';
import { parseLayout, makeLayout, type Layout } from './layout.js';
import { Position, type Status } from './position.js';
import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';
import { parseVariant, type VariantId } from './variant.js';

export const RECORD_FORMAT = 'lucie-record/1';

/**
 * A whole game: the variant, every dealt layout, and the actions in order. Actions stay as
 * written: a record may hold an illegal or unreadable action, which only replaying can judge.
 */
export interface GameRecord {
  readonly variant: VariantId;
  readonly seed?: string;
  readonly deals: readonly Layout[];
  readonly actions: readonly string[];
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The JSON form of a record, fields in the order of the spec. */
export interface RecordJson {
  format: typeof RECORD_FORMAT;
  variant: VariantId;
  seed?: string;
  deals: string[][];
  actions: string[];
  meta?: Record<string, unknown>;
}

/** A record's fields, in the order of the spec. */
export const RECORD_FIELDS = ['format', 'variant', 'seed', 'deals', 'actions', 'meta'] as const;
const REQUIRED = ['format', 'variant', 'deals', 'actions'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Some editors start a UTF-8 file with a byte-order mark: one, at the very start, is not part of the JSON. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Reads a record (JSON text or an already parsed value) and checks its shape: known fields,
 * field types, format, variant, every card in every layout. Layout contents are judged when
 * the record is replayed. Text must already be decoded strictly (invalid UTF-8 is the reader's
 * to refuse); `NaN` and `Infinity` are not JSON, so they make the record malformed.
 */
export function parseRecord(input: unknown): Result<GameRecord, Problem> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input.startsWith(BYTE_ORDER_MARK) ? input.slice(BYTE_ORDER_MARK.length) : input);
    } catch (error) {
      return err(problemOf('not-json', { detail: (error as Error).message }));
    }
  }
  if (!isObject(value)) return err(problemOf('not-an-object'));
  for (const name of Object.keys(value)) {
    if (!(RECORD_FIELDS as readonly string[]).includes(name)) return err(problemOf('unknown-field', { name }));
  }
  for (const name of REQUIRED) if (!(name in value)) return err(problemOf('missing-field', { name }));
  const { format, variant, seed, deals, actions, meta } = value;
  if (typeof format !== 'string') return err(problemOf('not-a-string', { name: 'format' }));
  if (typeof variant !== 'string') return err(problemOf('not-a-string', { name: 'variant' }));
  if (seed !== undefined && typeof seed !== 'string') return err(problemOf('not-a-string', { name: 'seed' }));
  if (!Array.isArray(deals) || deals.length === 0) return err(problemOf('no-deals'));
  for (const [deal, fans] of deals.entries()) {
    if (!Array.isArray(fans) || !fans.every((fan) => typeof fan === 'string')) return err(problemOf('deal-not-fans', { deal }));
  }
  if (!Array.isArray(actions) || !actions.every((action) => typeof action === 'string')) return err(problemOf('actions-not-strings'));
  if (meta !== undefined && !isObject(meta)) return err(problemOf('meta-not-object'));
  if (format !== RECORD_FORMAT) return err(problemOf('unsupported-format', { text: format }));
  const variantId = parseVariant(variant);
  if (!variantId.ok) return variantId;
  const layouts: Layout[] = [];
  for (const [deal, fans] of (deals as string[][]).entries()) {
    const layout = parseLayout(fans);
    if (!layout.ok) return err(problemOf('in-deal', { deal, problem: layout.error }));
    layouts.push(layout.value);
  }
  return ok({
    variant: variantId.value,
    ...(seed === undefined ? {} : { seed }),
    deals: layouts,
    actions: actions as string[],
    ...(meta === undefined ? {} : { meta }),
  });
}

export function makeRecord(record: GameRecord): RecordJson {
  return {
    format: RECORD_FORMAT,
    variant: record.variant,
    ...(record.seed === undefined ? {} : { seed: record.seed }),
    deals: record.deals.map(makeLayout),
    actions: [...record.actions],
    ...(record.meta === undefined ? {} : { meta: { ...record.meta } }),
  };
}

/** Where a replay stopped: the index of the first illegal action (null when the record itself is malformed), and why. */
export interface ReplayFailure {
  readonly index: number | null;
  readonly action?: string;
  readonly problem: Problem;
}

/**
 * Replays a record from its first layout, calling `visit` after each action with the position
 * (a live position: clone it to keep it). Returns the final position or the first failure.
 */
export function replayRecord(
  record: GameRecord,
  visit?: (position: Position, index: number, action: Action) => void,
): Result<Position, ReplayFailure> {
  const start = Position.start(record.variant, record.deals[0]!);
  if (!start.ok) return err({ index: null, problem: problemOf('in-deal', { deal: 0, problem: start.error }) });
  const position = start.value;
  // Long records repeat a few dozen action strings: read each distinct one once.
  const readActions = new Map<string, Result<Action, Problem>>();
  for (let index = 0; index < record.actions.length; index++) {
    const text = record.actions[index]!;
    let parsed = readActions.get(text);
    if (parsed === undefined) readActions.set(text, (parsed = parseAction(text)));
    if (!parsed.ok) return err({ index, action: text, problem: parsed.error });
    const action = parsed.value;
    let nextLayout: Layout | undefined;
    if (action.type === 'redeal') {
      nextLayout = record.deals[position.redealsUsed + 1];
      if (nextLayout === undefined && position.problem(action) === undefined) {
        return err({ index, action: text, problem: problemOf('redeal-without-layout', { redeal: position.redealsUsed + 1 }) });
      }
    }
    const problem = position.problem(action, nextLayout);
    if (problem !== undefined) return err({ index, action: text, problem });
    position.play(action, nextLayout);
    visit?.(position, index, action);
  }
  if (record.deals.length > position.redealsUsed + 1) {
    return err({ index: null, problem: problemOf('deal-never-reached', { deal: position.redealsUsed + 1, redeals: position.redealsUsed }) });
  }
  return ok(position);
}

export type VerifyOutcome =
  | ({ readonly ok: true } & Pick<Status, 'foundations' | 'won' | 'over' | 'redealsUsed'>)
  | ({ readonly ok: false } & ReplayFailure);

/** The `lucie verify` contract for one record (see docs/record-format.md). */
export function verifyRecord(input: unknown): VerifyOutcome {
  const record = parseRecord(input);
  if (!record.ok) return { ok: false, index: null, problem: record.error };
  const replay = replayRecord(record.value);
  if (!replay.ok) return { ok: false, ...replay.error };
  const { foundations, won, over, redealsUsed } = replay.value.status();
  return { ok: true, foundations, won, over, redealsUsed };
}

/** Builds the record of a game played from a seed (used by `lucie deal`, the server and tests). */
export const recordOf = (
  variant: VariantId,
  deals: readonly Layout[],
  actions: readonly Action[],
  extra: Pick<GameRecord, 'seed' | 'meta'> = {},
): GameRecord => ({ variant, ...extra, deals, actions: actions.map(makeAction) });
