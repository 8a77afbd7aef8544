import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PlayerView } from '../../contract/index.js';
import { DeviceLinks } from '../device-links.js';
import { deviceName } from '../device-name.js';
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
    /** The device that token belongs to, or null without one. */
    device: number | null;
  }
}

/** The authenticated player of a request, or a 401. */
export function currentPlayer(request: FastifyRequest): PlayerView {
  if (!request.player) throw new Refusal('unauthorized', 'sign in first: send "Authorization: Bearer TOKEN"');
  return request.player;
}

/** The site's origin as links and passkeys name it: PUBLIC_ORIGIN when set, else the one this request came to. */
export function siteOrigin(request: FastifyRequest, configured: string | undefined): string {
  return configured ?? `${request.protocol}://${request.host}`;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,128})$/;

/**
 * Players over HTTP (players.ts, device-links.ts): a name gets a token; every request's token
 * names its player and device (a signed-out device's is a 401, a banned identity's a 403); a name on the refused-words list is refused; renaming, the player's devices
 * and the one-time links that sign another device in.
 */
export default fp<{ publicOrigin?: string | undefined; refusedNames: readonly RefusedRule[] }>(
  async (app, { publicOrigin, refusedNames }) => {
    const players = new PlayerService(app.storage.players, app.storage.identities, app.clock, app.events, refusedNames);
    const links = new DeviceLinks(app.storage.identities, app.clock);
    app.decorate('players', players);
    app.decorateRequest('player', null);
    app.decorateRequest('device', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      // An operator's route (/metrics) reads its own bearer token, which is no player's.
      if (header === undefined || request.routeOptions.config.operatorToken === true) return;
      const token = BEARER.exec(header)?.[1];
      const signedIn = token === undefined ? undefined : await players.byToken(token);
      if (!signedIn) throw new Refusal('unauthorized', 'the token is not valid (never given, or its device was signed out): sign in again');
      request.player = signedIn.player;
      request.device = signedIn.deviceId;
    });
    const deviceOf = (request: FastifyRequest) => deviceName(request.headers['user-agent']);

    serve(app, 'createPlayer', async (request, reply) => {
      reply.code(201);
      return players.create(request.body.name, deviceOf(request));
    });

    serve(app, 'me', async (request) => ({ player: currentPlayer(request) }));

    serve(app, 'rename', async (request) => {
      const player = await players.rename(currentPlayer(request).id, request.body.name);
      if (!player) throw new Refusal('unauthorized', 'this identity no longer exists');
      return { player };
    });

    serve(app, 'myDevices', async (request) => ({ devices: await players.devices(currentPlayer(request).id, request.device!) }));

    serve(app, 'signOutDevice', async (request) => {
      const { id } = request.params;
      if (!(await players.signOut(currentPlayer(request).id, id))) throw new Refusal('unknown-device', `you have no signed-in device ${id}`, { params: { device: id } });
      return { device: id };
    });

    serve(app, 'createLink', async (request, reply) => {
      const link = await links.create(currentPlayer(request).id, siteOrigin(request, publicOrigin));
      reply.code(201);
      return link;
    });

    serve(app, 'linkOwner', async (request) => links.owner(request.params.code));

    serve(app, 'claimLink', async (request, reply) => {
      const signedIn = await links.claim(request.params.code, deviceOf(request));
      reply.code(201);
      return signedIn;
    });
  },
  { name: 'players', dependencies: ['db', 'events'] },
);
