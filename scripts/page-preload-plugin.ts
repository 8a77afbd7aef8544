// A Vite plugin that writes, beside index.html, one copy of it per language and page
// (pages/LOCALE/NAME.html, NAME a route of client/src/pages.ts) that also names, as <link
// rel="modulepreload">, the page's own code, what the page fetches as soon as it runs
// (`lazy(..., 'now')`, the board most often) and the page's words in that language (those
// client/src/lib/i18n.svelte.ts asks for first: the shell's, the page's and what it draws later),
// with their styles. The server answers a page's path with the copy in the browser's language
// (server/plugins/client.ts), so a first visit asks for all of it at once, beside the shell,
// instead of one round trip after another: the shell, then the words and the page once the shell
// runs, then the board once the page runs.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { pageViews } from '../vite-message-use.js';
import { pageParts, SHELL_PART } from '../client/src/lib/word-parts.js';

/** The directory of the pages' copies of index.html, in the build. */
export const PAGES_DIR = 'pages';
/** One part of one language's words (vite-messages.ts), as the bundle names its module. */
const WORDS = /^\0virtual:messages\/words\/([a-z]{2})\/(.+)$/;
/** A component a view fetches as soon as its own code runs (lib/lazy.ts), as it is written there. */
const FETCHED_AT_ONCE = /\blazy\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)\s*,\s*'now'\s*\)/g;

/** `chunk`'s file and those of every chunk it imports statically, each with its styles. */
function closure(bundle: Rollup.OutputBundle, chunk: Rollup.OutputChunk, into: { scripts: Set<string>; styles: Set<string> }): void {
  if (into.scripts.has(chunk.fileName)) return;
  into.scripts.add(chunk.fileName);
  for (const style of chunk.viteMetadata?.importedCss ?? []) into.styles.add(style);
  for (const imported of chunk.imports) {
    const next = bundle[imported];
    if (next?.type === 'chunk') closure(bundle, next, into);
  }
}

export function pagePreloads(): Plugin {
  return {
    name: 'lucie-page-preloads',
    apply: 'build',
    generateBundle: {
      // After Vite's own hooks, so that index.html is in the bundle.
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') throw new Error('page preloads: the build has no index.html');
        const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
        const chunkOf = (id: string): Rollup.OutputChunk | undefined => chunks.find((chunk) => chunk.facadeModuleId === id);
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('page preloads: the build has no entry');
        // What index.html already brings is not named twice.
        const shell = { scripts: new Set<string>(), styles: new Set<string>() };
        closure(bundle, entry, shell);
        /** Each language's words, by part: locale → part → file (the pseudo-locale, chosen only in the settings, is left out). */
        const words = new Map<string, Map<string, string>>();
        for (const chunk of chunks) {
          const [, locale, part] = WORDS.exec(chunk.facadeModuleId ?? '') ?? [];
          if (locale && part) words.set(locale, (words.get(locale) ?? new Map<string, string>()).set(part, chunk.fileName));
        }
        if (!words.has('en')) throw new Error('page preloads: the build has no English words');
        for (const [name, view] of Object.entries(pageViews())) {
          const page = chunkOf(view);
          if (!page) throw new Error(`page preloads: no chunk for ${view}`);
          const wanted = { scripts: new Set(shell.scripts), styles: new Set(shell.styles) };
          closure(bundle, page, wanted);
          for (const [, spec] of readFileSync(view, 'utf8').matchAll(FETCHED_AT_ONCE)) {
            const soon = chunkOf(resolve(dirname(view), spec!));
            if (!soon) throw new Error(`page preloads: no chunk for ${spec} (fetched at once by ${view})`);
            closure(bundle, soon, wanted);
          }
          const code = [...wanted.scripts].filter((file) => !shell.scripts.has(file));
          const styles = [...wanted.styles].filter((file) => !shell.styles.has(file));
          for (const [locale, parts] of words) {
            const said = [SHELL_PART, ...pageParts(name)].flatMap((part) => parts.get(part) ?? []);
            const links = [
              ...[...said, ...code].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
              ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
            ];
            const source = String(html.source).replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
            this.emitFile({ type: 'asset', fileName: `${PAGES_DIR}/${locale}/${name}.html`, source });
          }
        }
      },
    },
  };
}
