// The repository explains itself: no file refers to documents that live outside it, and every
// relative link in its Markdown leads to a file that exists.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((path) => /\.(ts|mjs|js|svelte|md|json|yml|html|css|sh)$|^Dockerfile$|^\.ci\//.test(path) && existsSync(join(ROOT, path)));

describe('a self-contained repository', () => {
  it('has the rules and the record format in docs/', () => {
    expect(tracked).toEqual(expect.arrayContaining(['docs/rules.md', 'docs/record-format.md']));
  });

  it('names no document from outside the repository', () => {
    const outside = /\bRULES\.md|\bTOOLCHAIN\.md|spec\/record\.md|\/work\//;
    const offenders = tracked.filter((path) => path !== 'test/repo/self-contained.test.ts' && outside.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('links, in Markdown, only to files that exist', () => {
    const broken: string[] = [];
    for (const path of tracked.filter((name) => name.endsWith('.md'))) {
      for (const [, target] of readFileSync(join(ROOT, path), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(ROOT, dirname(path), target!))) broken.push(`${path} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
