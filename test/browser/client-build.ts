// vitest global setup of the browser project: the client is built once per run, into the browser
// tests' own folder (never the dist/client that `npm start` serves), before any browser file starts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TEST_CLIENT_DIR = join(ROOT, 'dist', 'test-client');

export default function buildClient(): void {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn', '--outDir', TEST_CLIENT_DIR, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: 'inherit',
    // The build that ships: under Vitest's NODE_ENV=test, Vite would compile Svelte's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
