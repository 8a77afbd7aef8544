// A new version replaces the old without a stale page: two builds of the client, told apart by a
// mark each writes on the page, deployed one over the other into the directory the server serves
// (the older files gone, and the server restarted, as in a real deploy). A page opened after the deploy runs the new build
// at once; the new service worker takes over and drops the old cache; a page still running the old
// build offers a reload into the new one; offline, the cached page is the new build's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, ROOT, startServer, type Browser, type RunningServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'lucie-update-client-'));
let server: RunningServer;
let browser: Browser;

/** Builds the client into `dir`, marked `mark` (`<html data-build=...>`): the build that ships otherwise. */
async function deploy(mark: string): Promise<void> {
  const mode = process.env.NODE_ENV;
  // Under Vitest's NODE_ENV=test, Vite would compile Svelte's development build.
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: dir, emptyOutDir: true },
      plugins: [
        {
          name: 'test-build-mark',
          transform: (code, id) => (id.endsWith('/client/src/main.ts') ? `${code}\ndocument.documentElement.dataset.build = ${JSON.stringify(mark)};\n` : undefined),
        },
      ],
    });
  } finally {
    process.env.NODE_ENV = mode;
  }
}

// The entry marks its build once it has run, after its top-level await of the language's catalogue: poll for it.
const buildOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.build ?? null);
const shellCaches = (page: Page) => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('lucie-shell-')));
const controller = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

beforeAll(async () => {
  await deploy('1');
  server = await startServer({ CLIENT_DIR: dir });
  browser = await openBrowser({ width: 390, height: 844 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a new version', () => {
  let old: Page;
  let fresh: Page;
  let firstCache: string[] = [];

  it('is installed on the first visit', async () => {
    old = browser.page;
    await old.goto(`${server.base}/practice?seed=abc&variant=strict`);
    await expect.poll(() => controller(old), { timeout: 30_000 }).toBe(`${server.base}/sw.js`);
    await expect.poll(() => buildOf(old)).toBe('1');
    firstCache = await shellCaches(old);
    expect(firstCache).toHaveLength(1);
  });

  it('is what a page opened after the deploy runs, at once', async () => {
    await deploy('2');
    // The server lists the client's files when it starts: a deploy restarts it, on the same origin.
    await server.stop();
    server = await startServer({ CLIENT_DIR: dir }, Number(new URL(server.base).port));
    fresh = await browser.context.newPage();
    await fresh.goto(`${server.base}/practice?seed=abc&variant=strict`);
    await expect.poll(() => buildOf(fresh)).toBe('2');
    await fresh.getByRole('region', { name: 'Practice board' }).waitFor();
  });

  it('takes over with its own cache, and the old cache goes', async () => {
    await expect.poll(() => shellCaches(fresh), { timeout: 30_000 }).toEqual([expect.not.stringMatching(firstCache[0]!)]);
    expect(await fresh.getByTestId('update-notice').count()).toBe(0);
  });

  it('is offered to a page still running the old one, which reloads into it', async () => {
    await expect.poll(() => old.getByTestId('update-notice').textContent()).toContain('A new version of Lucie is ready.');
    await old.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => buildOf(old)).toBe('2');
    await old.getByRole('region', { name: 'Practice board' }).waitFor();
    expect(await old.getByTestId('update-notice').count()).toBe(0);
  });

  it('is the page served offline, never the old one', async () => {
    await server.stop();
    await browser.context.setOffline(true);
    await fresh.reload();
    await expect.poll(() => buildOf(fresh)).toBe('2');
    await fresh.getByRole('region', { name: 'Practice board' }).waitFor();
  });
});
