// Each layer type-checks against only what it may use: the engine (shared/, contract/, solver/)
// against ECMAScript alone, the client against the DOM, the server against Node. A fixture that
// reaches for `window`, `Buffer` or `process` is compiled with the engine's own settings and must
// be refused; the same fixture under the Node settings shows which names Node would have given it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const readConfig = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as {
  compilerOptions?: { lib?: string[]; types?: string[] };
  include?: string[];
  references?: { path: string }[];
};
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lucie-layers-'));
  writeFileSync(
    join(dir, 'impure.ts'),
    ['export const width = window.innerWidth;', "export const bytes = Buffer.from('x');", 'export const home = process.env.HOME;', ''].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture compiled with the compiler options of one layer's tsconfig: the names tsc cannot find. */
function missingNames(layer: string): string[] {
  const config = join(dir, `tsconfig.${layer}.json`);
  writeFileSync(
    config,
    JSON.stringify({ extends: join(ROOT, `tsconfig.${layer}.json`), compilerOptions: { composite: false, noEmit: true, emitDeclarationOnly: false, typeRoots: [join(ROOT, 'node_modules', '@types')] }, include: [], files: [join(dir, 'impure.ts')] }),
  );
  try {
    execFileSync(TSC, ['-p', config], { cwd: dir, encoding: 'utf8' });
    return [];
  } catch (error) {
    const output = String((error as { stdout?: string }).stdout);
    // Any other error (a type library not found, say) would make this test prove nothing.
    const others = output.split('\n').filter((line) => line.includes('error TS') && !line.includes('Cannot find name'));
    expect(others).toEqual([]);
    return [...output.matchAll(/error TS\d+: Cannot find name '(\w+)'/g)].map((match) => match[1]!).sort();
  }
}

describe('a tsconfig per layer', () => {
  it('npm run typecheck builds every layer: engine, node, client, service worker and tests, plus svelte-check on the client', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.typecheck).toBe('tsc -b && svelte-check --tsconfig ./tsconfig.client.json --fail-on-warnings');
    expect(readConfig('tsconfig.json').references?.map((reference) => reference.path)).toEqual([
      './tsconfig.engine.json',
      './tsconfig.node.json',
      './tsconfig.client.json',
      './tsconfig.sw.json',
      './tsconfig.test.json',
    ]);
    expect(readConfig('tsconfig.engine.json').include).toEqual(['shared', 'contract', 'solver']);
  });

  it('gives the engine ECMAScript only: window, Buffer and process are unknown names there', () => {
    expect(readConfig('tsconfig.engine.json').compilerOptions).toMatchObject({ lib: ['ES2023'], types: [] });
    expect(missingNames('engine')).toEqual(['Buffer', 'process', 'window']);
  }, 60_000);

  it('gives the server Node but no DOM, and the client the DOM but no Node', () => {
    expect(missingNames('node')).toEqual(['window']);
    expect(missingNames('client')).toEqual(['Buffer', 'process']);
  }, 60_000);

  it("gives the service worker a worker's globals: no DOM window, no Node", () => {
    expect(readConfig('tsconfig.sw.json').compilerOptions).toMatchObject({ lib: ['ES2023', 'WebWorker'], types: [] });
    expect(missingNames('sw')).toEqual(['Buffer', 'process', 'window']);
  }, 60_000);
});
