// Real server processes for the scale-out tests and the scale bench: `node --import tsx
// server/main.ts`, each on its own free port, sharing whatever storage the caller names
// (DATABASE_URL, REDIS_URL, or a DATA_DIR for SQLite). Each is ready once /api/ready says so; a test can kill one (-9 or TERM) and start more. Whatever the test does,
// `close()` ends every process still running, and a child whose parent dies leaves by itself
// (LUCIE_PARENT_PID, main.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 15_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface InstanceOptions {
  /** Names the instance in errors. */
  name: string;
  /** The server's environment on top of this process's: DATABASE_URL, REDIS_URL, DATA_DIR, COUNTDOWN_MS, ... */
  env: Record<string, string>;
}

/** A port nothing listens on now (the system's pick, released at once for the server to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One server process. */
export class Instance {
  /** http://127.0.0.1:PORT */
  readonly base: string;
  /** ws://127.0.0.1:PORT */
  readonly wsBase: string;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
    private readonly readLog: () => string,
    private readonly exit: Promise<Exit>,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.wsBase = `ws://127.0.0.1:${port}`;
  }

  /** Starts the process on a free port and waits until it reports itself ready. */
  static async start({ name, env }: InstanceOptions): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', LUCIE_PARENT_PID: String(process.pid), ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
    const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const instance = new Instance(name, child, port, () => log, exit);
    try {
      await instance.ready();
    } catch (error) {
      await instance.kill();
      throw error;
    }
    return instance;
  }

  /** An HTTP request as `player` (a bearer token), answered as status and parsed JSON. */
  async api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, player?: { token: string }, body?: object): Promise<{ status: number; body: any }> {
    const response = await fetch(this.base + path, {
      method,
      headers: { ...(player && { authorization: `Bearer ${player.token}` }), ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A new player made on this instance, with its token. */
  async newPlayer(name: string): Promise<{ id: number; name: string; token: string }> {
    const { status, body } = await this.api('POST', '/api/players', undefined, { name });
    if (status !== 201) throw new Error(`${this.name}: cannot create a player: ${JSON.stringify(body)}`);
    return { ...body.player, token: body.token };
  }

  /** Everything the process wrote so far (pino's JSON lines). */
  output(): string {
    return this.readLog();
  }

  /** Log lines at error level or worse. */
  errors(): string[] {
    return this.output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until /api/ready answers 200 (the database and Redis answer). */
  async ready(ms = START_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + ms;
    let last = '';
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited while waiting for readiness:\n${this.output()}`);
      try {
        const response = await fetch(`${this.base}/api/ready`);
        if (response.ok) return;
        last = await response.text();
      } catch (error) {
        last = String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${this.name} not ready within ${ms / 1000} s (${last})`);
  }

  /** Sends `signal` (default SIGKILL) and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.exited(EXIT_TIMEOUT_MS);
  }

  /** How the process ended, once it has. */
  async exited(ms = EXIT_TIMEOUT_MS): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.name} still running after ${ms / 1000} s`)), ms);
    });
    try {
      return await Promise.race([this.exit, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A set of instances on shared storage, started together; `close()` ends them all. */
export class Cluster {
  readonly instances: Instance[] = [];
  private started = 0;

  constructor(private readonly env: Record<string, string>) {}

  /** Starts `count` more instances at once (several instances migrating together is part of the test). */
  async start(count: number, env: Record<string, string> = {}): Promise<Instance[]> {
    const names = Array.from({ length: count }, () => `instance ${this.started++}`);
    const settled = await Promise.allSettled(names.map((name) => Instance.start({ name, env: { ...this.env, ...env } })));
    const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    this.instances.push(...started);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return started;
  }

  /** Error-level log lines of every instance, named. */
  errors(): string[] {
    return this.instances.flatMap((instance) => instance.errors().map((line) => `${instance.name}: ${line}`));
  }

  /** Kills every instance still running (SIGKILL) and waits for them. */
  async close(): Promise<void> {
    await Promise.all(this.instances.map((instance) => instance.kill('SIGKILL')));
  }
}
