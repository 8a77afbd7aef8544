import fp from 'fastify-plugin';
import { serve } from '../http.js';
import { busReady } from './bus.js';

/**
 * `/api/health`, liveness for a supervisor: the process answers and is not shutting down (a
 * restart would not cure a full disk or a lock held elsewhere, so the database is not asked).
 * `/api/ready`, for a load balancer: besides, the database answers and takes writes; never
 * throwing, each check reported, so an instance that cannot store moves gets no new players
 * (503) and says why.
 */
export default fp(
  async (app) => {
    // 503 is an answer of these routes, not an error: the body says what is wrong.
    serve(app, 'health', async (_request, reply) => {
      const closing = app.games.closing;
      reply.code(closing ? 503 : 200);
      return { status: closing ? ('closing' as const) : ('ok' as const), uptimeSeconds: Math.round(process.uptime()) };
    });
    serve(app, 'ready', async (_request, reply) => {
      const closing = app.games.closing;
      const { database, code } = await app.storage.ready();
      if (database !== 'ok') app.log.warn({ code, database }, 'readiness: the database cannot take writes');
      const redis = app.bus === null ? ('off' as const) : (await busReady(app.bus)) ? ('ok' as const) : ('unreachable' as const);
      if (redis === 'unreachable') app.log.warn('readiness: Redis does not answer');
      const ready = !closing && database === 'ok' && redis !== 'unreachable';
      reply.code(ready ? 200 : 503);
      return { ready, closing, database, redis };
    });
  },
  { name: 'health', dependencies: ['db', 'bus', 'games'] },
);
