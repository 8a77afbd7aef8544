import {
  cardAt,
  cardLabel,
  parseRecord,
  replayRecord,
  verifyRecord,
  Position,
  sourceOf,
  type GameRecord,
  type RecordJson,
  type ReplayFailure,
  type VerifyOutcome,
} from './engine.js';
import { t } from './i18n.svelte.js';
import { describeAction, problemWords } from './moves.js';

/**
 * A game as the replay viewer walks it: every position rebuilt with the shared engine from a
 * `lucie-record/1` record, the same way the server and `lucie verify` replay it.
 */

/** One action of the record, as written, with what it did. */
export interface Step {
  /** The action in record notation, exactly as the record has it. */
  readonly text: string;
  /** The card it moved, `8♣` (none for a redeal or an action that could not be played). */
  readonly card: string | null;
  /** What it did in words ("Eight of clubs to fan 9"), or why it could not be played. */
  readonly description: string;
  /** The deal it was played in: 0 for the first layout, k after the k-th redeal. */
  readonly deal: number;
  /** False for the action where the record breaks and every one after it. */
  readonly playable: boolean;
}

export interface Replay {
  readonly record: GameRecord;
  /**
   * `positions[i]` is the position after the first `i` actions (`positions[0]` the first
   * layout), up to the last legal action. Empty when even the first layout is wrong.
   */
  readonly positions: readonly Position[];
  /** Every action of the record, legal or not. */
  readonly steps: readonly Step[];
  /** Where the record breaks (the engine's index and reason), or null when it replays in full. */
  readonly failure: ReplayFailure | null;
}

/** Replays a parsed record, keeping a copy of every position on the way. */
export function buildReplay(record: GameRecord): Replay {
  const positions: Position[] = [];
  const steps: Step[] = [];
  const start = Position.start(record.variant, record.deals[0] ?? []);
  if (start.ok) positions.push(start.value);
  const outcome = replayRecord(record, (position, index, action) => {
    const before = positions[index]!;
    const source = sourceOf(action);
    const card = source ? cardAt(before, source) : undefined;
    steps.push({
      text: record.actions[index]!,
      card: card === undefined ? null : cardLabel(card),
      description: describeAction(before, action),
      deal: before.redealsUsed,
      playable: true,
    });
    positions.push(position.clone());
  });
  const failure = outcome.ok ? null : outcome.error;
  const lastDeal = positions.at(-1)?.redealsUsed ?? 0;
  for (let index = steps.length; index < record.actions.length; index++) {
    const breaks = failure?.index === index;
    steps.push({
      text: record.actions[index]!,
      card: null,
      description: breaks ? problemWords(failure.problem) : t('replayer.not-played'),
      deal: lastDeal,
      playable: false,
    });
  }
  return { record, positions, steps, failure };
}

/** A record file opened in the browser: the verdict of `verifyRecord` and, when readable, its replay. */
export interface OpenedRecord {
  readonly verdict: VerifyOutcome;
  /** Null when the record cannot be read at all (not JSON, wrong format, bad card, wrong first layout). */
  readonly replay: Replay | null;
}

/** Record files are small (a long game is a few KB); anything much larger is not one. */
export const MAX_RECORD_BYTES = 1_000_000;

/** Verifies a record's text with the shared engine (the `lucie verify` contract) and replays what can be replayed. */
export function openRecord(text: string): OpenedRecord {
  const verdict = verifyRecord(text);
  const record = parseRecord(text);
  if (!record.ok) return { verdict, replay: null };
  const replay = buildReplay(record.value);
  return { verdict, replay: replay.positions.length > 0 ? replay : null };
}

/** A `lucie-record/1` file's text. */
export const recordText = (record: RecordJson): string => `${JSON.stringify(record, null, 2)}\n`;

/** A file name that says what the game was: `lucie-daily-2026-11-29-ana.json`, `lucie-race-K7MQ2X-bo.json`. */
export function recordFileName(parts: { kind?: string; where?: string | null; player?: string; id?: number }): string {
  const slug = (text: string): string =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase();
  const words = ['lucie', parts.kind, parts.where, parts.player, parts.id === undefined ? undefined : `game-${parts.id}`]
    .filter((word): word is string => typeof word === 'string' && word !== '')
    .map(slug)
    .filter(Boolean);
  return `${words.join('-')}.json`;
}

/** Saves text as a file through the browser's download. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Something a record's `meta` says about the game, and where the replay contradicts it. */
export interface MetaClaim {
  readonly label: string;
  readonly value: string;
  /** Set when the replay shows otherwise. */
  readonly conflict: string | null;
}

const CLAIMED_STATES = ['won', 'out-of-moves', 'resigned', 'timed-out', 'playing'] as const;
const stateWords = (state: string): string => ((CLAIMED_STATES as readonly string[]).includes(state) ? t(`claim.state-${state as (typeof CLAIMED_STATES)[number]}`) : state);

/**
 * The claims a record's `meta` makes (player, state, cards home), which the moves cannot prove,
 * each checked against the replay where the replay can say anything: a legal record that never
 * reaches 52 cards was not won, one that reaches them was, one with moves left was not out of moves.
 */
export function metaClaims(record: GameRecord, verdict: VerifyOutcome): MetaClaim[] {
  const meta = record.meta ?? {};
  const claims: MetaClaim[] = [];
  if (typeof meta.player === 'string') claims.push({ label: t('claim.player'), value: meta.player, conflict: null });
  if (typeof meta.state === 'string') {
    const state = meta.state;
    let conflict: string | null = null;
    if (verdict.ok) {
      if (state === 'won' && !verdict.won) conflict = t('claim.not-won', { count: verdict.foundations });
      else if (state !== 'won' && verdict.won) conflict = t('claim.won');
      else if (state === 'out-of-moves' && !verdict.over) conflict = t('claim.moves-remain');
      else if (state === 'playing' && verdict.over) conflict = t('claim.no-move');
    }
    claims.push({ label: t('claim.state'), value: stateWords(state), conflict });
  }
  if (typeof meta.foundations === 'number') {
    const conflict = verdict.ok && meta.foundations !== verdict.foundations ? t('claim.reach', { count: verdict.foundations }) : null;
    claims.push({ label: t('claim.home'), value: `${meta.foundations}/52`, conflict });
  }
  return claims;
}
