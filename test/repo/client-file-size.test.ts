// No file in client/ over 400 lines (issue 19): a file that grows past it is split by concern
// (the board's state, events, drag, keys and animation each in its own file; pages from one table).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LIMIT = 400;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return [path];
  });
}

describe('client file sizes', () => {
  it(`keeps every file in client/ at ${LIMIT} lines or fewer`, () => {
    const files = filesUnder(join(ROOT, 'client'));
    expect(files.some((file) => file.endsWith('Board.svelte'))).toBe(true);
    const long = files
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > LIMIT);
    expect(long).toEqual([]);
  });
});
