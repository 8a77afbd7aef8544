// A Vite plugin that writes, beside index.html, one copy of it per page (pages/NAME.html, NAME a
// route of client/src/pages.ts) that also names the page's own code and what the page fetches as
// soon as it runs (`lazy(..., 'now')`, the board most often) as <link rel="modulepreload">, and
// their styles. The server answers a page's path with its copy (server/plugins/client.ts), so a
// first visit asks for all of it at once, beside the shell, instead of one round trip after another:
// the shell, then the page once the shell runs, then the board once the page runs.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { pageViews } from '../vite-message-use.js';

/** The directory of the pages' copies of index.html, in the build. */
export const PAGES_DIR = 'pages';
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
          const links = [
            ...[...wanted.scripts].filter((file) => !shell.scripts.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
            ...[...wanted.styles].filter((file) => !shell.styles.has(file)).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
          ];
          const source = String(html.source).replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
          this.emitFile({ type: 'asset', fileName: `${PAGES_DIR}/${name}.html`, source });
        }
      },
    },
  };
}
