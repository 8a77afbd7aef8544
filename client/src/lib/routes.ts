/**
 * The route table: every page's path pattern, its title and how it uses the window. App finds
 * the route of the current path here (`matchRoute`) and every link to a page is built from the
 * same pattern (`href`), so no path is written twice. A pattern's `:name` parts are read by
 * `PARAMS` into the page's props of that name; `:name?` may be missing (null). Which view draws
 * each route is `src/pages.ts`, keyed by the same names and typed by these props (views belong
 * to the app: `lib/`, which links to pages, never imports them).
 */
import { t } from './i18n.svelte.js';

/** What a path part may be, and the prop it becomes. */
const PARAMS = {
  /** A race or series code, any case in the path, upper-cased for the view. */
  code: { pattern: '[A-Za-z0-9]{6}', read: (text: string): string => text.toUpperCase() },
  /** A UTC day, `YYYY-MM-DD`. */
  day: { pattern: '\\d{4}-\\d{2}-\\d{2}', read: (text: string): string => text },
  /** A stored row's id. */
  id: { pattern: '[1-9]\\d{0,14}', read: (text: string): number => Number(text) },
  /** A variant's id as written (the page says when no variant has it). */
  variant: { pattern: '[a-z-]{1,40}', read: (text: string): string => text },
} as const;
type ParamName = keyof typeof PARAMS;
type ParamValue<N extends ParamName> = ReturnType<(typeof PARAMS)[N]['read']>;

/** `'/race/:code'` → `'code'`; `'/daily/:day?'` → `'day?'`. */
type Parts<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | Parts<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;
/** The props a pattern supplies to its page. */
export type ParamsOf<P extends string> = {
  [K in Parts<P> as K extends `${infer N}?` ? N : K]: K extends `${infer N extends ParamName}?` ? ParamValue<N> | null : K extends ParamName ? ParamValue<K> : never;
};

/** The header's navigation tabs: a page's section is the tab shown as current. */
const SECTIONS = ['race', 'daily', 'practice', 'history', 'record'] as const;
export type Section = (typeof SECTIONS)[number];

interface RouteSpec<P extends string> {
  /** The path, `:name` for a part read by `PARAMS` (`:name?` for an optional last part). */
  readonly path: P;
  /** Other paths to the same page (a short form of a shared link), with the same parts. */
  readonly aliases?: readonly string[];
  /** The page's name in the window title (`Race K7MQ2X · Lucie`), in the player's language; null for the site's own title. */
  readonly title: (params: ParamsOf<P>) => string | null;
  readonly section?: Section;
  /** A board drawn on the page takes the whole width; `play`: the player plays on it, so the skip link leads to it. */
  readonly board?: 'play' | 'view';
}

interface Route<P extends string> extends RouteSpec<P> {
  /** Match a path, trailing slash allowed, with one group per name of `names`. */
  readonly patterns: readonly RegExp[];
  readonly names: readonly ParamName[];
}

function route<P extends string>(spec: RouteSpec<P>): Route<P> {
  const names = [...spec.path.matchAll(/:(\w+)/g)].map((part) => part[1] as ParamName);
  const compile = (path: string): RegExp =>
    new RegExp(
      `^${path
        .replace(/\/:(\w+)\?/g, (_, name: ParamName) => `(?:/(${PARAMS[name].pattern}))?`)
        .replace(/:(\w+)/g, (_, name: ParamName) => `(${PARAMS[name].pattern})`)}${path === '/' ? '' : '/?'}$`,
    );
  return { ...spec, names, patterns: [spec.path, ...(spec.aliases ?? [])].map(compile) };
}

export const ROUTES = {
  start: route({ path: '/', title: () => null, section: 'race' }),
  // `/race/CODE` is the share link; `/r/CODE` is its short form.
  race: route({ path: '/race/:code', aliases: ['/r/:code'], title: ({ code }) => t('title.race', { code }), section: 'race', board: 'play' }),
  raceReplay: route({ path: '/race/:code/replay', title: ({ code }) => t('title.race-replay', { code }), section: 'race', board: 'view' }),
  series: route({ path: '/series/:code', title: ({ code }) => t('title.series', { code }), board: 'play' }),
  /** `/daily` is today; `/daily/YYYY-MM-DD` any day. */
  daily: route({ path: '/daily/:day?', title: ({ day }) => (day ? t('title.daily', { day }) : t('title.daily-today')), section: 'daily', board: 'play' }),
  practice: route({ path: '/practice', title: () => t('title.practice'), section: 'practice', board: 'play' }),
  history: route({ path: '/history', title: () => t('title.history'), section: 'history' }),
  /** A ghost race: its own game's id. */
  ghost: route({ path: '/ghost/:id', title: ({ id }) => t('title.ghost', { id: String(id) }), section: 'race', board: 'play' }),
  game: route({ path: '/game/:id', title: ({ id }) => t('title.game', { id: String(id) }), section: 'history', board: 'view' }),
  player: route({ path: '/player/:id', title: () => t('title.player'), section: 'history' }),
  ratings: route({ path: '/ratings/:variant?', title: () => t('title.ratings') }),
  rules: route({ path: '/rules', title: () => t('title.rules') }),
  /** `/link#CODE`: a device link, its code in the fragment (never sent to a server). */
  link: route({ path: '/link', title: () => t('title.link') }),
  openRecord: route({ path: '/replay', title: () => t('title.open-record'), section: 'record', board: 'view' }),
  /** The operator page (ADMIN_TOKEN): reports, fair-play outliers, bans, the action log. */
  operator: route({ path: '/operator', title: () => t('title.operator') }),
};
export type RouteName = keyof typeof ROUTES;
export type PathOf<N extends RouteName> = (typeof ROUTES)[N]['path'];

/** The route found at a path. */
export interface MatchedRoute {
  readonly name: RouteName;
  /** The page's props, read from the path. */
  readonly props: Record<string, unknown>;
  /** Its name in the window title; null for the site's own title. */
  readonly title: string | null;
  readonly section: Section | undefined;
  readonly board: 'play' | 'view' | undefined;
}

/** The route of `path`, with the props read from it; undefined when no page lives there. */
export function matchRoute(path: string): MatchedRoute | undefined {
  for (const [name, entry] of Object.entries(ROUTES) as [RouteName, Route<never>][]) {
    for (const pattern of entry.patterns) {
      const match = pattern.exec(path);
      if (!match) continue;
      const props = Object.fromEntries(entry.names.map((param, i) => [param, match[i + 1] === undefined ? null : PARAMS[param].read(match[i + 1]!)]));
      // The props come from the pattern the entry's title is typed by.
      return { name, props, title: entry.title(props as never), section: entry.section, board: entry.board };
    }
  }
  return undefined;
}

/** A link's parts: none for a plain path; optional ones may be left out. */
type LinkArgs<P extends string> = [Exclude<Parts<P>, `${string}?`>] extends [never] ? [params?: Partial<ParamsOf<P>>] : [params: ParamsOf<P>];

/** The path of route `name` with `params` filled in (an optional part left out when null or missing). */
export function href<N extends RouteName>(name: N, ...[params]: LinkArgs<PathOf<N>>): string {
  const values = (params ?? {}) as Record<string, string | number | null | undefined>;
  return ROUTES[name].path.replace(/\/:(\w+)\??/g, (_, param: string) => (values[param] === null || values[param] === undefined ? '' : `/${values[param]}`)) || '/';
}

/** Practice on a known deal (a finished race's or day's seed). */
export const practiceHref = (seed: string, variant: string): string => `${href('practice')}?${new URLSearchParams({ seed, variant })}`;
