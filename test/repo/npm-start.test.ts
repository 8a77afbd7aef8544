// `npm start` as a supervisor runs it: it builds, then the server is the very process npm
// started (no wrapper between them), it serves the build's precompressed assets, and after a
// kill -9 of npm or of the server nothing is left running or holding the port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../browser/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];
const dirs: string[] = [];

/** Every live process whose parent is `pid`, with its command line. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) === pid && state !== 'Z') {
        found.push({ pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

async function until(what: string, condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const portFree = async (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** `npm start` on a free port and a fresh data folder; resolves once the server answers, with its pid. */
async function npmStart(): Promise<{ npm: ChildProcess; server: number; base: string; port: number; log: () => string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-start-'));
  dirs.push(dataDir);
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(npm);
  let log = '';
  npm.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  await until('the server answers /api/health', () => fetch(`${base}/api/health`).then((answer) => answer.ok, () => false), 120_000);
  const children = childrenOf(npm.pid!);
  // The shell of the script replaced itself with the server (exec): one child, and it is node.
  expect(children.map((child) => child.command)).toEqual(['node dist/app/server/main.js']);
  return { npm, server: children[0]!.pid, base, port, log: () => log };
}

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('builds, runs the compiled server as npm’s own child, serves precompressed immutable assets, and dies with npm on kill -9', async () => {
    const { npm, server, base, port, log } = await npmStart();
    const page = await fetch(`${base}/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect([asset.status, asset.headers.get('content-encoding'), asset.headers.get('cache-control')]).toEqual([
      200,
      'br',
      'public, max-age=31536000, immutable',
    ]);

    // The compiled server finds every file it needs (worker scripts, migrations): no error logged.
    expect(log()).not.toMatch(/"level":(50|60)/);

    process.kill(npm.pid!, 'SIGKILL');
    await until('the server exits after npm was killed', () => !alive(server), 10_000);
    await until('the port is free again', () => portFree(port), 5_000);
  });

  it('leaves nothing behind when the server itself is killed: npm exits with it', async () => {
    const { npm, server, port } = await npmStart();
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    process.kill(server, 'SIGKILL');
    expect(await exited).not.toBe(0);
    expect(alive(server)).toBe(false);
    expect(await portFree(port)).toBe(true);
  });

  it('stops cleanly on SIGTERM sent to npm, the way a supervisor stops it', async () => {
    const { npm, server } = await npmStart();
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    process.kill(npm.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    await until('the server exits', () => !alive(server), 10_000);
  });
});
