import fp from 'fastify-plugin';
import { DAILY_CLOSE, DailyService, storedDailySecret } from '../daily.js';
import { serve } from '../http.js';
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

    serve(app, 'today', async (request) => ({ daily: await daily.view(daily.today(), request.player) }));

    serve(app, 'daily', async (request) => ({
      daily: await daily.view(request.params.day, request.player),
    }));

    serve(app, 'startDaily', async (request, reply) => {
      const player = currentPlayer(request);
      const { day, game, created } = await daily.start(player);
      reply.code(created ? 201 : 200);
      return { daily: await daily.view(day, player), game: app.games.snapshot(game, null) };
    });

    serve(app, 'leaderboard', async (request) => ({ leaderboard: await daily.leaderboard(request.params.day, request.query, request.player) }));
  },
  { name: 'daily', dependencies: ['db', 'players', 'games', 'scheduler', 'events'] },
);
