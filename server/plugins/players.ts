import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createPlayerAnswer, createPlayerBody, meAnswer, type PlayerView } from '../../contract/index.js';
import type { Db } from '../db/index.js';
import { players } from '../db/schema.js';
import { Refusal } from '../errors.js';
import { ERROR_ANSWERS } from '../http.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The player whose bearer token came with the request, or null without one. */
    player: PlayerView | null;
  }
}

/** Tokens are stored only as their SHA-256: a leaked database gives no way to act as anyone. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The player owning `token`, or undefined. */
export function playerByToken(db: Db, token: string): PlayerView | undefined {
  return db.select({ id: players.id, name: players.name }).from(players).where(eq(players.tokenHash, hashToken(token))).get();
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
      const player = token === undefined ? undefined : playerByToken(app.db, token);
      if (!player) throw new Refusal('unauthorized', 'the token is not valid: create a player again');
      request.player = player;
    });

    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post('/api/players', { schema: { body: createPlayerBody, response: { 201: createPlayerAnswer, ...ERROR_ANSWERS } } }, async (request, reply) => {
      const { name } = request.body;
      const token = randomBytes(32).toString('base64url');
      // `.all()`, never `.get()`: an autocommit INSERT … RETURNING stopped after its first row
      // commits without ever running SQLite's automatic checkpoint (the log would grow forever).
      const [player] = app.db
        .insert(players)
        .values({ name, tokenHash: hashToken(token), createdAt: app.clock.now() })
        .returning({ id: players.id, name: players.name })
        .all();
      reply.code(201);
      return { player: player!, token };
    });

    api.get('/api/me', { schema: { response: { 200: meAnswer, ...ERROR_ANSWERS } } }, async (request) => ({ player: currentPlayer(request) }));
  },
  { name: 'players', dependencies: ['db'] },
);
