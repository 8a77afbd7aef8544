import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PlayerView } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import { serve } from '../http.js';
import { PlayerService } from '../players.js';
import type { RefusedRule } from '../refused-names.js';

declare module 'fastify' {
  interface FastifyInstance {
    players: PlayerService;
  }
  interface FastifyRequest {
    /** The player whose bearer token came with the request, or null without one. */
    player: PlayerView | null;
  }
}

/** The authenticated player of a request, or a 401. */
export function currentPlayer(request: FastifyRequest): PlayerView {
  if (!request.player) throw new Refusal('unauthorized', 'sign in first: send "Authorization: Bearer TOKEN"');
  return request.player;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,128})$/;

/** Players over HTTP (players.ts): a name gets a token (unless the refused-words list refuses it); every request's token names its player. */
export default fp<{ refusedNames: readonly RefusedRule[] }>(
  async (app, { refusedNames }) => {
    const players = new PlayerService(app.storage.players, app.clock, app.events, refusedNames);
    app.decorate('players', players);
    app.decorateRequest('player', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      // An operator's route (/metrics) reads its own bearer token, which is no player's.
      if (header === undefined || request.routeOptions.config.operatorToken === true) return;
      const token = BEARER.exec(header)?.[1];
      const player = token === undefined ? undefined : await players.byToken(token);
      if (!player) throw new Refusal('unauthorized', 'the token is not valid: create a player again');
      request.player = player;
    });

    serve(app, 'createPlayer', async (request, reply) => {
      reply.code(201);
      return players.create(request.body.name);
    });

    serve(app, 'me', async (request) => ({ player: currentPlayer(request) }));
  },
  { name: 'players', dependencies: ['db', 'events'] },
);
