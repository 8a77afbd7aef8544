import fp from 'fastify-plugin';
import { STORAGE_RETRY_MS } from '../db/index.js';
import { GameService } from '../games/service.js';
import { after } from '../ports.js';

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService;
  }
}

/** The game service; on taking the timers (a single instance: at start) its unfinished games are rebuilt from their move logs, once every listener is in place. */
export default fp(
  async (app) => {
    const games = new GameService({
      store: app.storage.games,
      transport: app.transport,
      clock: app.clock,
      log: app.log,
      events: app.events,
      owner: app.timers,
      retryMs: STORAGE_RETRY_MS,
    });
    app.decorate('games', games);
    app.timers.onTakeover(() => games.resume());
    app.timers.onNotice((subject) => ('gameId' in subject ? games.rearm(subject.gameId) : undefined));
    app.timers.onRescan(() => after(app.storage.deadlines.playing(), (deadlines) => games.rescan(deadlines)));
    app.addHook('preClose', async () => {
      games.close();
      // An asynchronous store's writes in flight finish (and are acknowledged) before it closes.
      await games.settled();
    });
  },
  { name: 'games', dependencies: ['db', 'transport', 'timers', 'events'] },
);
