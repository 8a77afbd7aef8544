import fp from 'fastify-plugin';
import type { HealthAnswer, ReadyAnswer } from '../../contract/index.js';

/**
 * `/api/health`: the database answers and the server is not shutting down. `/api/ready`, for a
 * load balancer: the same checks, never throwing, each reported, so an instance that lost its
 * database or is handing over gets no new players (503) and says why.
 */
export default fp(
  async (app) => {
    app.get('/api/health', async (_request, reply): Promise<HealthAnswer> => {
      const closing = app.games.closing;
      if (!closing) app.db.$client.prepare('select 1').get();
      reply.code(closing ? 503 : 200);
      return { status: closing ? 'closing' : 'ok', uptimeSeconds: Math.round(process.uptime()) };
    });
    app.get('/api/ready', async (_request, reply): Promise<ReadyAnswer> => {
      const closing = app.games.closing;
      let database: ReadyAnswer['database'] = 'ok';
      try {
        app.db.$client.prepare('select 1').get();
      } catch (error) {
        app.log.warn({ err: error }, 'readiness: the database does not answer');
        database = 'unreachable';
      }
      const ready = !closing && database === 'ok';
      reply.code(ready ? 200 : 503);
      return { ready, closing, database };
    });
  },
  { name: 'health', dependencies: ['db', 'games'] },
);
