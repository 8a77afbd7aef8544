// The import picture: engine at the bottom, the contract on it, server and client beside each
// other on both. Only the server's own code, its tests, benchmarks and chaos probes may import server/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', 'data', '.git', 'migrations']);

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sourcesUnder(path);
    return /\.(ts|mts|mjs|js|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports (static, re-exported or dynamic), relative ones resolved to repo paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.map((specifier) => (specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier));
}

const files = ['shared', 'contract', 'server', 'client', 'cli', 'bench', 'chaos', 'test', 'scripts'].flatMap(sourcesUnder);
const edges = files.flatMap((file) => importsOf(file).map((target) => ({ file, target })));
const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
// cli/backup.ts: the operator's `lucie backup` and `lucie restore` take and put back the server's own database (server/backup.ts).
const MAY_IMPORT_SERVER = ['server', 'test/server', 'test/browser', 'test/support', 'test/repo', 'bench', 'chaos', 'cli/backup.ts'];

describe('layers', () => {
  it('reads the imports of every layer', () => {
    for (const folder of ['shared', 'contract', 'server', 'client', 'test']) expect(files.some((file) => inside(file, folder))).toBe(true);
    expect(edges).toContainEqual({ file: 'server/app.ts', target: 'contract/index.js' });
  });

  it('nothing outside the server, its tests (the repo checks among them), benchmarks and chaos probes imports server/', () => {
    const offending = edges.filter(({ file, target }) => inside(target, 'server') && !MAY_IMPORT_SERVER.some((folder) => inside(file, folder)));
    expect(offending).toEqual([]);
  });

  it('the engine imports only itself', () => {
    const offending = edges.filter(({ file, target }) => inside(file, 'shared') && !inside(target, 'shared'));
    expect(offending).toEqual([]);
  });

  it('the contract imports only the engine, itself and zod', () => {
    const offending = edges.filter(
      ({ file, target }) => inside(file, 'contract') && !inside(target, 'shared') && !inside(target, 'contract') && target !== 'zod',
    );
    expect(offending).toEqual([]);
  });

  it('the client imports no Node module, and zod only as types', () => {
    const client = files.filter((file) => inside(file, 'client'));
    const offending = client.flatMap((file) => importsOf(file).filter((target) => target.startsWith('node:') || target === 'zod').map((target) => ({ file, target })));
    expect(offending).toEqual([]);
    // The zod schemas of the contract reach the client as types only (client/src/lib/contract.ts).
    const valueImports = client.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]/gm)]
        .map((match) => relative(ROOT, resolve(ROOT, dirname(file), match[1]!)))
        .filter((target) => /^contract\/(views|socket|http|index)\.js$/.test(target))
        .map((target) => ({ file, target })),
    );
    expect(valueImports).toEqual([]);
  });
});
