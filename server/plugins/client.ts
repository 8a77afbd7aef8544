import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { PAGE_PATHS, acceptedLanguages, firstOffered, pageOf, type PageName } from '../../contract/index.js';
import { Refusal } from '../errors.js';

/** Vite names what it builds after its content (`index-BneJyTNs.js`): such a file never changes. */
export const HASHED_ASSET = /-[\w-]{8,}\.\w+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current assets, so browsers must ask again each time (cheap: it has an ETag). */
const REVALIDATE = 'no-cache';

/** The pages' copies of index.html the build wrote: language → the pages it has a copy of. */
function pageCopies(clientDir: string | null): Map<string, Set<PageName>> {
  const dir = clientDir === null ? null : join(clientDir, 'pages');
  if (dir === null || !existsSync(dir)) return new Map();
  const locales = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return new Map(locales.map((locale) => [locale.name, new Set((Object.keys(PAGE_PATHS) as PageName[]).filter((page) => existsSync(join(dir, locale.name, `${page}.html`))))]));
}

/**
 * Serves the built client (dist/client) when there is one, with the single-page fallback: any
 * GET outside /api and /ws that is not a file answers index.html, so /race/CODE links work,
 * with 200 for the client's pages (contract/pages.ts) and 404 for any other path. A page gets its
 * own copy of index.html, in the browser's language, when the build wrote one
 * (scripts/page-preload-plugin.ts: it names the page's code and words too, so the browser fetches
 * them beside the shell's).
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
    const copies = pageCopies(hasClient ? clientDir : null);
    const languages = [...copies.keys()];

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0]!;
      const api = path === '/api' || path.startsWith('/api/') || path === '/ws';
      // A path that is no page gets the app all the same (its page says "Not found"), with a 404.
      if (hasClient && !api && (request.method === 'GET' || request.method === 'HEAD')) {
        const page = pageOf(path);
        // English when none of the browser's languages has copies (the client picks the same way).
        const locale = firstOffered(acceptedLanguages(request.headers['accept-language']), languages) ?? (copies.has('en') ? 'en' : undefined);
        // The copy depends on the language asked for: a cache must keep one per language.
        if (languages.length > 0) reply.header('vary', 'accept-language');
        return reply.code(page ? 200 : 404).sendFile(page && locale && copies.get(locale)!.has(page) ? `pages/${locale}/${page}.html` : 'index.html');
      }
      const allowed = app.routeTable.methodsAt(path);
      if (allowed.length === 0) throw new Refusal('not-found', `no route ${request.method} ${path}`, { params: { method: request.method, path } });
      reply.header('allow', allowed.join(', '));
      throw new Refusal('method-not-allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}`, { params: { method: request.method, path, allowed: allowed.join(', ') } });
    });
  },
  { name: 'client' },
);
