import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BANNED_CLOSE_CODE } from '../../contract/index.js';
import { bearerCheck } from '../bearer.js';
import { Refusal } from '../errors.js';
import { serve } from '../http.js';
import { ModerationService } from '../moderation.js';
import type { RefusedRule } from '../refused-names.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    moderation: ModerationService;
  }
}

/** The bus topic on which a ban closes the player's sockets on every instance. */
const BANS_TOPIC = 'moderation:bans';

export interface ModerationOptions {
  /** `Authorization: Bearer ADMIN_TOKEN` opens the operator routes; undefined: they refuse everyone. */
  adminToken: string | undefined;
  refusedNames: readonly RefusedRule[];
}

/** Reports and the operator's routes (moderation.ts). */
export default fp<ModerationOptions>(
  async (app, { adminToken, refusedNames }) => {
    const closeHere = (playerId: number) => app.hub.closePlayer(playerId, BANNED_CLOSE_CODE, 'banned');
    const bus = app.bus;
    if (bus !== null) {
      bus.onMessage(({ topic, payload }) => topic === BANS_TOPIC && closeHere(Number(payload)));
      await bus.subscribe(BANS_TOPIC);
    }
    const moderation = new ModerationService({
      store: app.storage.moderation,
      raceStore: app.storage.races,
      leaveRace: (player, code) => app.races.leave(player, code),
      fairPlay: app.fairPlay,
      refusedNames,
      clock: app.clock,
      events: app.events,
      log: app.log,
      isDuplicate: (error) => app.storage.games.isDuplicate(error),
      closeSockets: (playerId) => {
        closeHere(playerId);
        bus?.publish(BANS_TOPIC, String(playerId)).catch((error: unknown) => app.log.error({ err: error, playerId }, 'cannot tell the other instances to close a banned player’s sockets'));
      },
    });
    app.decorate('moderation', moderation);

    serve(app, 'reportPlayer', async (request, reply) => {
      const { id, reporterId: _reporter, ...report } = await moderation.report(currentPlayer(request), request.params.id, request.body.reason);
      reply.code(201);
      return { report: { id, ...report } };
    });

    // Every operator route: the token first, compared in constant time; no token set, nobody gets in.
    const authorised = adminToken === undefined ? () => false : bearerCheck(adminToken);
    const operatorOnly = {
      config: { operatorToken: true },
      onRequest: async (request: FastifyRequest) => {
        if (!authorised(request.headers.authorization)) {
          throw new Refusal('unauthorized', adminToken === undefined ? 'the operator routes are off: set ADMIN_TOKEN' : 'operator routes need Authorization: Bearer ADMIN_TOKEN');
        }
      },
    };
    serve(app, 'operatorOverview', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return moderation.overview();
    }, operatorOnly);
    serve(app, 'renamePlayer', async (request) => moderation.rename(request.body.operator, request.params.id, request.body.name), operatorOnly);
    serve(app, 'hideName', async (request) => moderation.hideName(request.body.operator, request.params.id), operatorOnly);
    serve(app, 'banPlayer', async (request) => moderation.ban(request.body.operator, request.params.id), operatorOnly);
    serve(app, 'unbanPlayer', async (request) => moderation.unban(request.body.operator, request.params.id), operatorOnly);
    serve(app, 'dismissReports', async (request) => moderation.dismissReports(request.body.operator, request.params.id), operatorOnly);
  },
  { name: 'moderation', dependencies: ['db', 'bus', 'events', 'players', 'races', 'analyses'] },
);
