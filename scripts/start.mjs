// `npm start`: builds the client when dist/client is missing or older than its sources, then
// runs the server (TypeScript through tsx), passing SIGTERM/SIGINT on for a graceful shutdown.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (message) => console.log(`[start] ${message}`);

/** The newest modification time under the given files and folders (node_modules skipped). */
function newest(paths) {
  let latest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      const children = readdirSync(path).filter((name) => name !== 'node_modules').map((name) => join(path, name));
      latest = Math.max(latest, newest(children));
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  }
  return latest;
}

function buildClient() {
  if (!existsSync(join(root, 'client', 'index.html'))) {
    log('no client/index.html yet: serving the API only');
    return;
  }
  const built = join(root, 'dist', 'client', 'index.html');
  const sources = newest(['client', 'shared', 'contract', 'vite.config.ts', 'package.json'].map((path) => join(root, path)));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) {
    log('client is up to date');
    return;
  }
  log('building the client (vite build)');
  const vite = join(root, 'node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[start] the client build failed');
    process.exit(result.status ?? 1);
  }
}

buildClient();
// Its own process group: a terminal's Ctrl-C reaches the server once, through us, not twice.
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
