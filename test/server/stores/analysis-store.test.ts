// AnalysisStore's contract, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { GameAnalysis } from '../../../contract/index.js';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

/** An analysis with the figures the day's sums read. */
const analysis = (par: number | null, max: number, exact: boolean) =>
  ({ firstDeal: { max, clearable: null, exact }, par: { count: par, won: null, line: null }, clairvoyant: { best: max, won: max === 52, exact }, points: [], nodes: 1, ms: 1 }) as unknown as GameAnalysis;

describe.each(DATABASES)('AnalysisStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('stores an analysis once, keeping the first when a second comes', async () => {
    const s = storage();
    const ana = await addPlayer(s, 'Ana');
    const [id] = await addGames(s, gameRow(ana.id));
    expect(await s.analyses.byGame(id!)).toBeUndefined();
    const done = { gameId: id!, status: 'done' as const, analysis: analysis(40, 52, true), reason: null, createdAt: 70 };
    await s.analyses.store(done);
    await s.analyses.store({ gameId: id!, status: 'unavailable', analysis: null, reason: 'too slow', createdAt: 80 });
    expect(await s.analyses.byGame(id!)).toEqual(done);
  });

  it('lists the ended games whose seed is public and have no analysis, newest first, and those of one day in rank order', async () => {
    const s = storage();
    const bo = await addPlayer(s, 'Bo');
    const [cy, di, eve] = [await addPlayer(s, 'Cy'), await addPlayer(s, 'Di'), await addPlayer(s, 'Eve')];
    const finished = await addRace(s, bo.id, { state: 'countdown' });
    const running = await addRace(s, cy.id, { state: 'countdown' });
    const [raced] = await s.games.createGames([gameRow(bo.id, { raceId: finished.id })], { raceId: finished.id, capAt: null });
    const [stillRacing] = await s.games.createGames([gameRow(cy.id, { raceId: running.id })], { raceId: running.id, capAt: null });
    const daily = (playerId: number, day: string) => gameRow(playerId, { kind: 'daily', day });
    const [yesterday, today, unranked, ranked, playing] = await addGames(s, daily(bo.id, '2026-11-28'), daily(bo.id, '2026-11-29'), daily(cy.id, '2026-11-28'), daily(di.id, '2026-11-28'), daily(eve.id, '2026-11-28'));
    for (const id of [raced!, stillRacing!, today!]) await endGame(s, id, 'resigned', 500, 90);
    await endGame(s, yesterday!, 'won', 500, 30, 52);
    await endGame(s, ranked!, 'out-of-moves', 500, 20, 40);
    // An attempt ended without a rank key (stored so by an older version) comes after the ranked ones.
    await s.games.endGame({ gameId: unranked!, status: 'abandoned', finishedAt: 500, rankKey: null as unknown as number, counts: { foundations: 1, redealsUsed: 0, moves: 0 } });
    expect(playing).toBeDefined();
    await s.races.finish(finished.id, [{ playerId: bo.id, rank: 1 }], 600);

    expect(await s.analyses.missing('2026-11-29', 10)).toEqual([ranked, unranked, yesterday, raced]);
    expect(await s.analyses.missing('2026-11-29', 2)).toEqual([ranked, unranked]);
    expect(await s.analyses.missingOfDay('2026-11-28', 10)).toEqual([ranked, yesterday, unranked]);
    await s.analyses.store({ gameId: ranked!, status: 'unavailable', analysis: null, reason: 'failed', createdAt: 1 });
    expect(await s.analyses.missingOfDay('2026-11-28', 10)).toEqual([yesterday, unranked]);
    expect(await s.analyses.missingOfDay('2026-11-28', 1)).toEqual([yesterday]);
    expect(await s.analyses.missing('2026-11-30', 10)).toEqual([unranked, today, yesterday, raced]);
  });

  it("adds up a day's analyses: how many, how many reached par, and the first deal's maximum", async () => {
    const s = storage();
    const day = '2026-11-10';
    const players = await Promise.all(['Gil', 'Hal', 'Ike', 'Jo'].map((name) => addPlayer(s, name)));
    expect(await s.analyses.dayFigures(day)).toEqual({ analysed: 0, reachedPar: 0, firstDeal: null });
    const ids = await addGames(s, ...players.map((player) => gameRow(player.id, { kind: 'daily', day })));
    const cards = [45, 30, 20, 10];
    for (const [i, id] of ids.entries()) await endGame(s, id, 'out-of-moves', 500, 100 - i, cards[i]);
    await s.analyses.store({ gameId: ids[0]!, status: 'done', analysis: analysis(40, 50, false), reason: null, createdAt: 1 });
    await s.analyses.store({ gameId: ids[1]!, status: 'done', analysis: analysis(40, 50, false), reason: null, createdAt: 1 });
    await s.analyses.store({ gameId: ids[2]!, status: 'done', analysis: analysis(null, 50, false), reason: null, createdAt: 1 });
    await s.analyses.store({ gameId: ids[3]!, status: 'unavailable', analysis: null, reason: 'failed', createdAt: 1 });
    expect(await s.analyses.dayFigures(day)).toEqual({ analysed: 2, reachedPar: 1, firstDeal: { max: 50, exact: false } });
    expect(await s.analyses.dayFigures('2026-11-11')).toEqual({ analysed: 0, reachedPar: 0, firstDeal: null });
  });
});
