// DailyStore's contract, on SQLite and on PostgreSQL: a day of five attempts (one still playing,
// two tied) beside another day's one.
import { describe, expect, it } from 'vitest';
import { addGames, addPlayer, DATABASES, endGame, gameRow, storageFor } from './databases.js';

const DAY = '2026-11-20';
const OTHER_DAY = '2026-11-21';

describe.each(DATABASES)('DailyStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('keeps the first secret made and answers it to every later caller', async () => {
    const { daily } = storage();
    expect(await daily.secret('made-first', 5)).toBe('made-first');
    expect(await daily.secret('made-later', 6)).toBe('made-first');
  });

  it("pages a day's finished attempts in rank order and counts its attempts from the tallies and the index", async () => {
    const s = storage();
    const players = await Promise.all(['Ana', 'Bo', 'Cy', 'Di', 'Eve', 'Flo'].map((name) => addPlayer(s, name)));
    const attempt = (index: number, day = DAY) => gameRow(players[index]!.id, { kind: 'daily', day, seed: `seed-${day}`, startedAt: 1000 + index });
    const [won, lost, resigned, playing, fast, other] = await addGames(s, attempt(0), attempt(1), attempt(2), attempt(3), attempt(4), attempt(5, OTHER_DAY));
    await endGame(s, won!, 'won', 2000, 10, 52);
    await endGame(s, lost!, 'out-of-moves', 2100, 50, 30);
    await endGame(s, resigned!, 'resigned', 2200, 50, 30);
    await endGame(s, fast!, 'won', 2300, 20, 52);
    await endGame(s, other!, 'won', 2400, 5, 52);

    const entry = (gameId: number, player: number, state: string, foundations: number, finishedAt: number, rankKey: number) => ({
      gameId,
      playerId: players[player]!.id,
      name: players[player]!.name,
      state,
      foundations,
      startedAt: 1000 + player,
      finishedAt,
      rankKey,
    });
    expect(await s.daily.page(DAY, 10, 0)).toEqual([
      entry(won!, 0, 'won', 52, 2000, 10),
      entry(fast!, 4, 'won', 52, 2300, 20),
      entry(lost!, 1, 'out-of-moves', 30, 2100, 50),
      entry(resigned!, 2, 'resigned', 30, 2200, 50),
    ]);
    expect((await s.daily.page(DAY, 2, 1)).map((row) => row.gameId)).toEqual([fast, lost]);
    expect(await s.daily.page(DAY, 10, 4)).toEqual([]);

    expect(await s.daily.moreCards(DAY, 29)).toBe(4);
    expect(await s.daily.moreCards(DAY, 30)).toBe(2);
    expect(await s.daily.moreCards(DAY, 52)).toBe(0);
    expect(await s.daily.rankKeysBetween(DAY, 10, 50)).toBe(2);
    expect(await s.daily.rankKeysBetween(DAY, 11, 51)).toBe(3);
    expect(await s.daily.tiedBefore(DAY, 50, resigned!)).toBe(1);
    expect(await s.daily.tiedBefore(DAY, 50, lost!)).toBe(0);
    expect(await s.daily.finished(DAY)).toBe(4);
    expect(await s.daily.finished(OTHER_DAY)).toBe(1);
    expect(await s.daily.finished('2000-01-01')).toBe(0);
    expect(await s.daily.playing(DAY)).toBe(1);
    expect(await s.daily.playing(OTHER_DAY)).toBe(0);
    expect(await s.daily.storedSeed(DAY)).toBe(`seed-${DAY}`);
    expect(await s.daily.storedSeed('2000-01-01')).toBeUndefined();

    expect(await s.daily.attempt(players[3]!.id, DAY)).toEqual({
      id: playing,
      kind: 'daily',
      playerId: players[3]!.id,
      raceId: null,
      day: DAY,
      seriesId: null,
      seriesDeal: null,
      variant: 'strict',
      seed: `seed-${DAY}`,
      status: 'playing',
      foundations: 4,
      redealsUsed: 0,
      moves: 0,
      startedAt: 1003,
      deadline: null,
      finishedAt: null,
      rankKey: null,
      ghostOf: null,
      redealFrom: null,
    });
    expect(await s.daily.attempt(players[3]!.id, OTHER_DAY)).toBeUndefined();
  });
});
