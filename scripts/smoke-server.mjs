// Runs the compiled server (dist/app, from scripts/build.mjs) the way the Docker image
// does, `node server/main.js`, on a free port and a fresh data folder (or the PostgreSQL and Redis
// of DATABASE_URL and REDIS_URL when set): it must answer its health check and readiness check,
// store a player, serve the client and stop cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = fileURLToPath(new URL('../dist/app', import.meta.url));
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'lucie-smoke-'));
const child = spawn(process.execPath, ['server/main.js'], {
  cwd: app,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

function fail(message) {
  console.error(`smoke: ${message}`);
  child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}

const base = `http://127.0.0.1:${port}`;
let healthy = false;
for (let attempt = 0; attempt < 100 && !healthy; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  healthy = await fetch(`${base}/api/health`).then((response) => response.ok, () => false);
}
if (!healthy) fail('no healthy answer from /api/health within 10 s');
const ready = await fetch(`${base}/api/ready`);
if (!ready.ok) fail(`/api/ready answered ${ready.status}: ${await ready.text()}`);
const created = await fetch(`${base}/api/players`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Smoke' }) });
if (created.status !== 201) fail(`POST /api/players answered ${created.status}: ${await created.text()}`);
const { token } = await created.json();
const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
if (!me.ok) fail(`GET /api/me answered ${me.status} for the player just stored`);
const page = await fetch(`${base}/`);
if (!page.ok || !(await page.text()).includes('<div id="app"')) fail(`GET / answered ${page.status} without the client`);

child.kill('SIGTERM');
const timeout = setTimeout(() => fail('no exit within 15 s of SIGTERM'), 15_000);
const { code, signal } = await exited;
clearTimeout(timeout);
rmSync(dataDir, { recursive: true, force: true });
if (code !== 0) fail(`exit code ${code} signal ${signal} after SIGTERM`);
console.log('smoke: the compiled server started, answered and stopped cleanly');
