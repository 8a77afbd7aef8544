import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerMessage } from '../../contract/index.js';
import type { Transport } from '../ports.js';
import { DEFAULT_PRESENCE_TIMING, SharedPresence, type PresenceTiming } from '../scale/presence.js';
import { RedisTransport, type Topic } from '../scale/transport.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who hears about games and races: the hub alone, or every instance through Redis (REDIS_URL). */
    transport: Transport;
  }
}

/**
 * The services' transport. Without Redis it is the hub itself, exactly the single-process path;
 * with it, messages and presence go through Redis (scale/transport.ts, scale/presence.ts).
 */
export default fp<{ presence?: Partial<PresenceTiming> }>(
  async (app, options) => {
    const bus = app.bus;
    if (bus === null) {
      app.decorate('transport', app.hub);
      return;
    }
    const presence = new SharedPresence(bus, app.hub, { ...DEFAULT_PRESENCE_TIMING, ...options.presence }, app.log);
    const transport = new RedisTransport(app.hub, bus, presence, app.log);
    await presence.start();
    app.decorate('transport', transport);
    app.addHook('onReady', async () => transport.refetchWith((topic) => refetch(app, topic)));
    // Before the bus closes (onClose runs in reverse order of registration).
    app.addHook('onClose', async () => {
      transport.close();
      await presence.close();
    });
  },
  { name: 'transport', dependencies: ['bus'] },
);

/** A topic's current state: a race's view, or the games a player is playing, read from the store. */
async function refetch(app: FastifyInstance, topic: Topic): Promise<ServerMessage[]> {
  if (topic.kind === 'race') {
    const race = await app.races.view(topic.code);
    return race ? [{ type: 'race', race, serverTime: app.clock.now() }] : [];
  }
  const ids = new Set(app.games.playingGamesOf(topic.playerId).map((game) => game.id));
  for (const race of await app.storage.races.liveRacesOf(topic.playerId)) {
    const id = await app.storage.races.gameIdOf(race.id, topic.playerId);
    if (id !== undefined) ids.add(id);
  }
  const messages: ServerMessage[] = [];
  for (const id of ids) {
    const game = await app.games.current(id);
    if (game) messages.push(app.games.snapshot(game, await app.races.codeOf(game)));
  }
  return messages;
}
