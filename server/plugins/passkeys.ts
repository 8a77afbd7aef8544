import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { deviceName } from '../device-name.js';
import { serve } from '../http.js';
import { Passkeys, passkeySite } from '../passkeys.js';
import { currentPlayer, siteOrigin } from './players.js';

/**
 * Passkeys over HTTP (passkeys.ts): a player's passkeys, added and removed; a sign-in with one
 * gives the device a token. The site they are bound to is PUBLIC_ORIGIN (and PASSKEY_RP_ID),
 * else the origin the request came to.
 */
export default fp<{ publicOrigin?: string | undefined; rpId?: string | undefined }>(
  async (app, { publicOrigin, rpId }) => {
    const passkeys = new Passkeys(app.storage.identities, app.clock);
    const site = (request: FastifyRequest) => passkeySite(siteOrigin(request, publicOrigin), rpId);
    const deviceOf = (request: FastifyRequest) => deviceName(request.headers['user-agent']);

    serve(app, 'myPasskeys', async (request) => ({ passkeys: await passkeys.list(currentPlayer(request).id) }));

    serve(app, 'passkeyRegistration', async (request) => passkeys.registrationOptions(currentPlayer(request), site(request)));

    serve(app, 'addPasskey', async (request, reply) => {
      // The body's outline is checked by its schema; the library reads the rest.
      const passkey = await passkeys.register(currentPlayer(request), request.body.response as unknown as RegistrationResponseJSON, site(request), deviceOf(request));
      reply.code(201);
      return { passkey };
    });

    serve(app, 'removePasskey', async (request) => {
      await passkeys.remove(currentPlayer(request).id, request.params.id);
      return { passkey: request.params.id };
    });

    serve(app, 'passkeySignInOptions', async (request) => passkeys.signInOptions(site(request)));

    serve(app, 'passkeySignIn', async (request, reply) => {
      const signedIn = await passkeys.signIn(request.body.response as unknown as AuthenticationResponseJSON, site(request), deviceOf(request));
      reply.code(201);
      return signedIn;
    });
  },
  { name: 'passkeys', dependencies: ['players'] },
);
