// The engine is the ground floor: no I/O, no clock, no randomness, and nothing of ours above it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SHARED = join(import.meta.dirname, '..', '..', 'shared');
const sources = readdirSync(SHARED)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(SHARED, name), 'utf8') }));

describe('shared/ (the engine)', () => {
  it('has sources to check', () => {
    expect(sources.map((source) => source.name)).toContain('position.ts');
  });

  it.each(sources)('$name imports only sibling engine modules', ({ text }) => {
    const imports = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    for (const specifier of imports) expect(specifier).toMatch(/^\.\/[a-z0-9-]+\.js$/);
  });

  it.each(sources)('$name uses no clock, no Math.random, no dynamic import and no process', ({ text }) => {
    expect(text).not.toMatch(/\bDate\b|Math\.random|performance\.now|\bimport\(|\brequire\(|\bprocess\./);
  });
});
