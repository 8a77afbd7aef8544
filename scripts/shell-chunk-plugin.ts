// A Vite plugin that puts every module the entry (client/src/main.ts) imports statically, the
// shell, into one chunk beside the entry's. Left to itself the bundler cuts the shell into a dozen
// chunks, one per set of pages that also import a part of it (the router, the API, the settings:
// some under a kilobyte), and a browser speaking HTTP/1.1 to the server, as through the nginx of
// docker-compose.yml, fetches six files at a time: each six more cost the phone a round trip. Every page
// runs after the shell, so none gets code it would not have loaded anyway.
import type { Plugin } from 'vite';

export function shellChunk(): Plugin {
  /** The shell's modules, known once the module graph is complete (before chunks are made). */
  const shell = new Set<string>();
  return {
    name: 'lucie-shell-chunk',
    apply: 'build',
    config: () => ({
      build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', test: (id: string) => shell.has(id) }] } } } },
    }),
    buildEnd() {
      // A watched build runs this again on a changed graph.
      shell.clear();
      const html = [...this.getModuleIds()].find((id) => this.getModuleInfo(id)?.isEntry);
      // index.html's module imports the entry script (and Vite's preload polyfill), which stay in the entry's chunk.
      const roots = new Set([html, ...(this.getModuleInfo(html ?? '')?.importedIds ?? [])]);
      if (![...roots].some((id) => id?.endsWith('/main.ts'))) throw new Error('shell chunk: the build has no entry script');
      const visit = (id: string): void => {
        if (shell.has(id) || roots.has(id)) return;
        shell.add(id);
        for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
      };
      for (const root of roots) for (const imported of this.getModuleInfo(root!)?.importedIds ?? []) visit(imported);
    },
  };
}
