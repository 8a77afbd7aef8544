/**
 * A finished race told again: each racer's deals and moves with the moment every move was
 * stored, so the client can replay all the boards on the race's own timeline. Nothing of it is
 * given before the race is finished: during the race a board would show the redeal layouts the
 * others are about to get, and its moves could be copied.
 */
import type { RaceReplayAnswer, RaceView, ReplayGame } from '../contract/index.js';
import { Refusal } from './errors.js';
import type { RaceRow, ReplayStore } from './stores.js';

/** What the replay asks of races (RaceService). */
export interface RaceLookup {
  mustFind(code: string): Promise<RaceRow>;
  view(code: string): Promise<RaceView | undefined>;
}

export async function raceReplay(store: ReplayStore, races: RaceLookup, code: string): Promise<RaceReplayAnswer> {
  const row = await races.mustFind(code);
  if (row.state === 'closed') throw new Refusal('race-closed', `race ${code} was closed before it started (${row.closedReason}): there is nothing to replay`, { params: { race: code, reason: row.closedReason ?? 'empty' } });
  if (row.state !== 'finished') {
    throw new Refusal('not-finished', `race ${code} is not finished: its replay opens once every racer is done, so nobody sees a board or a move before then`, { params: { race: code } });
  }
  const race = (await races.view(code))!;
  const { games: rows, deals, actions } = await store.raceLogs(row.id);
  const replayGames: ReplayGame[] = [];
  // Seat order, as the race view lists its racers.
  for (const racer of race.racers) {
    const game = rows.find((candidate) => candidate.playerId === racer.id);
    if (!game) continue;
    const moves = actions.filter((action) => action.gameId === game.id);
    replayGames.push({
      playerId: racer.id,
      name: racer.name,
      gameId: game.id,
      state: game.status,
      deals: deals.filter((deal) => deal.gameId === game.id).map((deal) => deal.layout),
      actions: moves.map((move) => move.action),
      times: moves.map((move) => move.at),
      finishedAt: game.finishedAt,
    });
  }
  return { race, games: replayGames };
}
