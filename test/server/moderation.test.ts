// Moderation: the operator's routes behind ADMIN_TOKEN (and nothing without it), a ban (sockets
// closed, lobby seats freed, results off the daily and series boards) and its lifting (all back),
// renames and hidden names, the refused-words list, and players' reports (one per target, a cap).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { DailyStartAnswer, OperatorOverviewAnswer } from '../../contract/index.js';
import { REPORT_LIMIT } from '../../contract/index.js';
import { normaliseName, parseRefusedNames, refusedRuleOf } from '../../server/refused-names.js';
import { createTestDatabase } from './pg.js';
import { api, autoplay, Client, createPlayer, createRace, dbState, ManualClock, startServer, TEST_DAILY_SECRET, type TestPlayer, type TestServer } from './helpers.js';

const ADMIN_TOKEN = 'operator-token-for-the-moderation-suite';
const DAY = '2026-11-29';

let server: TestServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server?.app.close();
  server = undefined;
});

async function operator(app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: object, token = ADMIN_TOKEN) {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload && { payload }) });
  return { status: response.statusCode, body: response.json() };
}

const overview = async (app: FastifyInstance): Promise<OperatorOverviewAnswer> => (await operator(app, 'GET', '/api/operator')).body;
const boardNames = async (app: FastifyInstance) => (await api(app, 'GET', `/api/daily/${DAY}/leaderboard`)).body.leaderboard;
const seriesNames = async (app: FastifyInstance, code: string) => (await api(app, 'GET', `/api/series/${code}`)).body.series.players.map((row: { player: { name: string } }) => row.player.name);
const moderationRows = (app: FastifyInstance) => ({
  state: dbState(app),
  reports: app.db.all(sql.raw('select * from reports order by 1')),
  actions: app.db.all(sql.raw('select * from operator_actions order by 1')),
});

