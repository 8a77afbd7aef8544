// ReplayStore's contract, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

describe.each(DATABASES)('ReplayStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it("summarises a game with its player's name, its race, rank and series, and pages a player's history newest first", async () => {
    const s = storage();
    const [ana, bo] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo')];
    const race = await addRace(s, ana.id, { state: 'countdown' });
    await s.series.create({ code: 'SUM001', variant: 'strict', seed: 's', creatorId: bo.id, createdAt: 0 });
    const series = (await s.series.byCode('SUM001'))!;
    const [raced] = await s.games.createGames([gameRow(ana.id, { raceId: race.id })], { raceId: race.id, capAt: null });
    const [practised, dealt] = await addGames(s, gameRow(ana.id, { kind: 'daily', day: '2026-11-29' }), gameRow(ana.id, { kind: 'series', seriesId: series.id, seriesDeal: 1 }));
    await endGame(s, raced!, 'won', 300, 5, 52);
    expect(await s.races.finish(race.id, [{ playerId: ana.id, rank: 1 }], 300)).toBe(true);

    const summary = await s.replays.summary(raced!);
    expect(summary).toEqual({
      game: { id: raced, kind: 'race', playerId: ana.id, raceId: race.id, day: null, seriesId: null, seriesDeal: null, variant: 'strict', seed: 'game-seed', status: 'won', foundations: 52, redealsUsed: 0, moves: 3, startedAt: 100, deadline: null, finishedAt: 300, rankKey: 5, ghostOf: null, redealFrom: null },
      name: 'Ana',
      raceCode: race.code,
      raceState: 'finished',
      raceRank: 1,
      seriesCode: null,
    });
    expect(await s.replays.summary(dealt!)).toMatchObject({ game: { id: dealt, status: 'playing' }, name: 'Ana', raceCode: null, raceState: null, raceRank: null, seriesCode: 'SUM001' });
    expect(await s.replays.summary(dealt! + 1000)).toBeUndefined();

    expect((await s.replays.history(ana.id, 10, 0)).map((row) => row.game.id)).toEqual([dealt, practised, raced]);
    expect((await s.replays.history(ana.id, 1, 1)).map((row) => row.game.id)).toEqual([practised]);
    expect(await s.replays.history(bo.id, 10, 0)).toEqual([]);
    expect(await s.replays.gameCount(ana.id)).toBe(3);
    expect(await s.replays.gameCount(bo.id)).toBe(0);
  });

  it("reads a race's games with their move logs, in game and index order", async () => {
    const s = storage();
    const [cy, di] = [await addPlayer(s, 'Cy'), await addPlayer(s, 'Di')];
    const race = await addRace(s, cy.id, { state: 'countdown' });
    await s.races.seat(race.id, di.id, 2, 6);
    const [first, second] = await s.games.createGames([gameRow(cy.id, { raceId: race.id }), gameRow(di.id, { raceId: race.id, layout: ['JD'] })], { raceId: race.id, capAt: null });
    const counts = { foundations: 5, redealsUsed: 0, moves: 1 };
    await s.games.appendMove({ gameId: second!, index: 0, action: 'x', at: 10, counts });
    await s.games.appendMove({ gameId: first!, index: 0, action: 'y', at: 11, counts });
    await s.games.appendMove({ gameId: first!, index: 1, action: 'R', at: 12, deal: { k: 1, layout: ['2C'] }, counts: { ...counts, redealsUsed: 1 } });

    const logs = await s.replays.raceLogs(race.id);
    expect(logs.games.map((game) => [game.id, game.moves, game.redealsUsed]).sort()).toEqual([[first, 2, 1], [second, 1, 0]].sort());
    expect(logs.deals).toEqual([
      { gameId: first, k: 0, layout: ['AS 2S', 'KH'] },
      { gameId: first, k: 1, layout: ['2C'] },
      { gameId: second, k: 0, layout: ['JD'] },
    ]);
    expect(logs.actions.map(({ gameId, index, action, at }) => ({ gameId, index, action, at }))).toEqual([
      { gameId: first, index: 0, action: 'y', at: 11 },
      { gameId: first, index: 1, action: 'R', at: 12 },
      { gameId: second, index: 0, action: 'x', at: 10 },
    ]);
    expect(await s.replays.raceLogs(race.id + 1000)).toEqual({ games: [], deals: [], actions: [] });
  });
});
