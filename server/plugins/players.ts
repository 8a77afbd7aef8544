import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PlayerView } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import { serve } from '../http.js';
import type { Pending } from '../ports.js';
import type { PlayerStore } from '../stores.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The player whose bearer token came with the request, or null without one. */
    player: PlayerView | null;
  }
}

/** Tokens are stored only as their SHA-256: a leaked database gives no way to act as anyone. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The player owning `token`, or undefined. */
export function playerByToken(store: PlayerStore, token: string): Pending<PlayerView | undefined> {
  return store.byTokenHash(hashToken(token));
}

/** The authenticated player of a request, or a 401. */
export function currentPlayer(request: FastifyRequest): PlayerView {
  if (!request.player) throw new Refusal('unauthorized', 'sign in first: send "Authorization: Bearer TOKEN"');
  return request.player;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,128})$/;

/** Anonymous players: a name gets a random token; every request with a token is checked. */
export default fp(
  async (app) => {
    app.decorateRequest('player', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (header === undefined) return;
      const token = BEARER.exec(header)?.[1];
      const player = token === undefined ? undefined : await playerByToken(app.storage.players, token);
      if (!player) throw new Refusal('unauthorized', 'the token is not valid: create a player again');
      request.player = player;
    });

    serve(app, 'createPlayer', async (request, reply) => {
      const { name } = request.body;
      const token = randomBytes(32).toString('base64url');
      const player = await app.storage.players.create(name, hashToken(token), app.clock.now());
      reply.code(201);
      return { player, token };
    });

    serve(app, 'me', async (request) => ({ player: currentPlayer(request) }));
  },
  { name: 'players', dependencies: ['db'] },
);
