import fp from 'fastify-plugin';
import { dayParams, leaderboardQuery, type DailyAnswer, type DailyStartAnswer, type LeaderboardAnswer } from '../../contract/index.js';
import { DailyService, storedDailySecret } from '../daily.js';
import { parseParams, parseQuery } from '../http.js';
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
    const daily = new DailyService(app.db, app.games, app.clock, secret ?? storedDailySecret(app.db, app.clock.now()));
    app.decorate('daily', daily);

    app.get('/api/daily', async (request): Promise<DailyAnswer> => ({ daily: daily.view(daily.today(), request.player) }));

    app.get('/api/daily/:day', async (request): Promise<DailyAnswer> => {
      const { day } = parseParams(dayParams, request.params);
      return { daily: daily.view(day, request.player) };
    });

    app.post('/api/daily/start', async (request, reply): Promise<DailyStartAnswer> => {
      const player = currentPlayer(request);
      const { day, game, created } = await daily.start(player);
      reply.code(created ? 201 : 200);
      return { daily: daily.view(day, player), game: app.games.snapshot(game, null) };
    });

    app.get('/api/daily/:day/leaderboard', async (request): Promise<LeaderboardAnswer> => {
      const { day } = parseParams(dayParams, request.params);
      const page = parseQuery(leaderboardQuery, request.query);
      return { leaderboard: daily.leaderboard(day, page, request.player) };
    });
  },
  { name: 'daily', dependencies: ['db', 'players', 'games'] },
);
