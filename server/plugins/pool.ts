import fp from 'fastify-plugin';
import { serve } from '../http.js';
import { Lobby, LOBBY_WINDOW_MS } from '../lobby/lobby.js';
import type { PlayerRatings } from '../player-ratings.js';
import { DEFAULT_POOL_RULES, type PoolRules } from '../pool/pairing.js';
import { POOL_PASS, PoolService } from '../pool/service.js';
import { RedisTransport } from '../scale/transport.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    pool: PoolService;
    lobby: Lobby;
  }
}

export interface PoolOptions {
  rules: PoolRules;
  /** The lobby's window: read and sent at most this often. */
  lobbyWindowMs: number;
}

export const DEFAULT_POOL_OPTIONS: PoolOptions = { rules: DEFAULT_POOL_RULES, lobbyWindowMs: LOBBY_WINDOW_MS };

/** The quick-race pool and the public lobby: their services, the pool's passes on the scheduler, and their routes (the lobby's live feed is on the socket). */
export default fp<PoolOptions>(
  async (app, { rules, lobbyWindowMs }) => {
    // The displayed rating of the rating service; a player never rated in the variant has none (pairs with anyone).
    const ratings: PlayerRatings = {
      ratingOf: async (playerId, variant) => {
        const view = await app.ratings.ratingOf(playerId, variant);
        return view.games === 0 ? null : view.rating;
      },
    };
    const pool = new PoolService({
      store: app.storage.pool,
      races: app.storage.races,
      quickRaces: app.races,
      ratings,
      transport: app.transport,
      scheduler: app.scheduler,
      clock: app.clock,
      log: app.log,
      rules,
      events: app.events,
    });
    app.decorate('pool', pool);
    // A banned identity leaves the pool at once (its sockets close too: moderation.ts).
    app.events.on('player-banned', ({ playerId }) => {
      pool.remove(playerId).catch((error: unknown) => app.log.error({ err: error, playerId }, 'banned player not taken out of the pool'));
    });
    // How long each racer of a quick race waited in the pool, counted where the race was formed.
    app.events.on('quick-race-formed', ({ variant, formedAt, racers }) => {
      for (const { joinedAt } of racers) app.metrics.poolWaited(variant, Math.max(0, formedAt - joinedAt) / 1000);
    });
    app.scheduler.handle(POOL_PASS, pool.passes);
    const transport = app.transport;
    const lobby = new Lobby({
      store: app.storage.lobby,
      ratings,
      clock: app.clock,
      log: app.log,
      online: () => (transport instanceof RedisTransport ? transport.onlineCount() : app.hub.onlineCount()),
      windowMs: lobbyWindowMs,
    });
    app.decorate('lobby', lobby);
    app.addHook('preClose', async () => lobby.close());

    serve(app, 'lobby', async () => ({ lobby: await lobby.read(), serverTime: app.clock.now() }));
    serve(app, 'pool', async (request) => ({ pool: await pool.status(currentPlayer(request).id) }));
    serve(app, 'joinPool', async (request) => ({ pool: await pool.join(currentPlayer(request), request.body.variant) }));
    serve(app, 'leavePool', async (request) => ({ pool: await pool.leave(currentPlayer(request)) }));
  },
  { name: 'pool', dependencies: ['db', 'events', 'players', 'races', 'ratings', 'scheduler', 'transport'] },
);
