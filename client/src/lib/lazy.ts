import type { Component } from 'svelte';
import Lazy from './Lazy.svelte';

/**
 * A component whose code is its own chunk, fetched the first time it is drawn (or at once with
 * `start: 'now'`, for a part the page will most likely draw soon but not at its first paint):
 * used like the component itself, so a page's first load carries only what it draws first (the
 * budget: test/repo/bundle-size.test.ts). Nothing is drawn until the chunk has come.
 */
export function lazy<Props extends Record<string, any>>(load: () => Promise<{ default: Component<Props> }>, start: 'drawn' | 'now' = 'drawn'): Component<Props> {
  let loading: Promise<{ default: Component<Props> }> | undefined;
  const once = (): Promise<{ default: Component<Props> }> => (loading ??= load());
  if (start === 'now') void once();
  // A Svelte component is a function of its anchor and props: this one draws Lazy with the props as they are, getters and all.
  return ((anchor: never, props: Props) => Lazy(anchor, { load: once as never, props })) as unknown as Component<Props>;
}
