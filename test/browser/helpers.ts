// Browser-test plumbing: the built client served by a real server process, Debian's Chromium
// through playwright-core, and a reader that turns the board's DOM back into engine cards.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { chromium, type Browser as ChromiumBrowser, type BrowserContext, type Page } from 'playwright-core';
import { cardName, DECK, type Card } from '../../shared/index.js';
import { DB_FILE } from '../../server/db/index.js';
import { TEST_CLIENT_DIR } from './client-build.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let shots: string | undefined;
/** This run's folder for screenshots and downloads (test/shots.ts makes one per run; a file run without it gets its own). */
export function shotsDir(): string {
  shots ??= process.env.LUCIE_SHOTS ?? mkdtempSync(join(tmpdir(), 'lucie-shots-'));
  mkdirSync(shots, { recursive: true });
  return shots;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  base: string;
  /** POSTs `body` as JSON to `path` (with a player's token), for a test's set-up: an answer that is not 2xx throws. */
  post<T>(path: string, body: unknown, token?: string): Promise<T>;
  /** Deals race `code` from `seed` when it starts, for a test that needs one known deal (race seeds are random). */
  setRaceSeed(code: string, seed: string): void;
  /** Freezes the server process (SIGSTOP): connections are accepted, nothing is answered; `resume` thaws it. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/**
 * `server/main.ts` run from its sources through tsx (the code under test, no server build to
 * wait for; `npm start`'s compiled server has its own test), serving TEST_CLIENT_DIR on a free
 * port (or `port`, to restart on the same origin) with a fresh data directory; `env` overrides
 * its settings (a short grace period).
 */
export async function startServer(env: Readonly<Record<string, string>> = {}, port?: number): Promise<RunningServer> {
  port ??= await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-browser-data-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    // Every browser of a test shares 127.0.0.1: the per-address limits (tested in test/server) would refuse scripted players.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LUCIE_PARENT_PID: String(process.pid), DATA_DIR: dataDir, CLIENT_DIR: TEST_CLIENT_DIR, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    async post<T>(path: string, body: unknown, token?: string): Promise<T> {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    setRaceSeed(code, seed) {
      // The server reads a race from its database when it starts it: a second connection may change it before.
      const db = new Database(join(dataDir, DB_FILE));
      try {
        db.prepare('update races set seed = ? where code = ?').run(seed, code);
      } finally {
        db.close();
      }
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
    async stop() {
      child.kill('SIGCONT'); // a paused server could not exit
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface BrowserOptions {
  hasTouch?: boolean;
  isMobile?: boolean;
  /** The browser's language (`navigator.languages`). */
  locale?: string;
  serviceWorkers?: 'allow' | 'block';
  /**
   * A Chromium of its own on a profile on disk, for what an incognito context cannot do
   * (Chromium installs no app from one); otherwise a context of this worker's shared Chromium.
   */
  ownProfile?: boolean;
}

// The flags Debian's build needs headless, and quiet: no first-run, sync or update traffic.
const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

let shared: Promise<ChromiumBrowser> | undefined;
/** One Chromium for every file of this worker (launching one costs a second or more), launched again if it went away. */
async function sharedChromium(): Promise<ChromiumBrowser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = chromium.launch(CHROMIUM);
  return shared;
}

/**
 * A visitor with a fresh profile (their own localStorage, so their own player) and one tab, in a
 * window of `viewport`: a context of the shared Chromium unless `ownProfile` asks for a browser.
 */
export async function openBrowser(viewport: { width: number; height: number }, { ownProfile, ...options }: BrowserOptions = {}): Promise<Browser> {
  let context: BrowserContext;
  let profile: string | undefined;
  if (ownProfile) {
    profile = mkdtempSync(join(tmpdir(), 'lucie-browser-profile-'));
    context = await chromium.launchPersistentContext(profile, { ...CHROMIUM, viewport, ...options });
  } else {
    context = await (await sharedChromium()).newContext({ viewport, ...options });
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  return {
    context,
    page,
    async close() {
      await context.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A screenshot once every animation has landed, saved as NAME.png in this run's folder. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await page.screenshot({ path: join(shotsDir(), `${name}.png`), fullPage });
}

const CARD_BY_NAME = new Map<string, Card>(DECK.map((card) => [cardName(card), card]));

/** The fans as the board shows them, bottom card first, read from the cards' accessible names. */
export async function readFans(page: Page, board: string): Promise<Card[][]> {
  const names = await page
    .getByRole('region', { name: board })
    .locator('ol.fans > li')
    .evaluateAll((fans) => fans.map((fan) => [...fan.querySelectorAll('.card')].map((card) => card.getAttribute('aria-label') ?? '')));
  return names.map((fan) =>
    fan.map((name) => {
      const card = CARD_BY_NAME.get(name);
      if (card === undefined) throw new Error(`"${name}" is not a card name`);
      return card;
    }),
  );
}

/** Stores the client's settings (`lucie.settings`) for `base`'s origin; they apply from the next page load. */
export async function useSettings(page: Page, base: string, settings: Record<string, unknown>): Promise<void> {
  if (!page.url().startsWith(base)) await page.goto(`${base}/`);
  // The app mounts after its language's catalogue has loaded, later than the page's load event, and
  // stores its settings as it mounts: written before that, these would be overwritten.
  await page.waitForFunction(() => (document.getElementById('app')?.childElementCount ?? 0) > 0);
  await page.evaluate((text) => localStorage.setItem('lucie.settings', text), JSON.stringify(settings));
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page: names, contrast, target sizes and the rest of WCAG 2.2 AA. It is
 * evaluated through the DevTools protocol, which the page's strict CSP (no inline script) allows.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.slice(0, 5).map(({ target, failureSummary }) => ({ target, failureSummary })) }));
  });
}
