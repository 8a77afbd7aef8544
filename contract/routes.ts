/**
 * Every HTTP route of the API, once: its method and path, by name. The server registers each
 * from here with its schemas (`ROUTE_SCHEMAS`, contract/http.ts), the browser client calls each
 * through here (`routePath`), and a test holds server/API.md to this list. Plain constants (no
 * zod), so the client may import them as values.
 */
export const ROUTES = {
  createPlayer: { method: 'POST', path: '/api/players' },
  me: { method: 'GET', path: '/api/me' },
  rename: { method: 'PATCH', path: '/api/me' },
  myDevices: { method: 'GET', path: '/api/me/devices' },
  signOutDevice: { method: 'DELETE', path: '/api/me/devices/:id' },
  createLink: { method: 'POST', path: '/api/me/links' },
  linkOwner: { method: 'GET', path: '/api/links/:code' },
  claimLink: { method: 'POST', path: '/api/links/:code' },
  myPasskeys: { method: 'GET', path: '/api/me/passkeys' },
  passkeyRegistration: { method: 'POST', path: '/api/me/passkeys/options' },
  addPasskey: { method: 'POST', path: '/api/me/passkeys' },
  removePasskey: { method: 'DELETE', path: '/api/me/passkeys/:id' },
  passkeySignInOptions: { method: 'POST', path: '/api/passkeys/options' },
  passkeySignIn: { method: 'POST', path: '/api/passkeys/sign-in' },
  myGames: { method: 'GET', path: '/api/me/games' },
  playerStats: { method: 'GET', path: '/api/players/:id/stats' },
  playerRatings: { method: 'GET', path: '/api/players/:id/ratings' },
  ratingBoard: { method: 'GET', path: '/api/ratings/:variant' },
  createRace: { method: 'POST', path: '/api/races' },
  race: { method: 'GET', path: '/api/races/:code' },
  joinRace: { method: 'POST', path: '/api/races/:code/join' },
  startRace: { method: 'POST', path: '/api/races/:code/start' },
  leaveRace: { method: 'POST', path: '/api/races/:code/leave' },
  kickRacer: { method: 'POST', path: '/api/races/:code/kick' },
  cancelRace: { method: 'POST', path: '/api/races/:code/cancel' },
  answerRematch: { method: 'POST', path: '/api/races/:code/rematch' },
  raceReplay: { method: 'GET', path: '/api/races/:code/replay' },
  lobby: { method: 'GET', path: '/api/lobby' },
  pool: { method: 'GET', path: '/api/pool' },
  joinPool: { method: 'POST', path: '/api/pool' },
  leavePool: { method: 'POST', path: '/api/pool/leave' },
  createSeries: { method: 'POST', path: '/api/series' },
  series: { method: 'GET', path: '/api/series/:code' },
  dealSeries: { method: 'POST', path: '/api/series/:code/deals/:deal' },
  today: { method: 'GET', path: '/api/daily' },
  daily: { method: 'GET', path: '/api/daily/:day' },
  startDaily: { method: 'POST', path: '/api/daily/start' },
  leaderboard: { method: 'GET', path: '/api/daily/:day/leaderboard' },
  dailyAnalysis: { method: 'GET', path: '/api/daily/:day/analysis' },
  game: { method: 'GET', path: '/api/games/:id' },
  record: { method: 'GET', path: '/api/games/:id/record' },
  analysis: { method: 'GET', path: '/api/games/:id/analysis' },
  raceGhost: { method: 'POST', path: '/api/games/:id/ghost' },
  ghost: { method: 'GET', path: '/api/ghosts/:id' },
  ghostReplay: { method: 'GET', path: '/api/ghosts/:id/replay' },
  findGhost: { method: 'POST', path: '/api/ghosts' },
  health: { method: 'GET', path: '/api/health' },
  ready: { method: 'GET', path: '/api/ready' },
  openapi: { method: 'GET', path: '/api/openapi.json' },
  reportPlayer: { method: 'POST', path: '/api/players/:id/report' },
  operatorOverview: { method: 'GET', path: '/api/operator' },
  renamePlayer: { method: 'POST', path: '/api/operator/players/:id/rename' },
  hideName: { method: 'POST', path: '/api/operator/players/:id/hide-name' },
  banPlayer: { method: 'POST', path: '/api/operator/players/:id/ban' },
  unbanPlayer: { method: 'POST', path: '/api/operator/players/:id/unban' },
  dismissReports: { method: 'POST', path: '/api/operator/players/:id/dismiss-reports' },
  /** The websocket (contract/socket.ts): a plain GET is refused with `upgrade-required`. */
  socket: { method: 'GET', path: '/ws' },
} as const satisfies Record<string, { readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; readonly path: `/${string}` }>;

export type RouteName = keyof typeof ROUTES;
export type RouteMethod = (typeof ROUTES)[RouteName]['method'];

/** The names of a path's `:parameters`: `'/api/races/:code'` gives `'code'`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of route `N`'s path parameters (numbers are written in decimal). */
export type RoutePathParams<N extends RouteName> = { readonly [K in PathParamName<(typeof ROUTES)[N]['path']>]: string | number };

/**
 * Route `name`'s URL: each `:parameter` filled in (URL-encoded), then the query string from the
 * defined entries of `query`.
 */
export function routePath<N extends RouteName>(
  name: N,
  ...[params, query]: keyof RoutePathParams<N> extends never
    ? [params?: Record<string, never>, query?: Readonly<Record<string, string | number | undefined>>]
    : [params: RoutePathParams<N>, query?: Readonly<Record<string, string | number | undefined>>]
): string {
  const values = (params ?? {}) as Readonly<Record<string, string | number>>;
  const path = ROUTES[name].path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(values[key])));
  const search = Object.entries(query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return search.length === 0 ? path : `${path}?${search.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`).join('&')}`;
}
