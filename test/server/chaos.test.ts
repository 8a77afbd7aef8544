// The short form of `npm run chaos` (real server processes on loopback): no probe may see a
// crash, an unanswered message, a state change from illegal input or a lost acknowledged move.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

describe('the chaos suite, short form', () => {
  it('reports no crash, unanswered message, state change or lost move in any probe', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'chaos/run.ts', '--short', '--seed', '9'], { cwd: root, encoding: 'utf8', timeout: 170_000 });
    const lines = run.stdout.split('\n').filter((line) => /^[✓✗] /.test(line));
    // The disk-full probe mounts a small tmpfs, which only root may do.
    const probes = ['websocket fuzz', 'HTTP fuzz', 'kill -9', 'locked database', ...(process.getuid?.() === 0 ? ['disk full'] : [])];
    expect(lines.map((line) => line.slice(2, line.indexOf(':')))).toEqual(expect.arrayContaining(probes));
    for (const line of lines) {
      expect(line, line).not.toMatch(/FAILED|[1-9]\d* (unanswered|internal errors|state changes|crashes|lost)\b/);
    }
    // Every refusal, Fastify's own included, in the contract's error shape with its code's status.
    expect(lines.find((line) => line.startsWith('✓ HTTP fuzz'))).toMatch(/errors outside the HttpError shape: none\b/);
  }, 180_000);
});
