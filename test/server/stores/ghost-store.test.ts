// GhostStore's contract, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

describe.each(DATABASES)('GhostStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it("reads a game's action times in action order", async () => {
    const s = storage();
    const ana = await addPlayer(s, 'Ana');
    const [id, other] = await addGames(s, gameRow(ana.id), gameRow(ana.id));
    expect(await s.ghosts.actionTimes(id!)).toEqual([]);
    const counts = { foundations: 4, redealsUsed: 0, moves: 1 };
    for (const [index, at] of [1_000, 1_250, 4_000].entries()) await s.games.appendMove({ gameId: id!, index, action: '1>F', at, counts });
    await s.games.appendMove({ gameId: other!, index: 0, action: '1>F', at: 9, counts });
    expect(await s.ghosts.actionTimes(id!)).toEqual([1_000, 1_250, 4_000]);
  });

  it('finds the ghost race a player is playing, and only that', async () => {
    const s = storage();
    const [bo, cy] = [await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    const [raced] = await addGames(s, gameRow(cy.id, { kind: 'daily', day: '2026-11-01' }));
    expect(await s.ghosts.playing(bo.id)).toBeUndefined();
    const [ghost] = await addGames(s, gameRow(bo.id, { kind: 'ghost', ghostOf: raced!, redealFrom: raced! }));
    expect(await s.ghosts.playing(bo.id)).toEqual({ id: ghost, ghostOf: raced });
    expect(await s.ghosts.playing(cy.id)).toBeUndefined();
    await endGame(s, ghost!, 'resigned', 50, 10);
    expect(await s.ghosts.playing(bo.id)).toBeUndefined();
    const summary = await s.replays.summary(ghost!);
    expect(summary?.game).toMatchObject({ kind: 'ghost', ghostOf: raced, redealFrom: raced });
  });

  it("lists the newest ended public games of a variant by others: finished races' seats and earlier days' attempts", async () => {
    const s = storage();
    const [di, eve, fay] = [await addPlayer(s, 'Di'), await addPlayer(s, 'Eve'), await addPlayer(s, 'Fay')];
    const finished = await addRace(s, eve.id, { state: 'countdown' });
    const running = await addRace(s, fay.id, { state: 'countdown' });
    const [raced] = await s.games.createGames([gameRow(eve.id, { raceId: finished.id })], { raceId: finished.id, capAt: null });
    const [stillRacing] = await s.games.createGames([gameRow(fay.id, { raceId: running.id })], { raceId: running.id, capAt: null });
    const daily = (playerId: number, day: string, variant: 'strict' | 'merci' = 'strict') => gameRow(playerId, { kind: 'daily', day, variant });
    const [old, today, mine, merci, playing, ghost] = await addGames(
      s,
      daily(eve.id, '2026-11-28'),
      daily(fay.id, '2026-11-29'),
      daily(di.id, '2026-11-28'),
      daily(fay.id, '2026-11-27', 'merci'),
      daily(fay.id, '2026-11-28'),
      gameRow(fay.id, { kind: 'ghost', ghostOf: 1 }),
    );
    for (const id of [raced!, stillRacing!, today!, mine!, merci!, ghost!]) await endGame(s, id, 'resigned', 500, 90);
    await endGame(s, old!, 'won', 500, 30, 52);
    expect(playing).toBeDefined();
    await s.races.finish(finished.id, [{ playerId: eve.id, rank: 1 }], 600);

    expect(await s.ghosts.candidates('strict', di.id, '2026-11-29', 10)).toEqual([{ id: old, rankKey: 30 }, { id: raced, rankKey: 90 }]);
    expect(await s.ghosts.candidates('strict', di.id, '2026-11-29', 1)).toEqual([{ id: old, rankKey: 30 }]);
    expect(await s.ghosts.candidates('strict', eve.id, '2026-11-30', 10)).toEqual([{ id: mine, rankKey: 90 }, { id: today, rankKey: 90 }]);
    expect(await s.ghosts.candidates('merci', di.id, '2026-11-29', 10)).toEqual([{ id: merci, rankKey: 90 }]);
  });
});
