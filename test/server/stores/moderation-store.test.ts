// ModerationStore's and FairPlayStore's contracts, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { FAIR_PLAY_RULE } from '../../../server/fair-play.js';
import { addGames, addPlayer, addRace, DATABASES, endGame, gameRow, storageFor } from './databases.js';

describe.each(DATABASES)('ModerationStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('stores one report per reporter and target, counts a reporter’s recent ones, and lists the open ones by target', async () => {
    const s = storage();
    const [ana, bob, cid] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bob'), await addPlayer(s, 'Cid')];
    const { moderation } = s;
    expect(await moderation.report({ reporterId: bob.id, targetId: ana.id, reason: 'name', createdAt: 100 })).toEqual({ id: expect.any(Number), reporterId: bob.id, targetId: ana.id, reason: 'name', createdAt: 100 });
    const second = await Promise.resolve()
      .then(() => moderation.report({ reporterId: bob.id, targetId: ana.id, reason: 'player', createdAt: 200 }))
      .then(() => undefined, (error: unknown) => error);
    expect(s.games.isDuplicate(second)).toBe(true);
    await moderation.report({ reporterId: cid.id, targetId: ana.id, reason: 'player', createdAt: 300 });
    await moderation.report({ reporterId: cid.id, targetId: bob.id, reason: 'player', createdAt: 400 });
    expect(await moderation.reportsSince(cid.id, 300)).toBe(2);
    expect(await moderation.reportsSince(cid.id, 301)).toBe(1);
    expect(await moderation.openReports(10)).toEqual([
      { target: { id: ana.id, name: 'Ana', bannedAt: null }, name: 1, player: 1, firstAt: 100, lastAt: 300 },
      { target: { id: bob.id, name: 'Bob', bannedAt: null }, name: 0, player: 1, firstAt: 400, lastAt: 400 },
    ]);
    const dismissed = await moderation.apply({ operator: 'eve', action: 'dismiss-reports', targetId: ana.id, detail: {}, at: 500 }, { kind: 'dismiss-reports' });
    expect(dismissed).toEqual({ id: expect.any(Number), operator: 'eve', action: 'dismiss-reports', targetId: ana.id, detail: {}, at: 500 });
    expect((await moderation.openReports(10)).map((row) => row.target.id)).toEqual([bob.id]);
  });

  it('renames, bans (daily results off the board, kept aside) and lifts a ban (back), logging each action', async () => {
    const s = storage();
    const dee = await addPlayer(s, 'Dee');
    const day = '2030-01-02';
    const [daily, race] = await addGames(s, gameRow(dee.id, { kind: 'daily', day }), gameRow(dee.id));
    await endGame(s, daily!, 'won', 900, 77, 52);
    await endGame(s, race!, 'resigned', 900, 88, 10);
    const { moderation } = s;
    await moderation.apply({ operator: 'eve', action: 'rename', targetId: dee.id, detail: { from: 'Dee', to: 'Dora' }, at: 1 }, { kind: 'rename', name: 'Dora' });
    expect(await moderation.player(dee.id)).toEqual({ id: dee.id, name: 'Dora', bannedAt: null });

    await moderation.apply({ operator: 'eve', action: 'ban', targetId: dee.id, detail: {}, at: 2 }, { kind: 'ban', at: 2 });
    expect(await moderation.player(dee.id)).toEqual({ id: dee.id, name: 'Dora', bannedAt: 2 });
    expect(await moderation.banned()).toContainEqual({ id: dee.id, name: 'Dora', bannedAt: 2 });
    expect(await s.daily.page(day, 10, 0)).toEqual([]);
    expect([await s.daily.finished(day), await s.daily.playing(day)]).toEqual([0, 0]);

    await moderation.apply({ operator: 'ivo', action: 'unban', targetId: dee.id, detail: {}, at: 3 }, { kind: 'unban' });
    expect((await s.daily.page(day, 10, 0)).map((row) => [row.name, row.rankKey])).toEqual([['Dora', 77]]);
    expect(await s.daily.finished(day)).toBe(1);
    // The race game's rank key was never touched.
    expect((await s.replays.summary(race!))!.game.rankKey).toBe(88);
    expect((await moderation.actions(2)).map((row) => [row.operator, row.action, row.at])).toEqual([
      ['ivo', 'unban', 3],
      ['eve', 'ban', 2],
    ]);
  });

  it('takes a daily result that ends after the ban off the board, and leaves others alone', async () => {
    const s = storage();
    const [fay, gus] = [await addPlayer(s, 'Fay'), await addPlayer(s, 'Gus')];
    const day = '2030-01-03';
    const [fayGame, gusGame] = await addGames(s, gameRow(fay.id, { kind: 'daily', day }), gameRow(gus.id, { kind: 'daily', day }));
    await s.moderation.apply({ operator: 'eve', action: 'ban', targetId: fay.id, detail: {}, at: 5 }, { kind: 'ban', at: 5 });
    await endGame(s, fayGame!, 'out-of-moves', 900, 40, 20);
    await endGame(s, gusGame!, 'out-of-moves', 900, 41, 19);
    await s.moderation.unlistIfBanned(fayGame!);
    await s.moderation.unlistIfBanned(gusGame!);
    expect((await s.daily.page(day, 10, 0)).map((row) => row.name)).toEqual(['Gus']);
    expect(await s.daily.finished(day)).toBe(1);
  });
});

