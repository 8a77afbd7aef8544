import fp from 'fastify-plugin';
import { GAME_DEADLINE } from '../games/deadlines.js';
import { GameService } from '../games/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService;
  }
}

/** The game service and its deadlines; on taking the timers (alone: at start) the unfinished games are rebuilt from their move logs, once every listener is in place. */
export default fp(
  async (app) => {
    const games = new GameService({
      store: app.storage.games,
      transport: app.transport,
      clock: app.clock,
      log: app.log,
      events: app.events,
      scheduler: app.scheduler,
      othersWrite: app.bus !== null,
    });
    app.decorate('games', games);
    app.scheduler.handle(GAME_DEADLINE, games.deadlineHandler(() => app.storage.deadlines.playing()));
    app.scheduler.onTakeover(() => games.loadPlaying());
    app.addHook('preClose', async () => {
      games.close();
      // An asynchronous store's writes in flight finish (and are acknowledged) before it closes.
      await games.settled();
    });
  },
  { name: 'games', dependencies: ['db', 'transport', 'scheduler', 'events'] },
);
