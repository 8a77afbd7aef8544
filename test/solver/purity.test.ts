// The solver runs in worker threads and in a browser Web Worker: engine imports only, no I/O, no clock of its own.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOLVER = join(import.meta.dirname, '..', '..', 'solver');
const sources = readdirSync(SOLVER)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(SOLVER, name), 'utf8') }));

describe('solver/', () => {
  it('has sources to check', () => {
    expect(sources.map((source) => source.name)).toContain('clairvoyant.ts');
  });

  it.each(sources)('$name imports only the engine and sibling solver modules', ({ text }) => {
    const imports = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    for (const specifier of imports) expect(specifier).toMatch(/^(\.\/[a-z0-9-]+|\.\.\/shared\/[a-z0-9-]+)\.js$/);
  });

  it.each(sources)('$name reads no clock, no Math.random, no process, no I/O', ({ text }) => {
    expect(text).not.toMatch(/\bDate\b|Math\.random|performance\.now|\bimport\(|\brequire\(|\bprocess\.|node:/);
  });
});
