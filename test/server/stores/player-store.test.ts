// PlayerStore's contract, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

describe.each(DATABASES)('PlayerStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('creates a player with a first device, found by its token hash, and by id; nobody for an unknown one', async () => {
    const { players, identities } = storage();
    const { player: ana, deviceId } = await players.create('Ana', { tokenHash: 'token-ana', name: 'Safari, iOS' }, 10_000);
    expect(ana).toEqual({ id: expect.any(Number), name: 'Ana' });
    expect(await identities.byTokenHash('token-ana')).toEqual({ player: ana, deviceId, lastSeenAt: 10_000, bannedAt: null });
    expect(await identities.devices(ana.id)).toEqual([{ id: deviceId, name: 'Safari, iOS', createdAt: 10_000, lastSeenAt: 10_000 }]);
    expect(await players.byId(ana.id)).toEqual(ana);
    expect(await identities.byTokenHash('token-nobody')).toBeUndefined();
    expect(await players.byId(ana.id + 1000)).toBeUndefined();
  });

  it('refuses a second device with the same token hash as a duplicate, and stores no player for it', async () => {
    const { players, games } = storage();
    const { player: bo } = await players.create('Bo', { tokenHash: 'token-bo', name: '' }, 10_000);
    const error = await Promise.resolve()
      .then(() => players.create('Bob', { tokenHash: 'token-bo', name: '' }, 11))
      .then(() => undefined, (failure: unknown) => failure);
    expect(games.isDuplicate(error)).toBe(true);
    expect(games.isDuplicate(new Error('other'))).toBe(false);
    expect(await players.byId(bo.id + 1)).toBeUndefined();
  });

  it('renames a player, the same id, and nobody unknown', async () => {
    const s = storage();
    const di = await addPlayer(s, 'Di', 10_000);
    expect(await s.players.rename(di.id, 'Diane')).toEqual({ id: di.id, name: 'Diane' });
    expect(await s.players.byId(di.id)).toEqual({ id: di.id, name: 'Diane' });
    expect(await s.players.rename(di.id + 1000, 'X')).toBeUndefined();
  });

  it("lists a player's ended games, oldest end first, with what statistics read, and not the playing ones", async () => {
    const s = storage();
    const cy = await addPlayer(s, 'Cy');
    const [first, second, playing, third] = await addGames(s, gameRow(cy.id, { startedAt: 1 }), gameRow(cy.id, { startedAt: 2, variant: 'merci' }), gameRow(cy.id), gameRow(cy.id, { startedAt: 3, kind: 'daily', day: '2026-11-02' }));
    await endGame(s, second!, 'won', 500, 1, 52);
    await endGame(s, first!, 'resigned', 700, 2, 8);
    await endGame(s, third!, 'out-of-moves', 500, 3, 20);
    expect(playing).toBeDefined();
    expect(await s.players.finishedGames(cy.id)).toEqual([
      { variant: 'merci', day: null, status: 'won', foundations: 52, startedAt: 2, finishedAt: 500 },
      { variant: 'strict', day: '2026-11-02', status: 'out-of-moves', foundations: 20, startedAt: 3, finishedAt: 500 },
      { variant: 'strict', day: null, status: 'resigned', foundations: 8, startedAt: 1, finishedAt: 700 },
    ]);
    expect(await s.players.finishedGames(cy.id + 1000)).toEqual([]);
  });

  it('prunes the players created before the cut who never played, raced or created a race or series, and only them', async () => {
    const s = storage();
    const unused = [await addPlayer(s, 'old-1', 100), await addPlayer(s, 'old-2', 200)];
    const recent = await addPlayer(s, 'recent', 1000);
    const player = await addPlayer(s, 'player', 100);
    await addGames(s, gameRow(player.id));
    const creator = await addPlayer(s, 'creator', 100);
    const racer = await addPlayer(s, 'racer', 100);
    const race = await addRace(s, creator.id);
    await s.races.seat(race.id, racer.id, 2, 5);
    const seriesCreator = await addPlayer(s, 'series', 100);
    await s.series.create({ code: 'PRUNE1', variant: 'strict', seed: 's', creatorId: seriesCreator.id, createdAt: 0 });
    const before = await Promise.all([...unused, recent, player, creator, racer, seriesCreator].map((each) => s.players.byId(each.id)));
    expect(before.every(Boolean)).toBe(true);

    // The players of the tests above were created after the cut, or played.
    expect(await s.players.pruneUnused(500)).toBe(2);
    for (const gone of unused) expect(await s.players.byId(gone.id)).toBeUndefined();
    for (const kept of [recent, player, creator, racer, seriesCreator]) expect(await s.players.byId(kept.id)).toEqual(kept);
    expect(await s.players.pruneUnused(500)).toBe(0);
  });
});
