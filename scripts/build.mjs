// The one build: `node scripts/build.mjs [cli] [server] [client]` (all three when none is named).
//  - cli: the `lucie` command bundled into dist/lucie.mjs, so `npx lucie` starts fast (`prepare`
//    runs this part on `npm ci`, before the rest of the sources are there in the Docker build);
//  - server: each TypeScript file of server/, shared/, contract/ and solver/ compiled to plain JavaScript
//    (and any .mjs among them copied) at the same relative path in dist/app (paths built from import.meta.url, such as the
//    migrations and the client, still resolve), beside migrations/ and package.json: the tree
//    `npm start` and the Docker image run as `node server/main.js`;
//  - client: `vite build` into dist/client (skipped when dist/client.sources-digest matches its sources), copied to dist/app/dist/client, then every hashed
//    asset precompressed (.br and .gz beside it) for server/plugins/client.ts to send as is.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const app = join(root, 'dist', 'app');
const TARGETS = ['cli', 'server', 'client'];
const wanted = process.argv.slice(2);
for (const target of wanted) {
  if (!TARGETS.includes(target)) {
    console.error(`build: unknown target "${target}" (one of ${TARGETS.join(', ')})`);
    process.exit(2);
  }
}
const builds = (target) => wanted.length === 0 || wanted.includes(target);
const common = { platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' };

/** The files under `dir` whose names match `pattern`, as absolute paths. */
function filesIn(dir, pattern) {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `file.br` and `file.gz` beside every compressible file whose name carries a content hash. */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/-[\w-]{8,}\.(js|css|svg|json|txt|map)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const content = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

if (builds('cli')) {
  await build({ ...common, entryPoints: ['cli/lucie.ts'], outfile: join(root, 'dist', 'lucie.mjs'), bundle: true, external: ['better-sqlite3'] });
}

if (builds('server')) {
  const sources = ['server', 'shared', 'contract', 'solver'].filter((dir) => existsSync(join(root, dir)));
  for (const dir of sources) rmSync(join(app, dir), { recursive: true, force: true });
  const typescript = sources.flatMap((dir) => filesIn(dir, /(?<!\.d)\.ts$/));
  await build({ ...common, entryPoints: typescript, outbase: root, outdir: app, bundle: false });
  // Plain JavaScript beside the sources (a worker thread's script, say) ships as it is.
  for (const file of sources.flatMap((dir) => filesIn(dir, /\.(mjs|cjs|js)$/))) cpSync(file, join(app, relative(root, file)));
  cpSync(join(root, 'migrations'), join(app, 'migrations'), { recursive: true });
  // The default refused-words list (server/refused-names.ts), read beside the server.
  cpSync(join(root, 'deploy', 'refused-names.txt'), join(app, 'deploy', 'refused-names.txt'));
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(app, file));
}

/** A digest of everything the client build reads: a client left over from other sources must never ship. */
function clientSourcesDigest() {
  const hash = createHash('sha256');
  const files = ['client', 'shared', 'contract', 'solver']
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => filesIn(dir, /./))
    .concat(['vite.config.ts', 'vite-messages.ts', 'vite-message-use.ts', 'scripts/service-worker-plugin.ts', 'scripts/page-preload-plugin.ts', 'scripts/shell-chunk-plugin.ts', 'package-lock.json', 'tsconfig.client.json'].map((file) => join(root, file)))
    .sort();
  for (const file of files) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

if (builds('client')) {
  // Rebuilt unless the sources are exactly those of the last build (a restart then takes a second, not ten).
  const digest = clientSourcesDigest();
  const stamp = join(root, 'dist', 'client.sources-digest');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
    rmSync(stamp, { force: true }); // a build cut short must not pass for a finished one
    // The build that ships, whatever NODE_ENV says: under another (a test runner's `test`), Vite
    // would compile Svelte's development build and leave out the service worker.
    const env = { ...process.env, NODE_ENV: 'production' };
    const vite = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
    if (vite.status !== 0) process.exit(vite.status ?? 1);
    precompress(join(root, 'dist', 'client'));
    writeFileSync(stamp, digest);
  }
  rmSync(join(app, 'dist', 'client'), { recursive: true, force: true });
  cpSync(join(root, 'dist', 'client'), join(app, 'dist', 'client'), { recursive: true });
}
console.log(`build: ${(wanted.length === 0 ? TARGETS : wanted).join(', ')} done (dist/lucie.mjs, dist/app)`);
