// A day's leaderboard: the ranking and tie rules on played attempts, pagination with the player's
// own rank off the page, past days, bad queries, and a larger board checked against a brute force.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { games, players } from '../../server/db/schema.js';
import type { DailyStartAnswer, LeaderboardView } from '../../contract/index.js';
import { rankKey } from '../../server/standings.js';
import { api, autoplay, createPlayer, dbState, ManualClock, startServer, TEST_DAILY_SECRET, type TestPlayer, type TestServer , now } from './helpers.js';

const DAY = '2026-11-29';
const MINUTE = 60_000;

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock();
  server = await startServer({ clock, dailySecret: TEST_DAILY_SECRET });
});
afterEach(async () => server.app.close());

async function start(app: FastifyInstance, player: TestPlayer): Promise<number> {
  const { status, body } = await api(app, 'POST', '/api/daily/start', player);
  if (status !== 201) throw new Error(JSON.stringify(body));
  return (body as DailyStartAnswer).game.gameId;
}

async function board(query = '', player?: TestPlayer, day = DAY): Promise<LeaderboardView> {
  const { status, body } = await api(server.app, 'GET', `/api/daily/${day}/leaderboard${query}`, player);
  if (status !== 200) throw new Error(JSON.stringify(body));
  return body.leaderboard;
}

const ranked = (view: LeaderboardView) => view.entries.map(({ rank, name }) => [rank, name]);

/**
 * Seven players start at once at 12:00 on a deal the helpers' strategy wins (in 78 actions):
 * Bob wins at 12:05, Ann at 12:10; Cid and Dee resign after the same 30 actions at 12:20 (a tie);
 * Fay resigns after those 30 actions too, at 12:30; Eve after 10 actions at 12:15; Gil still plays.
 */
async function playTheDay() {
  const { app } = server;
  const names = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gil'];
  const people: Record<string, TestPlayer & { gameId: number }> = {};
  for (const name of names) {
    const player = await createPlayer(app, name);
    people[name] = { ...player, gameId: await start(app, player) };
  }
  const resign = (name: string) => expect(app.games.resign(people[name]!, people[name]!.gameId)).toBeUndefined();
  for (const name of ['Ann', 'Bob', 'Cid', 'Dee', 'Fay']) await autoplay(app, people[name]!, people[name]!.gameId, 30);
  await autoplay(app, people.Eve!, people.Eve!.gameId, 10);
  await autoplay(app, people.Gil!, people.Gil!.gameId, 5);
  clock.advance(5 * MINUTE);
  await autoplay(app, people.Bob!, people.Bob!.gameId);
  clock.advance(5 * MINUTE);
  await autoplay(app, people.Ann!, people.Ann!.gameId);
  clock.advance(5 * MINUTE);
  resign('Eve');
  clock.advance(5 * MINUTE);
  resign('Cid');
  resign('Dee');
  clock.advance(10 * MINUTE);
  resign('Fay');
  return people;
}

describe('the ranking', () => {
  it('puts wins first by time, then losses by cards home, then time; ties share a rank (1, 2, 3, 3, 5, 6)', async () => {
    const people = await playTheDay();
    const view = await board('', people.Gil);
    const cards = (name: string) => now(server.app.games.get(people[name]!.gameId))!.position.foundationCount();
    expect(cards('Cid')).toBe(cards('Fay'));
    expect(cards('Eve')).toBeLessThan(cards('Cid'));
    expect(view.entries.map(({ rank, name, state, foundations, elapsedMs }) => ({ rank, name, state, foundations, elapsedMs }))).toEqual([
      { rank: 1, name: 'Bob', state: 'won', foundations: 52, elapsedMs: 5 * MINUTE },
      { rank: 2, name: 'Ann', state: 'won', foundations: 52, elapsedMs: 10 * MINUTE },
      { rank: 3, name: 'Cid', state: 'resigned', foundations: cards('Cid'), elapsedMs: 20 * MINUTE },
      { rank: 3, name: 'Dee', state: 'resigned', foundations: cards('Cid'), elapsedMs: 20 * MINUTE },
      { rank: 5, name: 'Fay', state: 'resigned', foundations: cards('Cid'), elapsedMs: 30 * MINUTE },
      { rank: 6, name: 'Eve', state: 'resigned', foundations: cards('Eve'), elapsedMs: 15 * MINUTE },
    ]);
    expect(view).toMatchObject({ day: DAY, open: true, total: 6, playing: 1, limit: 50, offset: 0 });
    // Gil is still playing: not on the board, but told so.
    expect(view.me).toMatchObject({ gameId: people.Gil!.gameId, state: 'playing', rank: null, position: null, elapsedMs: null });
    expect((await board('', people.Dee)).me).toMatchObject({ rank: 3, position: 3, state: 'resigned', elapsedMs: 20 * MINUTE });
    expect((await board()).me).toBeNull();

    // The summaries and the day agree with the board.
    const summary = (await api(server.app, 'GET', `/api/games/${people.Fay!.gameId}`)).body.game;
    expect(summary).toMatchObject({ kind: 'daily', day: DAY, rank: 5, result: { state: 'resigned', elapsedMs: 30 * MINUTE } });
    expect((await api(server.app, 'GET', '/api/daily', people.Ann)).body.daily).toMatchObject({ finished: 6, playing: 1, me: { rank: 2 } });
  });
});

