// Compiles the server to plain JavaScript in dist/app, a tree the Dockerfile copies as is: each
// TypeScript file becomes a .js file at the same relative path (so paths built from
// import.meta.url, like the migrations folder and the client, still resolve), beside the
// migrations, the built client and package.json. Run `node server/main.js` inside it; CI runs
// this script and then scripts/smoke-server.mjs against the result.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'app');
// The server's own code and everything it imports from the repo (not the client, CLI or tests).
const SOURCE_DIRS = ['server', 'shared', 'contract'].filter((dir) => existsSync(join(root, dir)));

function typescriptFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: SOURCE_DIRS.flatMap(typescriptFiles),
  outbase: root,
  outdir: out,
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});

// Always rebuilt: a client left over from older sources must never ship.
const vite = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build'], { cwd: root, stdio: 'inherit' });
if (vite.status !== 0) process.exit(vite.status ?? 1);
cpSync(join(root, 'dist', 'client'), join(out, 'dist', 'client'), { recursive: true });
cpSync(join(root, 'migrations'), join(out, 'migrations'), { recursive: true });
for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(out, file));
console.log(`server compiled into ${out}`);
