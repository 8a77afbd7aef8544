import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dailyAnswer, dailyStartAnswer, dayParams, leaderboardAnswer, leaderboardQuery } from '../../contract/index.js';
import { DAILY_CLOSE, DailyService, storedDailySecret } from '../daily.js';
import { ERROR_ANSWERS } from '../http.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    daily: DailyService;
  }
}

/**
 * The daily deal over HTTP: the day, the attempt, the leaderboard. The attempt is then played on
 * the websocket like any game (`action`, `resync`, `resign` by gameId).
 */
export default fp<{ secret?: string }>(
  async (app, { secret }) => {
    const daily = new DailyService(
      app.storage.daily,
      app.games,
      app.clock,
      secret ?? (await storedDailySecret(app.storage.daily, app.clock.now())),
      app.events,
      app.scheduler,
    );
    app.decorate('daily', daily);
    app.scheduler.handle(DAILY_CLOSE, daily.dayCloses);

    const api = app.withTypeProvider<ZodTypeProvider>();
    const dailyAnswers = { 200: dailyAnswer, ...ERROR_ANSWERS };
    api.get('/api/daily', { schema: { response: dailyAnswers } }, async (request) => ({ daily: await daily.view(daily.today(), request.player) }));

    api.get('/api/daily/:day', { schema: { params: dayParams, response: dailyAnswers } }, async (request) => ({
      daily: await daily.view(request.params.day, request.player),
    }));

    api.post('/api/daily/start', { schema: { response: { 200: dailyStartAnswer, 201: dailyStartAnswer, ...ERROR_ANSWERS } } }, async (request, reply) => {
      const player = currentPlayer(request);
      const { day, game, created } = await daily.start(player);
      reply.code(created ? 201 : 200);
      return { daily: await daily.view(day, player), game: app.games.snapshot(game, null) };
    });

    api.get(
      '/api/daily/:day/leaderboard',
      { schema: { params: dayParams, querystring: leaderboardQuery, response: { 200: leaderboardAnswer, ...ERROR_ANSWERS } } },
      async (request) => ({ leaderboard: await daily.leaderboard(request.params.day, request.query, request.player) }),
    );
  },
  { name: 'daily', dependencies: ['db', 'players', 'games', 'scheduler', 'events'] },
);
