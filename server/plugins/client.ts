import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { PAGE_PATHS, pageOf, type PageName } from '../../contract/index.js';
import { Refusal } from '../errors.js';

/** Vite names what it builds after its content (`index-BneJyTNs.js`): such a file never changes. */
export const HASHED_ASSET = /-[\w-]{8,}\.\w+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current assets, so browsers must ask again each time (cheap: it has an ETag). */
const REVALIDATE = 'no-cache';

/**
 * Serves the built client (dist/client) when there is one, with the single-page fallback: any
 * GET outside /api and /ws that is not a file answers index.html, so /race/CODE links work,
 * with 200 for the client's pages (contract/pages.ts) and 404 for any other path. A page gets its
 * own copy of index.html when the build wrote one (scripts/page-preload-plugin.ts: it names the
 * page's code too, so the browser fetches it beside the shell's).
 * Hashed assets go out as the build precompressed them (brotli or gzip, by Accept-Encoding),
 * cached for good; everything else is revalidated.
 */
export default fp<{ clientDir: string | null }>(
  async (app, { clientDir }) => {
    const hasClient = clientDir !== null && existsSync(join(clientDir, 'index.html'));
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: clientDir,
        wildcard: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, path) => {
          // `path` may be the .br or .gz file chosen for the request: judge the name it stands for.
          const name = basename(path).replace(/\.(br|gz)$/, '');
          reply.header('cache-control', HASHED_ASSET.test(name) ? IMMUTABLE : REVALIDATE);
        },
      });
    } else app.log.info({ clientDir }, 'no built client: serving the API only');
    const copies = new Set((Object.keys(PAGE_PATHS) as PageName[]).filter((name) => clientDir !== null && existsSync(join(clientDir, 'pages', `${name}.html`))));

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0]!;
      const api = path === '/api' || path.startsWith('/api/') || path === '/ws';
      // A path that is no page gets the app all the same (its page says "Not found"), with a 404.
      if (hasClient && !api && (request.method === 'GET' || request.method === 'HEAD')) {
        const page = pageOf(path);
        return reply.code(page ? 200 : 404).sendFile(page && copies.has(page) ? `pages/${page}.html` : 'index.html');
      }
      const allowed = app.routeTable.methodsAt(path);
      if (allowed.length === 0) throw new Refusal('not-found', `no route ${request.method} ${path}`, { params: { method: request.method, path } });
      reply.header('allow', allowed.join(', '));
      throw new Refusal('method-not-allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}`, { params: { method: request.method, path, allowed: allowed.join(', ') } });
    });
  },
  { name: 'client' },
);
