import fp from 'fastify-plugin';
import { bearerCheck } from '../bearer.js';
import { Refusal } from '../errors.js';
import { Metrics, type MetricReadings } from '../metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks an operator's token itself; the players plugin leaves its Authorization alone. */
    operatorToken?: boolean;
  }
  interface FastifyInstance {
    /** The figures of metrics.ts; counted always, served at /metrics only with a token. */
    metrics: Metrics;
  }
}

export interface MetricsOptions {
  /** `Authorization: Bearer TOKEN` reads /metrics; undefined: no /metrics route at all. */
  token: string | undefined;
}

/**
 * Prometheus text at `/metrics` for whoever holds METRICS_TOKEN (compared in constant time);
 * without the token, a 401 with none of the figures. Registered before the plugins that count
 * (they call `app.metrics`); the readings are taken from the services when scraped.
 */
export default fp<MetricsOptions>(
  async (app, { token }) => {
    const readings: MetricReadings = {
      openSockets: () => app.websocketServer?.clients.size ?? 0,
      playersOnline: () => [...app.hub.connectedPlayers()].length,
      racesByState: () => (app.hasDecorator('storage') ? app.storage.races.countByState() : undefined),
      analysisQueue: () => (app.hasDecorator('analyses') ? app.analyses.queueLength : 0),
      pool: async () => {
        if (!app.hasDecorator('storage')) return undefined;
        const now = app.clock.now();
        return (await app.storage.lobby.waitingByVariant()).map(({ variant, count, oldestJoinedAt }) => ({ variant, waiting: count, longestWaitSeconds: Math.max(0, (now - oldestJoinedAt) / 1000) }));
      },
      backupAgeSeconds: () => (app.hasDecorator('backups') ? app.backups.ageSeconds() : undefined),
    };
    const metrics = new Metrics(readings);
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (_request, reply) => {
      if (reply.statusCode === 429) metrics.rateLimitHit('http');
    });
    if (token === undefined) return;

    const authorised = bearerCheck(token);
    app.get('/metrics', { schema: { hide: true }, config: { operatorToken: true } }, async (request, reply) => {
      if (!authorised(request.headers.authorization)) {
        throw new Refusal('unauthorized', 'metrics need Authorization: Bearer METRICS_TOKEN');
      }
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  },
  { name: 'metrics' },
);
