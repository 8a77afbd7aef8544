// RaceStore's contract, on SQLite and on PostgreSQL. Each test seats players of its own, so that
// the lists a player's races come from are exact.
import { describe, expect, it } from 'vitest';
import type { RaceRow } from '../../../server/stores.js';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

const ids = (rows: readonly { id: number }[]) => rows.map((row) => row.id);

describe.each(DATABASES)('RaceStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('stores a race with its creator in seat 1, finds it by code and id, and lists its seats and racers in seat order', async () => {
    const s = storage();
    const ana = await addPlayer(s, 'Ana');
    const bo = await addPlayer(s, 'Bo');
    const { id, code } = await addRace(s, ana.id, { timeLimitSeconds: 600 });
    await s.races.seat(id, bo.id, 2, 7);
    const row: RaceRow = {
      id,
      code,
      variant: 'strict',
      seats: 4,
      timeLimitSeconds: 600,
      seed: 'race-seed',
      state: 'lobby',
      creatorId: ana.id,
      createdAt: 0,
      startsAt: null,
      finishedAt: null,
      lobbyClosesAt: null,
      capAt: null,
      closedReason: null,
      rematchOf: null, listed: false, rated: false,
    };
    expect(await s.races.byCode(code)).toEqual(row);
    expect(await s.races.byId(id)).toEqual(row);
    expect(await s.races.byCode('NOSUCH')).toBeUndefined();
    expect(await s.races.byId(id + 1000)).toBeUndefined();
    const seat = { raceId: id, rank: null, goneSince: null, rematch: null };
    expect(await s.races.entries(id)).toEqual([
      { ...seat, playerId: ana.id, seat: 1, joinedAt: 5 },
      { ...seat, playerId: bo.id, seat: 2, joinedAt: 7 },
    ]);
    expect(await s.races.entry(id, bo.id)).toEqual({ ...seat, playerId: bo.id, seat: 2, joinedAt: 7 });
    expect(await s.races.entry(id, bo.id + 1000)).toBeUndefined();
    expect(await s.races.racers(id)).toEqual([
      { id: ana.id, name: 'Ana', rank: null, seat: 1, goneSince: null, rematch: null },
      { id: bo.id, name: 'Bo', rank: null, seat: 2, goneSince: null, rematch: null },
    ]);
  });

  it('refuses a seat another player took as a duplicate, and a race code taken', async () => {
    const s = storage();
    const [cy, di] = [await addPlayer(s, 'Cy'), await addPlayer(s, 'Di')];
    const { id, code } = await addRace(s, cy.id);
    const failure = (work: () => unknown) => Promise.resolve().then(work).then(() => undefined, (error: unknown) => error);
    expect(s.games.isDuplicate(await failure(() => s.races.seat(id, di.id, 1, 9)))).toBe(true);
    expect(s.games.isDuplicate(await failure(() => addRace(s, di.id, { code })))).toBe(true);
    expect(await s.races.entries(id)).toHaveLength(1);
  });

  it('changes a race, and changes it from a state only while it is in that state', async () => {
    const s = storage();
    const eve = await addPlayer(s, 'Eve');
    const [lobby, other] = [await addRace(s, eve.id), await addRace(s, eve.id)];
    await s.races.update(lobby.id, { lobbyClosesAt: 99, seats: 3 });
    expect(await s.races.byId(lobby.id)).toMatchObject({ state: 'lobby', lobbyClosesAt: 99, seats: 3 });
    expect(await s.races.transition(lobby.id, 'running', { state: 'finished' })).toBe(false);
    expect(await s.races.transition(lobby.id, 'lobby', { state: 'countdown', startsAt: 50 })).toBe(true);
    expect(await s.races.transition(lobby.id, 'lobby', { state: 'closed', closedReason: 'cancelled' })).toBe(false);
    expect(await s.races.byId(lobby.id)).toMatchObject({ state: 'countdown', startsAt: 50, closedReason: null });
    expect(await s.races.byId(other.id)).toMatchObject({ state: 'lobby', lobbyClosesAt: null, seats: 4 });
    const mine = [lobby.id, other.id];
    expect(ids(await s.races.inState('countdown')).filter((id) => mine.includes(id))).toEqual([lobby.id]);
    expect(ids(await s.races.inState('lobby')).filter((id) => mine.includes(id))).toEqual([other.id]);
  });

  it('counts the races in each state', async () => {
    const s = storage();
    const gus = await addPlayer(s, 'Gus');
    const before = await s.races.countByState();
    const [lobby] = [await addRace(s, gus.id), await addRace(s, gus.id)];
    await s.races.transition(lobby.id, 'lobby', { state: 'countdown', startsAt: 50 });
    const after = await s.races.countByState();
    expect(after).toEqual({ ...before, lobby: (before.lobby ?? 0) + 1, countdown: (before.countdown ?? 0) + 1 });
  });

  it('finds the rematch of a race once one was asked for', async () => {
    const s = storage();
    const flo = await addPlayer(s, 'Flo');
    const first = await addRace(s, flo.id);
    expect(await s.races.rematchOf(first.id)).toBeUndefined();
    const again = await addRace(s, flo.id, { rematchOf: first.id });
    expect(await s.races.rematchOf(first.id)).toMatchObject({ id: again.id, code: again.code, rematchOf: first.id });
    expect(await s.races.rematchOf(again.id)).toBeUndefined();
  });

  it("updates a seat's presence and rematch answer, and lists the live races' seats and those gone", async () => {
    const s = storage();
    const [gil, hal] = [await addPlayer(s, 'Gil'), await addPlayer(s, 'Hal')];
    const live = await addRace(s, gil.id);
    await s.races.seat(live.id, hal.id, 2, 6);
    const over = await addRace(s, hal.id, { state: 'finished' });
    await s.races.updateEntry(live.id, hal.id, { goneSince: 40 });
    await s.races.updateEntry(over.id, hal.id, { goneSince: 41, rematch: 'accepted' });
    expect(await s.races.entry(over.id, hal.id)).toMatchObject({ goneSince: 41, rematch: 'accepted' });
    const mine = <Row extends { raceId: number }>(rows: Row[]) => rows.filter((row) => row.raceId === live.id || row.raceId === over.id);
    expect(mine(await s.races.liveEntries()).sort((a, b) => a.playerId - b.playerId)).toEqual([
      { raceId: live.id, playerId: gil.id, goneSince: null },
      { raceId: live.id, playerId: hal.id, goneSince: 40 },
    ]);
    expect(mine(await s.races.goneEntries())).toEqual([{ raceId: live.id, playerId: hal.id, goneSince: 40 }]);
    await s.races.updateEntry(live.id, hal.id, { goneSince: null });
    expect(mine(await s.races.goneEntries())).toEqual([]);
  });

  it('frees a lobby seat, passing the lobby to the next racer when it was the creator’s, and nothing otherwise', async () => {
    const s = storage();
    const [ike, jo, kim] = [await addPlayer(s, 'Ike'), await addPlayer(s, 'Jo'), await addPlayer(s, 'Kim')];
    const { id } = await addRace(s, ike.id);
    await s.races.seat(id, jo.id, 2, 6);
    await s.races.seat(id, kim.id, 3, 7);
    expect(await s.races.unseat(id, ike.id)).toEqual({ heir: { id: jo.id, name: 'Jo' } });
    expect(await s.races.byId(id)).toMatchObject({ creatorId: jo.id });
    expect(await s.races.unseat(id, kim.id)).toEqual({});
    expect(await s.races.unseat(id, kim.id)).toBeUndefined();
    expect(await s.races.byId(id)).toMatchObject({ creatorId: jo.id });
    expect(await s.races.unseat(id, jo.id)).toEqual({ heir: null });
    expect(await s.races.entries(id)).toEqual([]);

    const started = await addRace(s, ike.id, { state: 'countdown' });
    expect(await s.races.unseat(started.id, ike.id)).toBeUndefined();
    expect(await s.races.unseat(started.id + 1000, ike.id)).toBeUndefined();
    expect(ids(await s.races.racers(started.id))).toEqual([ike.id]);
  });

  it("reads a running race's games, finishes it once with its standings, and lists each player's live and finished races", async () => {
    const s = storage();
    const [lu, max, ned] = [await addPlayer(s, 'Lu'), await addPlayer(s, 'Max'), await addPlayer(s, 'Ned')];
    const race = await addRace(s, lu.id, { state: 'countdown' });
    await s.races.seat(race.id, max.id, 2, 6);
    const lobby = await addRace(s, ned.id);
    await s.races.seat(lobby.id, lu.id, 2, 8);
    const [luGame, maxGame] = await s.games.createGames([gameRow(lu.id, { raceId: race.id }), gameRow(max.id, { raceId: race.id, foundations: 6 })], { raceId: race.id, capAt: 5000 });
    expect(await s.races.byId(race.id)).toMatchObject({ state: 'running', capAt: 5000 });
    expect(await s.races.gameIdOf(race.id, max.id)).toBe(maxGame);
    expect(await s.races.gameIdOf(race.id, ned.id)).toBeUndefined();
    const playing = { kind: 'race', raceId: race.id, day: null, seriesId: null, seriesDeal: null, variant: 'strict', seed: 'game-seed', status: 'playing', redealsUsed: 0, moves: 0, startedAt: 100, deadline: null, finishedAt: null, rankKey: null, ghostOf: null, redealFrom: null };
    expect((await s.races.games(race.id)).sort((a, b) => a.id - b.id)).toEqual([
      { ...playing, id: luGame, playerId: lu.id, foundations: 4 },
      { ...playing, id: maxGame, playerId: max.id, foundations: 6 },
    ]);
    expect(ids(await s.races.liveRacesOf(lu.id)).sort()).toEqual([race.id, lobby.id].sort());

    const done = async () => ids(await s.races.doneRunning()).filter((id) => id === race.id);
    expect(await done()).toEqual([]);
    await endGame(s, luGame!, 'won', 900, 1, 52);
    expect(await done()).toEqual([]);
    await endGame(s, maxGame!, 'resigned', 950, 2, 9);
    expect(await done()).toEqual([race.id]);

    expect(await s.races.finish(race.id, [{ playerId: lu.id, rank: 1 }, { playerId: max.id, rank: 2 }], 1000)).toBe(true);
    expect(await s.races.finish(race.id, [{ playerId: lu.id, rank: 2 }], 1001)).toBe(false);
    expect(await s.races.byId(race.id)).toMatchObject({ state: 'finished', finishedAt: 1000 });
    expect((await s.races.racers(race.id)).map((racer) => [racer.name, racer.rank])).toEqual([['Lu', 1], ['Max', 2]]);
    expect(await done()).toEqual([]);
    expect(ids(await s.races.liveRacesOf(lu.id))).toEqual([lobby.id]);
    expect(ids(await s.races.finishedRacesOf(max.id, 1000))).toEqual([race.id]);
    expect(await s.races.finishedRacesOf(max.id, 1001)).toEqual([]);
    expect(await s.races.finishedRacesOf(ned.id, 0)).toEqual([]);
  });
});
