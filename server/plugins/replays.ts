import fp from 'fastify-plugin';
import { gameIdParams, historyQuery, playerIdParams, type GameSummaryAnswer, type HistoryAnswer, type PlayerStatsAnswer } from '../../contract/index.js';
import { parseParams, parseQuery } from '../http.js';
import { playerStats } from '../player-stats.js';
import { ReplayService } from '../replays.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    replays: ReplayService;
  }
}

/** Stored games over HTTP: a game's summary and record (for replays and downloads), a player's history and record. */
export default fp(
  async (app) => {
    const replays = new ReplayService(app.db, app.games, app.daily);
    app.decorate('replays', replays);

    app.get('/api/games/:id', async (request): Promise<GameSummaryAnswer> => {
      const { id } = parseParams(gameIdParams, request.params);
      return { game: replays.summary(id, request.player) };
    });

    app.get('/api/games/:id/record', async (request, reply) => {
      const { id } = parseParams(gameIdParams, request.params);
      const { record, filename } = await replays.record(id, request.player);
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      return record;
    });

    app.get('/api/players/:id/stats', async (request): Promise<PlayerStatsAnswer> => {
      const { id } = parseParams(playerIdParams, request.params);
      return { stats: playerStats(app.db, id) };
    });

    app.get('/api/me/games', async (request): Promise<HistoryAnswer> => {
      const player = currentPlayer(request);
      return { history: replays.history(player, parseQuery(historyQuery, request.query)) };
    });
  },
  { name: 'replays', dependencies: ['db', 'players', 'games', 'daily'] },
);
