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
 * `start: 'now'`, for a part the page will most likely draw soon but not at its first paint: made
 * in the view's module script, it is fetched as soon as the page's own chunk runs, beside the
 * page's words): used like the component itself, so a page's first load carries only what it
 * draws first (the budget: test/repo/bundle-size.test.ts). Nothing is drawn until the chunk and
 * the words asked for by the time it is drawn have come.
 */
export function lazy<Props extends Record<string, any>>(load: () => Promise<{ default: Component<Props> }>, start: 'drawn' | 'now' = 'drawn'): Component<Props> {
  const fetchOnce = untilFailed(load);
  if (start === 'now') fetchOnce().catch(() => undefined);
  // Waited for when first drawn: by then the page has asked for the words it draws later.
  const once = untilFailed(() => later(fetchOnce));
  // A Svelte component is a function of its anchor and props: this one draws Lazy with the props as they are, getters and all.
  return ((anchor: never, props: Props) => Lazy(anchor, { load: once as never, props })) as unknown as Component<Props>;
}

/**
 * `make`'s promise, made once and shared while it is pending or kept, made again after it failed:
 * a lazy part lives as long as its page's module, so a chunk that did not come (a network blip)
 * is asked for again the next time it is drawn rather than never.
 */
export function untilFailed<T>(make: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    if (!current) {
      const made = make();
      current = made;
      made.catch(() => {
        if (current === made) current = undefined;
      });
    }
    return current;
  };
}
