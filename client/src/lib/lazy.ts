import type { Component } from 'svelte';
import { wordsReady } from './i18n.svelte.js';
import Lazy from './Lazy.svelte';

/**
 * A module of the page's fetched after its first paint, ready once it has come and so have the
 * words the page shows after its first paint (i18n.svelte.ts's `NAME-later` part): what it writes
 * is never drawn as a key. Every `import()` of a page goes through here or `lazy` (the words of a
 * module fetched so are not in the page's first words: vite-message-use.ts).
 */
export function later<T>(load: () => Promise<T>): Promise<T> {
  return Promise.all([load(), wordsReady()]).then(([module]) => module);
}

/**
 * A component whose code is its own chunk, fetched the first time it is drawn (or at once with
 * `start: 'now'`, for a part the page will most likely draw soon but not at its first paint):
 * used like the component itself, so a page's first load carries only what it draws first (the
 * budget: test/repo/bundle-size.test.ts). Nothing is drawn until the chunk and its words have come.
 */
export function lazy<Props extends Record<string, any>>(load: () => Promise<{ default: Component<Props> }>, start: 'drawn' | 'now' = 'drawn'): Component<Props> {
  let loading: Promise<{ default: Component<Props> }> | undefined;
  const once = (): Promise<{ default: Component<Props> }> => (loading ??= later(load));
  if (start === 'now') void once();
  // A Svelte component is a function of its anchor and props: this one draws Lazy with the props as they are, getters and all.
  return ((anchor: never, props: Props) => Lazy(anchor, { load: once as never, props })) as unknown as Component<Props>;
}
