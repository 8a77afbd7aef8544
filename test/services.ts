// vitest global setup: the PostgreSQL and Redis servers the storage and scale-out tests use.
// CI (.ci/run) starts them and exports TEST_DATABASE_URL / TEST_REDIS_URL; without those, a
// throwaway pair is started here (scripts/services.sh) for this run and stopped after it, or,
// when the run is killed before its teardown, by a watchdog once this process is gone.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../scripts/services.sh', import.meta.url));

export default function setup(): (() => void) | undefined {
  if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'lucie-services-'));
  const watchdog = spawn('sh', ['-c', 'while kill -0 "$0" 2>/dev/null; do sleep 2; done; "$1" stop "$2"; rm -rf "$2"', String(process.pid), SCRIPT, dir], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  const stop = () => {
    watchdog.kill();
    execFileSync(SCRIPT, ['stop', dir], { stdio: 'inherit' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const exports = execFileSync(SCRIPT, ['start', dir], { encoding: 'utf8' });
    for (const [, name, value] of exports.matchAll(/(TEST_\w+)=(\S+)/g)) process.env[name!] = value;
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}