describe.each(DATABASES)('FairPlayStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('keeps a game’s figures once, averages a player’s, and lists the players in the tail', async () => {
    const s = storage();
    const [bot, human, friend] = [await addPlayer(s, 'Bot'), await addPlayer(s, 'Human'), await addPlayer(s, 'Friend')];
    const rated: number[] = [];
    const unrated: number[] = [];
    for (let i = 0; i < FAIR_PLAY_RULE.minGames; i++) {
      rated.push((await addRace(s, bot.id, { rated: true })).id);
      unrated.push((await addRace(s, friend.id)).id);
    }
    const botGames = await addGames(s, ...rated.map((raceId) => gameRow(bot.id, { raceId })));
    const humanGames = await addGames(s, ...rated.map((raceId) => gameRow(human.id, { raceId })));
    // Perfect play in unrated races does not count for the outliers.
    const friendGames = await addGames(s, ...unrated.map((raceId) => gameRow(friend.id, { raceId })));
    for (const id of friendGames) await s.fairPlay.store({ gameId: id, playerId: friend.id, judged: 50, kept: 50, medianMs: 300, spreadMs: 20, createdAt: 1 });
    for (const id of botGames) await s.fairPlay.store({ gameId: id, playerId: bot.id, judged: 50, kept: 50, medianMs: 300, spreadMs: 20, createdAt: 1 });
    for (const id of humanGames) await s.fairPlay.store({ gameId: id, playerId: human.id, judged: 50, kept: 40, medianMs: 2500, spreadMs: 1200, createdAt: 1 });
    // A second store of the same game keeps the first.
    await s.fairPlay.store({ gameId: botGames[0]!, playerId: bot.id, judged: 1, kept: 0, medianMs: 9, spreadMs: 9, createdAt: 2 });
    expect(await s.fairPlay.byGame(botGames[0]!)).toEqual({ gameId: botGames[0], playerId: bot.id, judged: 50, kept: 50, medianMs: 300, spreadMs: 20, createdAt: 1 });
    expect(await s.fairPlay.ofPlayer(human.id)).toEqual({ games: FAIR_PLAY_RULE.minGames, accuracy: 0.8, medianMs: 2500 });
    expect(await s.fairPlay.ofPlayer(human.id + 1000)).toEqual({ games: 0, accuracy: null, medianMs: null });
    const outliers = await s.fairPlay.outliers(FAIR_PLAY_RULE, 10);
    expect(outliers).toHaveLength(1);
    expect(outliers[0]).toMatchObject({ player: { id: bot.id, name: 'Bot', bannedAt: null }, games: FAIR_PLAY_RULE.minGames, accuracy: 1, medianMs: 300 });
    expect(outliers[0]!.relativeSpread).toBeCloseTo(20 / 300, 6);
    // One game short of the rule's count: not listed.
    expect(await s.fairPlay.outliers({ ...FAIR_PLAY_RULE, minGames: FAIR_PLAY_RULE.minGames + 1 }, 10)).toEqual([]);
    expect(await s.fairPlay.moveTimes(botGames[0]!)).toEqual([]);
    const counts = { foundations: 0, redealsUsed: 0, moves: 1 };
    await s.games.appendMove({ gameId: botGames[1]!, index: 0, action: '1>F', at: 1000, counts });
    await s.games.appendMove({ gameId: botGames[1]!, index: 1, action: '2>F', at: 1300, counts: { ...counts, moves: 2 } });
    expect(await s.fairPlay.moveTimes(botGames[1]!)).toEqual([1000, 1300]);
  });
});
