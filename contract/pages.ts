// The web client's pages, as path patterns, named as the client's routes are (client/src/lib/routes.ts):
// the one list the client's router and the server share. The server answers a GET of any of them with the app (200); any other path outside
// /api and /ws gets the app too, whose page then says "Not found", but with status 404.
// A pattern checks a path's shape only (a race code that does not exist is the page's to say).

export const PAGE_PATHS = {
  start: /^\/$/,
  race: /^\/(?:race|r)\/[^/]+\/?$/,
  raceReplay: /^\/race\/[A-Za-z0-9]{6}\/replay\/?$/,
  series: /^\/series\/[A-Za-z0-9]{6}\/?$/,
  /** `/daily` is today; `/daily/YYYY-MM-DD` any day. */
  daily: /^\/daily(?:\/\d{4}-\d{2}-\d{2})?\/?$/,
  game: /^\/game\/[1-9]\d{0,14}\/?$/,
  ghost: /^\/ghost\/[1-9]\d{0,14}\/?$/,
  player: /^\/player\/[1-9]\d{0,14}\/?$/,
  history: /^\/history\/?$/,
  practice: /^\/practice\/?$/,
  openRecord: /^\/replay\/?$/,
  /** `/ratings` is the strict board; `/ratings/VARIANT` any variant's. */
  ratings: /^\/ratings(?:\/[a-z-]{1,40})?\/?$/,
  rules: /^\/rules\/?$/,
  /** The operator page (moderation); its data needs ADMIN_TOKEN, the page itself is public. */
  operator: /^\/operator\/?$/,
  link: /^\/link\/?$/,
} as const satisfies Record<string, RegExp>;

export type PageName = keyof typeof PAGE_PATHS;

/** The page a path (without its query) shows, or undefined: none, a 404. */
export function pageOf(path: string): PageName | undefined {
  return (Object.keys(PAGE_PATHS) as PageName[]).find((name) => PAGE_PATHS[name].test(path));
}
