import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createSeriesBody, seriesAnswer, seriesDealAnswer, seriesDealParams, seriesParams } from '../../contract/index.js';
import { ERROR_ANSWERS } from '../http.js';
import { SeriesService } from '../series.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    series: SeriesService;
  }
}

/**
 * Series over HTTP: create one, see it (your progress and everyone's results), be dealt its next
 * deal. A deal is then played on the websocket like any game (`action`, `resync`, `resign` by gameId).
 */
export default fp(
  async (app) => {
    const series = new SeriesService(app.storage.series, app.storage.players, app.games, app.clock);
    app.decorate('series', series);

    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post('/api/series', { schema: { body: createSeriesBody, response: { 201: seriesAnswer, ...ERROR_ANSWERS } } }, async (request, reply) => {
      const created = await series.create(currentPlayer(request), request.body.variant);
      reply.code(201);
      return { series: created };
    });

    api.get('/api/series/:code', { schema: { params: seriesParams, response: { 200: seriesAnswer, ...ERROR_ANSWERS } } }, async (request) => ({
      series: await series.view(request.params.code, request.player),
    }));

    api.post(
      '/api/series/:code/deals/:deal',
      { schema: { params: seriesDealParams, response: { 200: seriesDealAnswer, 201: seriesDealAnswer, ...ERROR_ANSWERS } } },
      async (request, reply) => {
        const player = currentPlayer(request);
        const { code, deal } = request.params;
        const { game, created } = await series.deal(player, code, deal);
        reply.code(created ? 201 : 200);
        return { series: await series.view(code, player), game: app.games.snapshot(game, null) };
      },
    );
  },
  { name: 'series', dependencies: ['db', 'players', 'games'] },
);
