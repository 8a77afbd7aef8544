import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';

/**
 * Serves the built client (dist/client) when there is one, with the single-page fallback: any
 * GET outside /api and /ws that is not a file answers index.html, so /race/CODE links work.
 */
export default fp<{ clientDir: string | null }>(
  async (app, { clientDir }) => {
    const hasClient = clientDir !== null && existsSync(join(clientDir, 'index.html'));
    if (hasClient) await app.register(fastifyStatic, { root: clientDir, wildcard: false });
    else app.log.info({ clientDir }, 'no built client: serving the API only');

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0]!;
      const api = path === '/api' || path.startsWith('/api/') || path === '/ws';
      if (hasClient && !api && (request.method === 'GET' || request.method === 'HEAD')) return reply.sendFile('index.html');
      throw new HttpError(404, 'not-found', `no route ${request.method} ${path}`);
    });
  },
  { name: 'client' },
);
