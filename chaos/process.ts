// A real server process for the chaos probes: spawned with tsx on a free loopback port, killed by
// its own pid only (and gone by itself if the runner dies first, a timeout's kill included), its
// database read through a separate read-only connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../server/db/index.js';

const root = new URL('..', import.meta.url).pathname;

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  wsBase: string;
  port: number;
  output: () => string;
  /** Whether the process ended without being told to (a crash). */
  crashed: () => boolean;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LUCIE_PARENT_PID: String(process.pid), DATA_DIR: dataDir, COUNTDOWN_MS: '0', LOG_LEVEL: 'info', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let told = false;
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), START_TIMEOUT_MS);
    const check = () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then(() => reject(new Error(`server exited at start:\n${output}`)));
  });
  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    wsBase: `ws://127.0.0.1:${port}`,
    output: () => output,
    crashed: () => !told && (child.exitCode !== null || child.signalCode !== null),
    async kill(signal) {
      told = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Every row of every table, to compare a database before and after a probe. */
export function dumpDatabase(dataDir: string): string {
  const db = new Database(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name").all() as { name: string }[];
    // When a racer's last socket closed (race_entries.gone_since) follows connections, not input: left out.
    const rows = (name: string) => (db.prepare(`select * from "${name}" order by 1, 2`).all() as Record<string, unknown>[]).map(({ gone_since: _gone, ...row }) => row);
    return JSON.stringify(tables.map(({ name }) => [name, rows(name)]));
  } finally {
    db.close();
  }
}

/** The stored actions of the given games as "gameId:index:action". */
export function storedActions(dataDir: string): Set<string> {
  const db = new Database(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('select game_id as gameId, action_index as idx, action from game_actions').all() as { gameId: number; idx: number; action: string }[];
    return new Set(rows.map((row) => `${row.gameId}:${row.idx}:${row.action}`));
  } finally {
    db.close();
  }
}
