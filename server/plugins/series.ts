import fp from 'fastify-plugin';
import { serve } from '../http.js';
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

    serve(app, 'createSeries', async (request, reply) => {
      const created = await series.create(currentPlayer(request), request.body.variant);
      reply.code(201);
      return { series: created };
    });

    serve(app, 'series', async (request) => ({
      series: await series.view(request.params.code, request.player),
    }));

    serve(app, 'dealSeries', async (request, reply) => {
      const player = currentPlayer(request);
      const { code, deal } = request.params;
      const { game, created } = await series.deal(player, code, deal);
      reply.code(created ? 201 : 200);
      return { series: await series.view(code, player), game: app.games.snapshot(game, null) };
    });
  },
  { name: 'series', dependencies: ['db', 'players', 'games'] },
);
