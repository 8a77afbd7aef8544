// The race replay's clock: which move each board shows at a moment of the race.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import type { ReplayGame } from '../../contract/index.js';
import { buildTimeline, stepAt } from '../../client/src/lib/race-timeline.js';
import { dealLayout, makeAction, makeLayout, Position, problemText } from '../../shared/index.js';

beforeAll(() => setLocale('en', [], 'every'));

const SEED = 'timeline-seed';
const START = 1_000_000;

/** The first `count` legal non-redeal moves from the seed's first layout. */
function firstMoves(count: number): string[] {
  const position = Position.start('strict', dealLayout(SEED, 'strict'));
  if (!position.ok) throw new Error(problemText(position.error));
  const actions: string[] = [];
  for (let i = 0; i < count; i++) {
    const action = position.value.legalActions().find((candidate) => candidate.type !== 'redeal')!;
    position.value.play(action);
    actions.push(makeAction(action));
  }
  return actions;
}

const CLOCK = { variant: 'strict', startsAt: START } as const;

function replayGames(games: { name: string; actions: string[]; times: number[]; finishedAt: number }[]): ReplayGame[] {
  return games.map((game, index) => ({
    playerId: index + 1,
    gameId: index + 1,
    state: 'resigned',
    deals: [makeLayout(dealLayout(SEED, 'strict'))],
    ...game,
  }));
}

describe('race timeline', () => {
  const moves = firstMoves(3);
  const built = buildTimeline(
    CLOCK,
    replayGames([
      { name: 'Ana', actions: moves, times: [START + 1000, START + 1000, START + 4000], finishedAt: START + 9000 },
      { name: 'Bo', actions: moves.slice(0, 1), times: [START + 2500], finishedAt: START + 3000 },
    ]),
  );
  if (!built.ok) throw new Error(built.error);
  const [ana, bo] = built.value.tracks;

  it('lasts from the start to the last finish', () => {
    expect(built.value.length).toBe(9000);
    expect(ana!.offsets).toEqual([1000, 1000, 4000]);
    expect(bo!.finishOffset).toBe(3000);
  });

  it('shows each board at the moves played by then, moves of the same moment together', () => {
    expect([0, 999, 1000, 3999, 4000, 9000].map((offset) => stepAt(ana!, offset))).toEqual([0, 0, 2, 2, 3, 3]);
    expect([0, 2499, 2500, 9000].map((offset) => stepAt(bo!, offset))).toEqual([0, 0, 1, 1]);
    expect(ana!.replay.positions).toHaveLength(4);
  });

  it('names the racer whose stored game does not replay', () => {
    const broken = buildTimeline(CLOCK, replayGames([{ name: 'Cy', actions: ['R', 'R', 'R', 'R'], times: [1, 2, 3, 4], finishedAt: START }]));
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toBe('Cy’s game does not replay: redeal 1 has no layout (deals[1] is missing)');
  });
});
