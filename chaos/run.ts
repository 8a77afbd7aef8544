// `npm run chaos [-- --short] [-- --seed N]`: the reliability probes against a real server process
// on loopback, each bounded in count and time, one summary line each. Exit code 1 if any probe
// saw a crash, an unanswered message, a state change from illegal input or a lost acknowledged move.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './process.js';
import { Random } from './random.js';
import { diskFullProbe } from './disk-full.js';
import { httpFuzz } from './http-fuzz.js';
import { killProbe } from './kill.js';
import { lockedProbe } from './locked.js';
import { wsFuzz } from './ws-fuzz.js';

const args = process.argv.slice(2);
const short = args.includes('--short');
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : Date.now() % 1_000_000;
const random = new Random(seed);
const sizes = short ? { wsMessages: 5_000, httpRounds: 1, kills: 2 } : { wsMessages: 100_000, httpRounds: 2, kills: 6 };

console.log(`chaos (${short ? 'short' : 'full'}, seed ${seed})`);
let failed = false;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-chaos-'));
  dirs.push(dir);
  return dir;
};

/** One probe on a fresh server: its summary, plus whether the server crashed meanwhile. */
async function probe(name: string, run: (dataDir: string) => Promise<string>): Promise<void> {
  const started = Date.now();
  let line: string;
  try {
    line = await run(tempDir());
  } catch (error) {
    line = `FAILED: ${(error as Error).stack ?? error}`;
  }
  const bad = /FAILED|[1-9]\d* (unanswered|internal|state changes|crashes|lost|5xx)/.test(line);
  failed ||= bad;
  console.log(`${bad ? '✗' : '✓'} ${name}: ${line} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

try {
  await probe('websocket fuzz', async (dataDir) => {
    const server = await startServer(dataDir);
    try {
      const summary = await wsFuzz(server, dataDir, random, sizes.wsMessages);
      return `${summary}, ${server.crashed() ? 1 : 0} crashes`;
    } finally {
      await server.kill('SIGTERM');
    }
  });
  await probe('HTTP fuzz', async (dataDir) => {
    const server = await startServer(dataDir);
    try {
      const summary = await httpFuzz(server, dataDir, random, sizes.httpRounds);
      return `${summary}, ${server.crashed() ? 1 : 0} crashes`;
    } finally {
      await server.kill('SIGTERM');
    }
  });
  await probe('kill -9', (dataDir) => killProbe(dataDir, random, sizes.kills));
  await probe('locked database', lockedProbe);
  await probe('disk full', diskFullProbe);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
