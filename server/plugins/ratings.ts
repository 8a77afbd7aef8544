import fp from 'fastify-plugin';
import { serve } from '../http.js';
import { RACE_RATING, RatingService } from '../ratings/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    ratings: RatingService;
  }
}

/** Ratings (ratings/service.ts): applied where the timers run, read over HTTP (history, leaderboard). */
export default fp(
  async (app) => {
    const ratings = new RatingService({
      store: app.storage.ratings, players: app.storage.players, clock: app.clock, log: app.log, events: app.events, scheduler: app.scheduler,
      banned: async () => (await app.storage.moderation.banned()).map((player) => player.id),
    });
    app.decorate('ratings', ratings);
    app.scheduler.handle(RACE_RATING, ratings.deadlines());

    serve(app, 'playerRatings', async (request) => ratings.history(request.params.id));

    serve(app, 'ratingBoard', async (request) => ratings.board(request.params.variant));
  },
  { name: 'ratings', dependencies: ['db', 'events', 'scheduler'] },
);
