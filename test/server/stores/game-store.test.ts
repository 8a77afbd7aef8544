// GameStore's and DeadlineStore's contracts, on SQLite and on PostgreSQL: what the game service
// stores and reads back, straight on the port (game-stores.test.ts plays through the service).
import { describe, expect, it } from 'vitest';
import { IndexTaken, type MoveWrite } from '../../../server/ports.js';
import { addGames, addPlayer, DATABASES, gameRow, storageFor } from './databases.js';

const failure = (work: () => unknown) =>
  Promise.resolve()
    .then(work)
    .then(
      () => undefined,
      (error: unknown) => error,
    );

describe.each(DATABASES)('GameStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('stores new games with their first deal, and loads each as stored', async () => {
    const s = storage();
    const ana = await addPlayer(s, 'Ana');
    const [race, daily] = await addGames(s, gameRow(ana.id, { deadline: 9000 }), gameRow(ana.id, { kind: 'daily', day: '2026-11-29', variant: 'merci', seed: 'day-seed', startedAt: 200, layout: ['QH'] }));
    expect(daily).toBe(race! + 1);
    const stored = { kind: 'race', playerId: ana.id, raceId: null, variant: 'strict', seed: 'game-seed', status: 'playing', startedAt: 100, deadline: 9000, finishedAt: null, ghostOf: null, redealFrom: null };
    expect(await s.games.loadGame(race!)).toEqual({ ...stored, id: race });
    expect(await s.games.loadGame(daily!)).toEqual({ ...stored, id: daily, kind: 'daily', variant: 'merci', seed: 'day-seed', startedAt: 200, deadline: null });
    expect(await s.games.loadGame(daily! + 1000)).toBeUndefined();
    expect(await s.games.loadMoveLog(race!)).toEqual({ deals: [['AS 2S', 'KH']], actions: [] });
    expect(await s.games.loadMoveLog(daily!)).toEqual({ deals: [['QH']], actions: [] });
    expect((await s.games.playingGameIds()).filter((id) => id === race || id === daily)).toEqual([race, daily]);
  });

  it('stores none of a batch of games when one is refused, a second daily attempt as a duplicate', async () => {
    const s = storage();
    const bo = await addPlayer(s, 'Bo');
    const attempt = gameRow(bo.id, { kind: 'daily', day: '2026-11-30' });
    const before = await s.games.playingGameIds();
    const error = await failure(() => s.games.createGames([gameRow(bo.id), attempt, attempt]));
    expect(s.games.isDuplicate(error)).toBe(true);
    expect(s.games.storageFailure(error)).toBeUndefined();
    expect(await s.games.playingGameIds()).toEqual(before);
    expect(await s.daily.attempt(bo.id, '2026-11-30')).toBeUndefined();
  });

  it("appends moves to a game's log, a redeal's layout and the cards home with each, and its result with the last", async () => {
    const s = storage();
    const cy = await addPlayer(s, 'Cy');
    const [id] = await addGames(s, gameRow(cy.id));
    const move = (index: number, change: Partial<MoveWrite> = {}): MoveWrite => ({ gameId: id!, index, action: `a${index}`, at: 1000 + index, counts: { foundations: 5 + index, redealsUsed: 0, moves: index + 1 }, ...change });
    await s.games.appendMove(move(0));
    await s.games.appendMove(move(1, { action: 'R', deal: { k: 1, layout: ['KS', 'QS JS'] }, counts: { foundations: 6, redealsUsed: 1, moves: 2 } }));
    expect(await s.games.loadMoveLog(id!)).toEqual({ deals: [['AS 2S', 'KH'], ['KS', 'QS JS']], actions: ['a0', 'R'] });
    // While it plays, its counts are read from the log.
    expect((await s.replays.summary(id!))?.game).toMatchObject({ status: 'playing', foundations: 6, redealsUsed: 1, moves: 2, finishedAt: null, rankKey: null });

    await s.games.appendMove(move(2, { counts: { foundations: 52, redealsUsed: 1, moves: 3 }, result: { status: 'won', finishedAt: 1500, rankKey: 77 } }));
    expect(await s.games.loadGame(id!)).toMatchObject({ status: 'won', finishedAt: 1500 });
    expect((await s.replays.summary(id!))?.game).toMatchObject({ status: 'won', foundations: 52, redealsUsed: 1, moves: 3, finishedAt: 1500, rankKey: 77 });
    expect(await s.games.playingGameIds()).not.toContain(id);
  });

  it('refuses a move at an index stored already with what is stored there, and stores nothing of it', async () => {
    const s = storage();
    const di = await addPlayer(s, 'Di');
    const [id] = await addGames(s, gameRow(di.id));
    const counts = { foundations: 4, redealsUsed: 0, moves: 1 };
    await s.games.appendMove({ gameId: id!, index: 0, action: 'first', at: 1, counts });
    const refused = await failure(() => s.games.appendMove({ gameId: id!, index: 0, action: 'second', at: 2, deal: { k: 1, layout: ['2H'] }, counts }));
    expect(refused).toBeInstanceOf(IndexTaken);
    expect(refused).toMatchObject({ gameId: id, index: 0, stored: 'first' });
    expect(await s.games.loadMoveLog(id!)).toEqual({ deals: [['AS 2S', 'KH']], actions: ['first'] });
  });

  it('ends a playing game once: a second end, or an end of an ended game, changes nothing', async () => {
    const s = storage();
    const eve = await addPlayer(s, 'Eve');
    const [id] = await addGames(s, gameRow(eve.id));
    const end = { gameId: id!, finishedAt: 800, rankKey: 12, counts: { foundations: 9, redealsUsed: 2, moves: 40 } };
    expect(await s.games.endGame({ ...end, status: 'resigned' })).toBe(true);
    expect(await s.games.endGame({ ...end, status: 'timed-out', finishedAt: 900 })).toBe(false);
    expect(await s.games.loadGame(id!)).toMatchObject({ status: 'resigned', finishedAt: 800 });
    expect((await s.replays.summary(id!))?.game).toMatchObject({ foundations: 9, redealsUsed: 2, moves: 40, rankKey: 12 });
    expect(await s.games.endGame({ ...end, gameId: id! + 1000, status: 'resigned' })).toBe(false);
  });
});

describe.each(DATABASES)('DeadlineStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('lists the deadlines of the playing games that have one', async () => {
    const s = storage();
    const flo = await addPlayer(s, 'Flo');
    const [timed, untimed, ended] = await addGames(s, gameRow(flo.id, { deadline: 7000 }), gameRow(flo.id), gameRow(flo.id, { deadline: 8000 }));
    await s.games.endGame({ gameId: ended!, status: 'timed-out', finishedAt: 8000, rankKey: 1, counts: { foundations: 4, redealsUsed: 0, moves: 0 } });
    expect(untimed).toBeDefined();
    expect(await s.deadlines.playing()).toEqual([{ id: timed, deadline: 7000 }]);
  });
});
