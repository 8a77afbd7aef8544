// `npm test` checks what npm cannot bring before any test starts (scripts/test-needs.mjs): where
// it cannot install what is missing, one line names it with the command, and the exit is 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'test-needs.mjs');
// A PATH with node alone: no pg_ctl, no redis-server, no apt-get.
const bare = mkdtempSync(join(tmpdir(), 'lucie-needs-'));
symlinkSync(process.execPath, join(bare, 'node'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

function check(scope: string, env: Record<string, string>) {
  const { TEST_DATABASE_URL: _db, TEST_REDIS_URL: _redis, PG_BIN: _bin, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [SCRIPT, scope], { env: { ...inherited, PATH: bare, PG_BIN: join(bare, 'no-postgresql'), ...env }, encoding: 'utf8', timeout: 10_000 });
  return { status: run.status, lines: run.stderr.split('\n').filter(Boolean) };
}

describe('the test command’s own set-up', () => {
  it('without pg_ctl, redis-server and apt-get: one line naming them and the install command, exit 1', () => {
    expect(check('unit', {})).toEqual({
      status: 1,
      lines: [
        'The tests need PostgreSQL (pg_ctl) and Redis (redis-server), not installed here: run `sudo apt-get install -y postgresql redis-server` ' +
          "(Debian's packages; npm test installs them itself when run as root with apt-get), or set TEST_DATABASE_URL and TEST_REDIS_URL to servers of your own.",
      ],
    });
  });

  it('servers of your own stand in for PostgreSQL and Redis', () => {

    const own = check('unit', { TEST_DATABASE_URL: 'postgres://127.0.0.1:1/x', TEST_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(own).toEqual({ status: 0, lines: [] });
  });

  it('with everything installed it says nothing and lets the tests run', () => {
    // This machine runs the suite, so what it needs is here.
    const { PG_BIN: _bin, TEST_DATABASE_URL: _db, TEST_REDIS_URL: _redis, ...env } = process.env;
    const run = spawnSync(process.execPath, [SCRIPT, 'all'], { env, encoding: 'utf8', timeout: 10_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
