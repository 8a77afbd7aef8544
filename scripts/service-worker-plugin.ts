// A Vite plugin that writes the service worker (sw.js, from client/sw/sw.ts) into every client build, with the
// build's file list and a version named after its contents, so any `vite build` (npm start's,
// the browser tests', Docker's) ships a worker that precaches exactly the files beside it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin, ResolvedConfig } from 'vite';

const SOURCE = fileURLToPath(new URL('../client/sw/sw.ts', import.meta.url));
/**
 * Built files the worker leaves alone: Vite's manifest and source maps are for tools, not pages;
 * the pages' copies of index.html (page-preload-plugin.ts) only speed a load from the network,
 * and offline index.html serves every page.
 */
const NOT_PRECACHED = /(^|\/)\.vite\/|\.map$|^pages\//;

/** Every file under `dir`, as paths from it with forward slashes. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
  } catch {
    return []; // no public directory
  }
}

export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'lucie-service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle: {
      // After Vite's own hooks, so that index.html is in the bundle.
      order: 'post',
      async handler(_options, bundle) {
        const digest = createHash('sha256');
        const files: string[] = [];
        for (const [fileName, output] of Object.entries(bundle).sort(([a], [b]) => a.localeCompare(b))) {
          if (NOT_PRECACHED.test(fileName)) continue;
          files.push(`/${fileName}`);
          digest.update(fileName).update(output.type === 'chunk' ? output.code : output.source);
        }
        const publicDir = config.publicDir;
        for (const fileName of publicDir ? filesUnder(publicDir).sort() : []) {
          files.push(`/${fileName}`);
          digest.update(fileName).update(readFileSync(join(publicDir, fileName)));
        }
        const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId?.endsWith('.html'));
        if (!entry || !files.includes('/index.html')) throw new Error('service worker: the build has no index.html entry to precache');
        const worker = await build({
          entryPoints: [SOURCE],
          bundle: true,
          write: false,
          format: 'iife',
          target: 'es2020',
          minify: true,
          logLevel: 'warning',
          define: {
            LUCIE_VERSION: JSON.stringify(digest.update(readFileSync(SOURCE)).digest('hex').slice(0, 16)),
            LUCIE_FILES: JSON.stringify(files),
            LUCIE_ENTRY: JSON.stringify(`/${entry.fileName}`),
          },
        });
        this.emitFile({ type: 'asset', fileName: 'sw.js', source: worker.outputFiles[0]!.text });
      },
    },
  };
}
