// Lucie installs as an app: Chromium finds nothing missing (a web app manifest with its icons, a
// service worker controlling the page), and the server sends the worker, the manifest and the
// icons with the headers that make this work: the worker revalidated on every visit (so a deploy
// is seen at once), in the site's root scope, under the same Content-Security-Policy as the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  // A profile on disk: Chromium installs nothing from an incognito context.
  browser = await openBrowser({ width: 390, height: 844 }, { ownProfile: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe('installing Lucie', () => {
  it('serves the worker from the root, revalidated, as JavaScript under the CSP', async () => {
    const answer = await fetch(`${server.base}/sw.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const source = await answer.text();
    expect(source).toContain('/index.html');
  });

  it('serves a manifest whose icons exist at the sizes it declares', async () => {
    const answer = await fetch(`${server.base}/manifest.webmanifest`);
    expect(answer.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as { name: string; start_url: string; display: string; icons: { src: string; sizes: string; type: string }[] };
    expect(manifest).toMatchObject({ short_name: 'Lucie', start_url: '/', display: 'standalone' });
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512', '512x512']);
    for (const icon of pngs) {
      const file = await fetch(`${server.base}${icon.src}`);
      expect(file.headers.get('content-type'), icon.src).toBe('image/png');
      expect(pngSize(Buffer.from(await file.arrayBuffer())), icon.src).toBe(icon.sizes);
    }
    expect((await fetch(`${server.base}/icon.svg`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('is installable in Chromium once the worker controls the page', async () => {
    const { page, context } = browser;
    await page.goto(`${server.base}/`);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000 }).toBe(`${server.base}/sw.js`);
    const session = await context.newCDPSession(page);
    const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((error) => error.errorId)).toEqual([]);
    const { url, errors } = (await session.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    expect(url).toBe(`${server.base}/manifest.webmanifest`);
    expect(errors).toEqual([]);
    // The check does see what is missing: a document of the same origin with no manifest fails it.
    await page.goto(`${server.base}/api/health`);
    const bare = (await session.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(bare.installabilityErrors.map((error) => error.errorId)).toContain('no-manifest');
  });
});
