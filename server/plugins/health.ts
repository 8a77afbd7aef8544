import fp from 'fastify-plugin';
import type { HealthAnswer } from '../../contract/index.js';

/** Liveness and readiness: the database answers, and the server is not shutting down. */
export default fp(
  async (app) => {
    app.get('/api/health', async (_request, reply): Promise<HealthAnswer> => {
      const closing = app.games.closing;
      if (!closing) app.db.$client.prepare('select 1').get();
      reply.code(closing ? 503 : 200);
      return { status: closing ? 'closing' : 'ok', uptimeSeconds: Math.round(process.uptime()) };
    });
  },
  { name: 'health', dependencies: ['db', 'games'] },
);
