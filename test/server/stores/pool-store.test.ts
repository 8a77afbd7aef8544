// PoolStore's and LobbyStore's contracts, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { NewRace } from '../../../server/stores.js';
import { addPlayer, addRace, DATABASES, storageFor } from './databases.js';

const quick = (code: string, creatorId: number): NewRace => ({ code, variant: 'strict', seats: 8, seed: 'quick-seed', state: 'countdown', creatorId, createdAt: 50, startsAt: 60, listed: true, rated: true });

describe.each(DATABASES)('PoolStore and LobbyStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('keeps one entry per player, lists the waiting longest first, and lets them leave once', async () => {
    const s = storage();
    const [ana, bo, cy] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    await s.pool.join({ playerId: bo.id, variant: 'strict', rating: 1500, joinedAt: 20 });
    await s.pool.join({ playerId: ana.id, variant: 'strict', rating: null, joinedAt: 10 });
    await s.pool.join({ playerId: cy.id, variant: 'merci', rating: 1400, joinedAt: 5 });
    // Joining again replaces the entry.
    await s.pool.join({ playerId: bo.id, variant: 'strict', rating: 1510, joinedAt: 30 });
    expect(await s.pool.waiting('strict')).toEqual([
      { playerId: ana.id, variant: 'strict', rating: null, joinedAt: 10, raceId: null },
      { playerId: bo.id, variant: 'strict', rating: 1510, joinedAt: 30, raceId: null },
    ]);
    expect((await s.pool.waiting()).map((entry) => entry.playerId)).toEqual([cy.id, ana.id, bo.id]);
    expect(await s.lobby.waitingByVariant()).toEqual([
      { variant: 'merci', count: 1, oldestJoinedAt: 5 },
      { variant: 'strict', count: 2, oldestJoinedAt: 10 },
    ]);
    expect(await s.pool.leave(cy.id)).toBe(true);
    expect(await s.pool.leave(cy.id)).toBe(false);
    expect(await s.pool.entry(cy.id)).toBeUndefined();
  });

  it('forms a race only when every player is still waiting, seating them in order and marking them paired', async () => {
    const s = storage();
    const [ana, bo, cy] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    for (const [i, player] of [ana, bo, cy].entries()) await s.pool.join({ playerId: player.id, variant: 'strict', rating: null, joinedAt: i });
    const raceId = await s.pool.form(quick('QUICK1', bo.id), [bo.id, ana.id], 55);
    expect(raceId).toEqual(expect.any(Number));
    expect((await s.races.entries(raceId!)).map((entry) => [entry.playerId, entry.seat, entry.joinedAt])).toEqual([
      [bo.id, 1, 55],
      [ana.id, 2, 55],
    ]);
    expect(await s.races.byId(raceId!)).toMatchObject({ code: 'QUICK1', state: 'countdown', listed: true, rated: true });
    expect(await s.pool.entry(ana.id)).toMatchObject({ raceId });
    // A paired entry cannot be left, only removed.
    expect(await s.pool.leave(ana.id)).toBe(false);
    // Bo is taken: a second race with him changes nothing at all.
    expect(await s.pool.form(quick('QUICK2', cy.id), [cy.id, bo.id], 56)).toBeUndefined();
    expect(await s.races.byCode('QUICK2')).toBeUndefined();
    expect(await s.pool.entry(cy.id)).toMatchObject({ raceId: null });
    expect(await s.pool.remove(ana.id)).toBe(true);
    expect(await s.pool.remove(ana.id)).toBe(false);
  });

  it('lists the listed lobbies and races under way with their racers, newest first, never an unlisted or ended one', async () => {
    const s = storage();
    const [ana, bo] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo')];
    const hidden = await addRace(s, ana.id, { createdAt: 101 });
    const open = await addRace(s, ana.id, { createdAt: 102, listed: true, timeLimitSeconds: 300 });
    await s.races.seat(open.id, bo.id, 2, 3);
    const running = await addRace(s, bo.id, { createdAt: 103, listed: true, state: 'running', startsAt: 104, rated: true });
    await addRace(s, bo.id, { createdAt: 104, listed: true, state: 'finished' });
    // The quick race of the test before (created at 50) comes after these.
    const rows = await s.lobby.listed(10);
    expect(rows.map((row) => row.code)).toEqual([running.code, open.code, 'QUICK1']);
    expect(rows[1]).toEqual({ id: open.id, code: open.code, variant: 'strict', seats: 4, timeLimitSeconds: 300, rated: false, state: 'lobby', createdAt: 102, startsAt: null, creatorId: ana.id, racers: [{ id: ana.id, name: 'Ana' }, { id: bo.id, name: 'Bo' }] });
    expect(rows[0]).toMatchObject({ state: 'running', rated: true, racers: [{ id: bo.id, name: 'Bo' }] });
    expect(rows.some((row) => row.code === hidden.code)).toBe(false);
    expect(await s.lobby.listed(1)).toHaveLength(1);
  });
});
