import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { gameIdParams, gameSummaryAnswer, historyAnswer, historyQuery, playerIdParams, playerStatsAnswer, recordAnswer } from '../../contract/index.js';
import { ERROR_ANSWERS } from '../http.js';
import { playerStats } from '../player-stats.js';
import { ReplayService } from '../replays.js';
import { seriesOfPlayer } from '../series.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    replays: ReplayService;
  }
}

/** Stored games over HTTP: a game's summary and record (for replays and downloads), a player's history and record. */
export default fp(
  async (app) => {
    const replays = new ReplayService(app.storage.replays, app.games, app.daily);
    app.decorate('replays', replays);

    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get('/api/games/:id', { schema: { params: gameIdParams, response: { 200: gameSummaryAnswer, ...ERROR_ANSWERS } } }, async (request) => ({
      game: await replays.summary(request.params.id, request.player),
    }));

    api.get('/api/games/:id/record', { schema: { params: gameIdParams, response: { 200: recordAnswer, ...ERROR_ANSWERS } } }, async (request, reply) => {
      const { record, filename } = await replays.record(request.params.id, request.player);
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      return record;
    });

    api.get('/api/players/:id/stats', { schema: { params: playerIdParams, response: { 200: playerStatsAnswer, ...ERROR_ANSWERS } } }, async (request) => ({
      stats: await playerStats(app.storage.players, request.params.id, (playerId) => seriesOfPlayer(app.storage.series, playerId)),
    }));

    api.get('/api/me/games', { schema: { querystring: historyQuery, response: { 200: historyAnswer, ...ERROR_ANSWERS } } }, async (request) => ({
      history: await replays.history(currentPlayer(request), request.query),
    }));
  },
  { name: 'replays', dependencies: ['db', 'players', 'games', 'daily'] },
);
