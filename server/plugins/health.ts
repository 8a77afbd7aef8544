import fp from 'fastify-plugin';
import type { HealthAnswer } from '../../contract/index.js';
import { storageReady } from '../db/index.js';

/**
 * Liveness (`/api/health/live`: the process answers and is not shutting down) and readiness
 * (`/api/health/ready`, also `/api/health`: besides, the database takes writes). A supervisor
 * restarts on the first; a load balancer routes on the second: a full disk or a locked database
 * is not cured by a restart.
 */
export default fp(
  async (app) => {
    const uptimeSeconds = () => Math.round(process.uptime());
    app.get('/api/health/live', async (_request, reply): Promise<HealthAnswer> => {
      const closing = app.games.closing;
      reply.code(closing ? 503 : 200);
      return { status: closing ? 'closing' : 'ok', uptimeSeconds: uptimeSeconds() };
    });
    const ready = async (_request: unknown, reply: import('fastify').FastifyReply): Promise<HealthAnswer> => {
      if (app.games.closing) {
        reply.code(503);
        return { status: 'closing', uptimeSeconds: uptimeSeconds() };
      }
      const storage = storageReady(app.db);
      reply.code(storage.ready ? 200 : 503);
      return { status: storage.ready ? 'ok' : 'unavailable', uptimeSeconds: uptimeSeconds() };
    };
    app.get('/api/health/ready', ready);
    app.get('/api/health', ready);
  },
  { name: 'health', dependencies: ['db', 'games'] },
);
