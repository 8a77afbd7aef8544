import type { Component } from 'svelte';
import { loadPageWords } from './lib/i18n.svelte.js';
import type { ParamsOf, PathOf, RouteName } from './lib/routes.js';

/**
 * The view drawing each route of `lib/routes.ts`, typed by the props its path supplies (a view
 * whose props disagree with its path does not compile). Each view is its own chunk, fetched when
 * first shown: the first load carries one page's code, not every page's (the budget:
 * test/repo/bundle-size.test.ts).
 */
const VIEWS: { readonly [N in RouteName]: () => Promise<{ default: Component<ParamsOf<PathOf<N>>> }> } = {
  start: () => import('./views/Start.svelte'),
  race: () => import('./views/RacePage.svelte'),
  raceReplay: () => import('./views/RaceReplay.svelte'),
  series: () => import('./views/SeriesPage.svelte'),
  daily: () => import('./views/DailyPage.svelte'),
  practice: () => import('./views/Practice.svelte'),
  history: () => import('./views/HistoryPage.svelte'),
  ghost: () => import('./views/GhostPage.svelte'),
  game: () => import('./views/GamePage.svelte'),
  player: () => import('./views/PlayerRecord.svelte'),
  ratings: () => import('./views/RatingsPage.svelte'),
  rules: () => import('./views/RulesPage.svelte'),
  link: () => import('./views/LinkPage.svelte'),
  openRecord: () => import('./views/OpenRecord.svelte'),
  operator: () => import('./views/OperatorPage.svelte'),
};

/** The view of route `name`, for props read from a path (`matchRoute`). */
export const viewOf = (name: RouteName): (() => Promise<{ default: Component<Record<string, unknown>> }>) => VIEWS[name] as () => Promise<{ default: Component<Record<string, unknown>> }>;

/** The view of route `name` once it and the words it shows beyond the shell's have come, fetched together. */
export async function openPage(name: RouteName): Promise<{ default: Component<Record<string, unknown>> }> {
  const [view] = await Promise.all([viewOf(name)(), loadPageWords(name)]);
  return view;
}
