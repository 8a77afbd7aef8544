// Lucie's service worker, compiled by scripts/service-worker-plugin.ts into dist/client/sw.js at every
// client build, with this version's name and file list written in (the two constants below).
// Install fills this version's cache with every file of the build, so every page (practice, a
// record file, replays already seen) opens offline; activate takes over at once and drops the
// older versions' caches; pages that were running another version are told (see
// client/src/lib/service-worker.svelte.ts) and offer a reload. How each request is answered:
// client/sw/routes.ts.
import { replayKey, strategyFor, viewerOf } from './routes.js';

declare const self: ServiceWorkerGlobalScope;
/** A digest of the build: a new build is a new version, with its own cache. */
declare const LUCIE_VERSION: string;
/** Every file of the build, as paths (`/index.html`, `/assets/index-COZ6KvGN.js`, `/icon-192.png`). */
declare const LUCIE_FILES: string[];
/** The entry script the build's index.html loads: how a page tells which version it runs. */
declare const LUCIE_ENTRY: string;

const SHELL = `lucie-shell-${LUCIE_VERSION}`;
const REPLAYS = 'lucie-replays-1';
/** Replays kept for offline viewing; the oldest go first. */
const REPLAYS_KEPT = 100;
const PRECACHED = new Set(LUCIE_FILES);

self.addEventListener('install', (event) => {
  // `reload`: straight from the server, never an older copy from the HTTP cache.
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(LUCIE_FILES.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('lucie-shell-') && name !== SHELL) await caches.delete(name);
      // The page's request starts while this worker boots, instead of after it.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
      for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'lucie-version', entry: LUCIE_ENTRY });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const strategy = strategyFor(event.request, self.location.origin, PRECACHED);
  if (strategy === 'page') event.respondWith(page(event));
  else if (strategy === 'precached') event.respondWith(precached(event.request));
  else if (strategy === 'replay') event.respondWith(replay(event.request));
});

/**
 * How long a page waits for the network before the cached page is shown instead: a phone with a
 * weak signal may neither answer nor fail for a minute.
 */
const NETWORK_WAIT_MS = 4000;

/**
 * The server's answer while it gives one in time; this version's page when it cannot (offline,
 * server down or answering 5xx, or too slow), or the network's late answer if nothing is cached.
 */
async function page(event: FetchEvent): Promise<Response> {
  const fromNetwork = (async () => {
    const response = ((await event.preloadResponse) as Response | undefined) ?? (await fetch(event.request));
    return response.status < 500 ? response : null;
  })().catch(() => null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), NETWORK_WAIT_MS)));
  const first = await Promise.race([fromNetwork, late]);
  clearTimeout(timer);
  if (first instanceof Response) return first;
  const cached = await caches.match('/index.html', { cacheName: SHELL });
  return cached ?? (await fromNetwork) ?? Response.error();
}

async function precached(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: SHELL })) ?? fetch(request);
}

/** The network's answer, kept for this viewer; offline, what this viewer was last given. */
async function replay(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = replayKey(url.origin, url.pathname, await viewerOf(request.headers.get('authorization')));
  const cache = await caches.open(REPLAYS);
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    return (await cache.match(key)) ?? Response.error();
  }
  if (response.status === 200) {
    await cache.put(key, response.clone());
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - REPLAYS_KEPT))) await cache.delete(old);
  }
  return response;
}
