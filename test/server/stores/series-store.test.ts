// SeriesStore's contract, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { addGames, addPlayer, DATABASES, endGame, gameRow, storageFor } from './databases.js';

describe.each(DATABASES)('SeriesStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('stores a series, finds it by code, and tallies its players and their games', async () => {
    const s = storage();
    const [ana, bo, cy] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    await s.series.create({ code: 'SER001', variant: 'merci', seed: 'series-seed', creatorId: ana.id, createdAt: 30 });
    const series = (await s.series.byCode('SER001'))!;
    expect(series).toEqual({ id: expect.any(Number), code: 'SER001', variant: 'merci', seed: 'series-seed', creatorId: ana.id, createdAt: 30 });
    expect(await s.series.byCode('NOSUCH')).toBeUndefined();
    await s.series.create({ code: 'SER002', variant: 'strict', seed: 'other', creatorId: bo.id, createdAt: 40 });
    const other = (await s.series.byCode('SER002'))!;

    const deal = (playerId: number, seriesDeal: number, seriesId = series.id) => gameRow(playerId, { kind: 'series', seriesId, seriesDeal, variant: 'merci' });
    const [ana2, ana1, bo1, bo2, cy1, boOther] = await addGames(s, deal(ana.id, 2), deal(ana.id, 1), deal(bo.id, 1), deal(bo.id, 2), deal(cy.id, 1), deal(bo.id, 1, other.id));
    await endGame(s, ana1!, 'won', 100, 1, 52);
    await endGame(s, bo1!, 'won', 120, 1, 52);
    await endGame(s, bo2!, 'resigned', 110, 2, 10);
    await endGame(s, cy1!, 'won', 130, 1, 52);
    expect(ana2).toBeDefined();
    // One win each: Bo has the most cards; Ana (playing deal 2) and Cy as many, Ana joined first.
    expect(await s.series.standings(series.id)).toEqual([
      { id: bo.id, name: 'Bo', played: 2, wins: 1, cards: 62, lastDeal: 2, playing: 0 },
      { id: ana.id, name: 'Ana', played: 1, wins: 1, cards: 52, lastDeal: 2, playing: 1 },
      { id: cy.id, name: 'Cy', played: 1, wins: 1, cards: 52, lastDeal: 1, playing: 0 },
    ]);
    expect(await s.series.standings(series.id + 1000)).toEqual([]);
    expect((await s.series.gamesOf(series.id, ana.id)).map((game) => [game.seriesDeal, game.id, game.status])).toEqual([
      [1, ana1, 'won'],
      [2, ana2, 'playing'],
    ]);
    expect(await s.series.gamesOf(other.id, ana.id)).toEqual([]);
    // Bo's last game is in the other series.
    expect(await s.series.ofPlayer(bo.id)).toEqual([
      { code: 'SER002', variant: 'strict', played: 0, wins: 0, cards: 0, lastDeal: 1, playing: 1 },
      { code: 'SER001', variant: 'merci', played: 2, wins: 1, cards: 62, lastDeal: 2, playing: 0 },
    ]);
    expect(boOther).toBeGreaterThan(bo2!);
    expect(await s.series.ofPlayer(cy.id + 1000)).toEqual([]);
  });
});
