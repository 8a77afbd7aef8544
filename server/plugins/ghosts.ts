import fp from 'fastify-plugin';
import { GhostService } from '../ghosts.js';
import { serve } from '../http.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    ghosts: GhostService;
  }
}

/**
 * Ghost races over HTTP: race a finished public game, or the best recent one of a variant; see a
 * ghost race's ghost now, and both games once it has ended. The game is then played on the websocket like any (`action`, `resync`,
 * `resign` by gameId).
 */
export default fp(
  async (app) => {
    const ghosts = new GhostService(app.storage.ghosts, app.storage.players, app.games, app.replays, app.clock);
    app.decorate('ghosts', ghosts);

    serve(app, 'raceGhost', async (request, reply) => {
      const { game, view, created } = await ghosts.race(currentPlayer(request), request.params.id);
      reply.code(created ? 201 : 200);
      return { ghost: view, game: app.games.snapshot(game, null) };
    });

    serve(app, 'findGhost', async (request, reply) => {
      const { game, view, created } = await ghosts.raceAny(currentPlayer(request), request.body.variant);
      reply.code(created ? 201 : 200);
      return { ghost: view, game: app.games.snapshot(game, null) };
    });

    serve(app, 'ghost', async (request) => ({ ghost: await ghosts.view(request.params.id) }));
    serve(app, 'ghostReplay', async (request) => ghosts.replay(request.params.id));
  },
  { name: 'ghosts', dependencies: ['db', 'players', 'games', 'replays'] },
);
