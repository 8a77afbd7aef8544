/**
 * How Lucie's service worker answers each request, decided from the request alone (a pure
 * function, tested in test/client/sw-routes.test.ts):
 * - `page`: a navigation to any page of the app: the network's index.html (it names the current
 *   version's files, so a deploy is never hidden behind a stale page), the cached one when the
 *   network fails;
 * - `precached`: a file of this version (hashed scripts and styles, icons, the manifest): from the
 *   cache, which installing this version filled;
 * - `replay`: a finished game's summary or record, or a finished race's replay: the network's,
 *   kept per identity so that it can be shown again offline, and only to the identity that got it;
 * - `network`: everything else, never touched: the API, the websocket, other origins, non-GETs.
 */
export const STRATEGIES = ['page', 'precached', 'replay', 'network'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export interface RequestFacts {
  method: string;
  url: string;
  mode: string;
}

/** The server's own paths: never answered with the app's page, and cached only as replays. */
const SERVER_PATH = /^\/(api|ws)(\/|$)/;
/** What a replay page reads: `GET /api/games/ID`, `GET /api/games/ID/record`, `GET /api/races/CODE/replay`. */
const REPLAY_PATH = /^\/api\/(games\/[1-9]\d{0,14}(\/record)?|races\/[A-Za-z0-9]{6}\/replay)$/;

export function strategyFor(request: RequestFacts, origin: string, precached: ReadonlySet<string>): Strategy {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== origin) return 'network';
  if (SERVER_PATH.test(url.pathname)) return REPLAY_PATH.test(url.pathname) && url.search === '' ? 'replay' : 'network';
  if (request.mode === 'navigate') return 'page';
  return precached.has(url.pathname) && url.search === '' ? 'precached' : 'network';
}

/**
 * The key a replay is kept under: its path under the viewer's own folder, the viewer being a
 * digest of the bearer token (never the token itself), or `anyone` without one. A record only
 * its player may see while its day is on is thus never found by another identity.
 */
export function replayKey(origin: string, path: string, viewer: string): string {
  return `${origin}/__replays/${viewer}${path}`;
}

/** The viewer's name in replay keys: the hex SHA-256 of the bearer token, or `anyone`. */
export async function viewerOf(authorization: string | null): Promise<string> {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!token) return 'anyone';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