describe('pages', () => {
  it('pages through the board, ranks a page that starts inside a tie, and shows the player their rank off the page', async () => {
    const people = await playTheDay();
    expect(ranked(await board('?limit=2'))).toEqual([
      [1, 'Bob'],
      [2, 'Ann'],
    ]);
    expect(ranked(await board('?limit=2&offset=3'))).toEqual([
      [3, 'Dee'],
      [5, 'Fay'],
    ]);
    const last = await board('?limit=2&offset=4', people.Cid);
    expect(ranked(last)).toEqual([
      [5, 'Fay'],
      [6, 'Eve'],
    ]);
    expect(last).toMatchObject({ limit: 2, offset: 4, total: 6 });
    expect(last.me).toMatchObject({ gameId: people.Cid!.gameId, rank: 3, position: 2, state: 'resigned' });
    expect((await board('?limit=2&offset=6')).entries).toEqual([]);
    expect((await board('?offset=100')).entries).toEqual([]);
  });

  it.each([
    ['?limit=0', 'limit', /1 to 100/],
    ['?limit=101', 'limit', /1 to 100/],
    ['?limit=2.5', 'limit', /1 to 100/],
    ['?offset=-1', 'offset', /from 0/],
    ['?offset=1e3', 'offset', /from 0/],
    ['?page=2', 'page', /unknown field/],
  ])('refuses the query %s naming the field', async (query, field, message) => {
    const before = dbState(server.app);
    const { status, body } = await api(server.app, 'GET', `/api/daily/${DAY}/leaderboard${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid-query', field });
    expect(body.message).toMatch(message);
    expect(dbState(server.app)).toEqual(before);
  });

  it.each([['2026-11-31'], ['2026-1-05'], ['today'], ['2026-11-29x']])('refuses the day %s', async (day) => {
    const { status, body } = await api(server.app, 'GET', `/api/daily/${day}/leaderboard`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid-param', field: 'day' });
  });
});

describe('past days', () => {
  it('keeps a day browsable once it is over, with its ranks unchanged, while the new day starts empty', async () => {
    await playTheDay();
    const during = await board();
    clock.advance(12 * 60 * MINUTE);
    const after = await board();
    // Gil was still playing at midnight: his attempt ended then and joins the board by its cards.
    expect(after).toMatchObject({ open: false, total: 7, playing: 0 });
    expect(after.entries.slice(0, 6)).toEqual(during.entries);
    expect(after.entries[6]).toMatchObject({ rank: 7, name: 'Gil', state: 'timed-out' });
    expect(await board('', undefined, '2026-11-30')).toMatchObject({ open: true, total: 0, playing: 0, entries: [] });
    expect(await board('', undefined, '2026-10-01')).toMatchObject({ open: false, total: 0, entries: [] });
  });
});

describe('a larger board', () => {
  it('ranks 500 stored results exactly as a brute force does, page by page and for each player', async () => {
    const { app } = server;
    // Few distinct results so that ties abound: 0-6 or 52 cards, 1-8 minutes.
    let state = 1;
    const random = (n: number) => {
      state = (state * 48271) % 2147483647;
      return state % n;
    };
    const results = app.db.transaction(() =>
      Array.from({ length: 500 }, (_, i) => {
        const playerId = app.db.insert(players).values({ name: `p${i}`, createdAt: 0 }).returning().get().id;
        const won = random(10) === 0;
        const foundations = won ? 52 : random(7);
        const elapsedMs = (1 + random(8)) * MINUTE;
        const startedAt = clock.now() - 60 * MINUTE;
        app.db
          .insert(games)
          .values({
            kind: 'daily',
            playerId,
            day: DAY,
            variant: 'strict',
            seed: 'x',
            status: won ? 'won' : 'out-of-moves',
            foundations,
            startedAt,
            finishedAt: startedAt + elapsedMs,
            rankKey: rankKey(foundations, elapsedMs),
          })
          .run();
        return { playerId, foundations, elapsedMs };
      }),
    );
    // The rule, written out plainly: a result's rank is 1 + the results strictly better than it.
    const better = (a: (typeof results)[number], b: (typeof results)[number]) =>
      a.foundations > b.foundations || (a.foundations === b.foundations && a.elapsedMs < b.elapsedMs);
    const expected = results.map((result) => ({ ...result, rank: 1 + results.filter((other) => better(other, result)).length }));

    const seen: { playerId: number; rank: number }[] = [];
    for (let offset = 0; offset < 500; offset += 37) {
      const page = await board(`?limit=37&offset=${offset}`);
      expect(page.total).toBe(500);
      seen.push(...page.entries.map(({ playerId, rank }) => ({ playerId, rank })));
    }
    expect(seen).toHaveLength(500);
    expect(seen.map(({ rank }) => rank)).toEqual(expected.map(({ rank }) => rank).sort((a, b) => a - b));
    for (const { playerId, rank } of seen) expect(rank).toBe(expected.find((result) => result.playerId === playerId)!.rank);
    for (const i of [0, 137, 499]) {
      const player = { id: expected[i]!.playerId, name: `p${i}` };
      const me = await app.daily.board.attempt((await app.storage.daily.attempt(player.id, DAY))!);
      expect(me.rank).toBe(expected[i]!.rank);
      expect(seen[me.position!]!.playerId).toBe(player.id);
    }
  });
});