describe('the operator routes', () => {
  it('answer 401 and change nothing without the token or with a wrong one, and refuse everyone when ADMIN_TOKEN is unset', async () => {
    server = await startServer({ adminToken: ADMIN_TOKEN });
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const before = moderationRows(app);
    const attempts: [string, string, object?][] = [
      ['GET', '/api/operator'],
      ['POST', `/api/operator/players/${ana.id}/ban`, { operator: 'eve' }],
      ['POST', `/api/operator/players/${ana.id}/rename`, { operator: 'eve', name: 'Other' }],
      ['POST', `/api/operator/players/${ana.id}/hide-name`, { operator: 'eve' }],
      ['POST', `/api/operator/players/${ana.id}/unban`, { operator: 'eve' }],
      ['POST', `/api/operator/players/${ana.id}/dismiss-reports`, { operator: 'eve' }],
    ];
    for (const [method, url, payload] of attempts) {
      const none = await app.inject({ method: method as 'GET', url, ...(payload && { payload }) });
      expect(none.statusCode, url).toBe(401);
      expect(none.json().code).toBe('unauthorized');
      // A player's own token is no operator's.
      expect((await operator(app, method as 'GET', url, payload, ana.token)).status, url).toBe(401);
      expect((await operator(app, method as 'GET', url, payload, `${ADMIN_TOKEN}x`)).status, url).toBe(401);
    }
    expect(moderationRows(app)).toEqual(before);
    expect((await api(app, 'GET', '/api/me', ana)).status).toBe(200);
    await app.close();

    server = await startServer();
    const off = await operator(server.app, 'GET', '/api/operator');
    expect(off.status).toBe(401);
    expect(off.body.message).toContain('ADMIN_TOKEN');
  });

  it('rename a player or hide their name, refuse a refused name, and log every action with who, what and when', async () => {
    const clock = new ManualClock();
    server = await startServer({ adminToken: ADMIN_TOKEN, clock });
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const renamed = await operator(app, 'POST', `/api/operator/players/${ana.id}/rename`, { operator: 'eve', name: '  Anna ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.player).toEqual({ id: ana.id, name: 'Anna', bannedAt: null });
    expect((await api(app, 'GET', '/api/me', ana)).body.player.name).toBe('Anna');

    const before = moderationRows(app);
    const refused = await operator(app, 'POST', `/api/operator/players/${ana.id}/rename`, { operator: 'eve', name: 'Sh1t-head' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'name-refused', field: 'name', params: { field: 'name', category: 'offensive' } });
    expect(moderationRows(app)).toEqual(before);
    expect((await operator(app, 'POST', '/api/operator/players/9999/rename', { operator: 'eve', name: 'Zed' })).body.code).toBe('unknown-player');
    expect((await operator(app, 'POST', `/api/operator/players/${ana.id}/rename`, { name: 'Zed' })).body).toMatchObject({ code: 'invalid-body', field: 'operator' });

    clock.jump(60_000);
    const hidden = await operator(app, 'POST', `/api/operator/players/${ana.id}/hide-name`, { operator: 'ivo' });
    expect(hidden.body.player.name).toBe(`#${ana.id}`);
    expect((await api(app, 'GET', `/api/players/${ana.id}/stats`)).body.stats.player.name).toBe(`#${ana.id}`);
    const { actions } = await overview(app);
    expect(actions.map(({ operator: who, action, targetId, detail, at }) => ({ who, action, targetId, detail, at }))).toEqual([
      { who: 'ivo', action: 'hide-name', targetId: ana.id, detail: { from: 'Anna', to: `#${ana.id}` }, at: clock.now() },
      { who: 'eve', action: 'rename', targetId: ana.id, detail: { from: 'Ana', to: 'Anna' }, at: clock.now() - 60_000 },
    ]);
  });
});

describe('a ban', () => {
  it("closes the player's sockets, frees their lobby seat, takes them off the daily and series boards; lifted, brings them back", async () => {
    const clock = new ManualClock();
    server = await startServer({ adminToken: ADMIN_TOKEN, clock, dailySecret: TEST_DAILY_SECRET });
    const { app } = server;
    const [ana, bob, cid] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cid')];
    // Daily attempts: Ana wins, Bob resigns after a few moves.
    const start = async (player: TestPlayer) => ((await api(app, 'POST', '/api/daily/start', player)).body as DailyStartAnswer).game.gameId;
    const [anaGame, bobGame] = [await start(ana), await start(bob)];
    await autoplay(app, ana, anaGame);
    await autoplay(app, bob, bobGame, 5);
    expect(await app.games.resign(bob, bobGame)).toBeUndefined();
    // A series: both play its first deal.
    const series = (await api(app, 'POST', '/api/series', ana)).body.series.code;
    for (const player of [ana, bob]) expect((await api(app, 'POST', `/api/series/${series}/deals/1`, player)).status).toBe(201);
    // Cid's lobby, with Ana seated; Ana connected.
    const race = await createRace(app, cid);
    await api(app, 'POST', `/api/races/${race.code}/join`, ana);
    const socket = await Client.connect(server.wsBase, ana);
    clients.push(socket);
    const before = await boardNames(app);
    expect(before.entries.map((entry: { name: string; rank: number }) => [entry.rank, entry.name])).toEqual([[1, 'Ana'], [2, 'Bob']]);
    expect(await seriesNames(app, series)).toEqual(expect.arrayContaining(['Ana', 'Bob']));

    const banned = await operator(app, 'POST', `/api/operator/players/${ana.id}/ban`, { operator: 'eve' });
    expect(banned.status).toBe(200);
    expect(banned.body.player).toEqual({ id: ana.id, name: 'Ana', bannedAt: clock.now() });
    expect(await socket.whenClosed()).toEqual({ code: 4003, reason: 'banned' });
    const lobby = (await api(app, 'GET', `/api/races/${race.code}`)).body.race;
    expect(lobby.racers.map((racer: { name: string }) => racer.name)).toEqual(['Cid']);
    const after = await boardNames(app);
    expect(after.entries.map((entry: { name: string; rank: number }) => [entry.rank, entry.name])).toEqual([[1, 'Bob']]);
    expect([after.total, after.playing]).toEqual([1, 0]);
    expect(await seriesNames(app, series)).toEqual(['Bob']);
    // The identity is refused everywhere, with a code that says why; its games stay stored.
    expect((await api(app, 'GET', '/api/me', ana)).body).toMatchObject({ statusCode: 403, code: 'banned', params: { player: ana.id } });
    await expect(Client.connect(server.wsBase, ana)).rejects.toThrow();
    expect((await api(app, 'GET', `/api/games/${anaGame}`)).status).toBe(200);
    expect((await overview(app)).banned).toEqual([{ id: ana.id, name: 'Ana', bannedAt: clock.now() }]);

    expect((await operator(app, 'POST', `/api/operator/players/${ana.id}/unban`, { operator: 'eve' })).body.player.bannedAt).toBeNull();
    expect((await boardNames(app)).entries.map((entry: { name: string; rank: number }) => [entry.rank, entry.name])).toEqual([[1, 'Ana'], [2, 'Bob']]);
    expect((await boardNames(app)).total).toBe(2);
    expect(await seriesNames(app, series)).toEqual(expect.arrayContaining(['Ana', 'Bob']));
    expect((await api(app, 'GET', '/api/me', ana)).status).toBe(200);
    expect((await overview(app)).actions.map((action) => action.action)).toEqual(['unban', 'ban']);
  });

  it('closes the sockets on every instance, and its lobby seat frees there too (PostgreSQL and Redis)', async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
    const database = await createTestDatabase();
    const options = { databaseUrl: database.url, redisUrl, redisPrefix: `t-${randomUUID()}`, adminToken: ADMIN_TOKEN };
    const one = await startServer(options);
    const other = await startServer(options);
    try {
      const [ana, cid] = [await createPlayer(other.app, 'Ana'), await createPlayer(other.app, 'Cid')];
      const race = await createRace(other.app, cid);
      await api(other.app, 'POST', `/api/races/${race.code}/join`, ana);
      const [here, there] = [await Client.connect(one.wsBase, ana), await Client.connect(other.wsBase, ana)];
      clients.push(here, there);
      expect((await operator(one.app, 'POST', `/api/operator/players/${ana.id}/ban`, { operator: 'eve' })).status).toBe(200);
      expect(await here.whenClosed()).toEqual({ code: 4003, reason: 'banned' });
      expect(await there.whenClosed()).toEqual({ code: 4003, reason: 'banned' });
      expect((await api(other.app, 'GET', `/api/races/${race.code}`)).body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Cid']);
      expect((await api(other.app, 'GET', '/api/me', ana)).body.code).toBe('banned');
    } finally {
      for (const client of clients.splice(0)) client.close();
      await Promise.all([one.app.close(), other.app.close()]);
      await database.drop();
    }
  });

  it('announces player-banned and player-unbanned (the pool and ratings listen)', async () => {
    server = await startServer({ adminToken: ADMIN_TOKEN });
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const heard: string[] = [];
    app.events.on('player-banned', ({ playerId }) => heard.push(`banned ${playerId}`));
    app.events.on('player-unbanned', ({ playerId }) => heard.push(`unbanned ${playerId}`));
    await operator(app, 'POST', `/api/operator/players/${ana.id}/ban`, { operator: 'eve' });
    await operator(app, 'POST', `/api/operator/players/${ana.id}/unban`, { operator: 'eve' });
    expect(heard).toEqual([`banned ${ana.id}`, `unbanned ${ana.id}`]);
  });
});

describe('names', () => {
  it('are refused on create by the rule they break, lightly normalised (case, accents, leetspeak), and nothing is stored', async () => {
    server = await startServer();
    const { app } = server;
    const before = dbState(app);
    for (const [name, rule] of [
      ['F.U.C.K', 'offensive'],
      ['Mérdä', 'offensive'],
      ['b1tch', 'offensive'],
      ['Adm1n', 'impersonation'],
      ['MODERATOR_1', 'impersonation'],
    ] as const) {
      const response = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
      expect(response.statusCode, name).toBe(400);
      expect(response.json(), name).toMatchObject({ code: 'name-refused', field: 'name', params: { field: 'name', category: rule } });
    }
    expect(dbState(app)).toEqual(before);
    for (const name of ['Cassandra', 'Scottie', 'Ana María']) expect((await app.inject({ method: 'POST', url: '/api/players', payload: { name } })).statusCode, name).toBe(201);
  });

  it('read the list file: sections name the rules, comments and blanks are skipped, a word outside a section is refused', () => {
    const rules = parseRefusedNames('# words\n\n[rude]\nBad Wörd  # a comment\n[fake]\nstaff\n');
    expect(rules).toEqual([
      { rule: 'rude', words: ['badword'] },
      { rule: 'fake', words: ['staff'] },
    ]);
    expect(normaliseName('B.4-D  w0rd!')).toBe('badwordi');
    expect(refusedRuleOf(rules, 'xxB4D-W0RDxx')).toBe('rude');
    expect(refusedRuleOf(rules, 'The $taff')).toBe('fake');
    expect(refusedRuleOf(rules, 'Good word')).toBeNull();
    expect(() => parseRefusedNames('orphan\n[rule]\n')).toThrow('line 1');
    expect(() => parseRefusedNames('[Bad Rule]\n')).toThrow('line 1');
  });
});

describe('reports', () => {
  it('one per reporter and target, not of oneself, at most REPORT_LIMIT an hour; the operator page lists them until acted on', async () => {
    const clock = new ManualClock();
    server = await startServer({ adminToken: ADMIN_TOKEN, clock });
    const { app } = server;
    const [ana, bob, cid] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cid')];
    const report = (by: TestPlayer, target: number, reason = 'name') => api(app, 'POST', `/api/players/${target}/report`, by, { reason });
    const first = await report(bob, ana.id);
    expect(first.status).toBe(201);
    expect(first.body.report).toEqual({ id: expect.any(Number), targetId: ana.id, reason: 'name', createdAt: clock.now() });
    expect((await report(bob, ana.id, 'player')).body).toMatchObject({ statusCode: 409, code: 'already-reported', params: { player: ana.id } });
    expect((await report(cid, ana.id, 'player')).status).toBe(201);
    expect((await report(ana, ana.id)).body).toMatchObject({ statusCode: 409, code: 'cannot-report-self' });
    expect((await report(ana, 9999)).body).toMatchObject({ statusCode: 404, code: 'unknown-player' });
    expect((await api(app, 'POST', `/api/players/${ana.id}/report`, undefined, { reason: 'name' })).status).toBe(401);
    expect((await report(ana, bob.id, 'rude')).body).toMatchObject({ code: 'invalid-body', field: 'reason' });

    const { reports } = await overview(app);
    expect(reports).toEqual([{ target: { id: ana.id, name: 'Ana', bannedAt: null }, name: 1, player: 1, firstAt: clock.now(), lastAt: clock.now() }]);
    await operator(app, 'POST', `/api/operator/players/${ana.id}/dismiss-reports`, { operator: 'eve' });
    expect((await overview(app)).reports).toEqual([]);
    // Dismissed, still one per reporter: Bob cannot report Ana again.
    expect((await report(bob, ana.id)).body.code).toBe('already-reported');

    // The cap: REPORT_LIMIT reports an hour from one reporter, then a wait.
    const targets: TestPlayer[] = [];
    for (let i = 0; i <= REPORT_LIMIT; i++) targets.push(await createPlayer(app, `Target ${i}`));
    for (const target of targets.slice(0, REPORT_LIMIT - 1)) expect((await report(cid, target.id)).status).toBe(201);
    const capped = await report(cid, targets[REPORT_LIMIT - 1]!.id);
    expect(capped.body).toMatchObject({ statusCode: 429, code: 'rate-limited', params: { limit: REPORT_LIMIT, seconds: 3600 } });
    clock.jump(3_600_001);
    expect((await report(cid, targets[REPORT_LIMIT - 1]!.id)).status).toBe(201);
  });
});
