import fp from 'fastify-plugin';
import { dayOf } from '../../contract/index.js';
import { serve } from '../http.js';
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

    serve(app, 'game', async (request) => ({
      game: await replays.summary(request.params.id, request.player),
    }));

    serve(app, 'record', async (request, reply) => {
      const { record, filename } = await replays.record(request.params.id, request.player);
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      return record;
    });

    serve(app, 'playerStats', async (request) => ({
      stats: await playerStats(app.storage.players, request.params.id, {
        seriesOf: (playerId) => seriesOfPlayer(app.storage.series, playerId),
        ratingsOf: (playerId) => app.ratings.ratingsOf(playerId),
        fairPlayOf: (playerId) => app.storage.fairPlay.ofPlayer(playerId),
      }, dayOf(app.clock.now())),
    }));

    serve(app, 'myGames', async (request) => ({
      history: await replays.history(currentPlayer(request), request.query),
    }));
  },
  { name: 'replays', dependencies: ['db', 'players', 'games', 'daily', 'ratings'] },
);
