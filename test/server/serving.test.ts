// How the built client goes out: hashed assets precompressed and cached for good, index.html
// revalidated, and security headers (a strict CSP among them) on every answer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';

const SCRIPT = 'console.log("the board");'.repeat(50);
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lucie-serving-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Lucie</title><script type="module" src="/assets/index-BneJyTNs.js"></script>');
  const asset = join(dir, 'assets', 'index-BneJyTNs.js');
  writeFileSync(asset, SCRIPT);
  writeFileSync(`${asset}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${asset}.gz`, gzipSync(SCRIPT));
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  // The build writes a copy of index.html per language and page, naming its code and words too
  // (scripts/page-preload-plugin.ts): here, practice's only, in English and French.
  for (const locale of ['en', 'fr']) {
    mkdirSync(join(dir, 'pages', locale), { recursive: true });
    writeFileSync(join(dir, 'pages', locale, 'practice.html'), `<!doctype html><title>Lucie</title><link rel="modulepreload" href="/assets/practice-${locale}-Iw0BM3zm.js">`);
  }
  app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: dir, rateLimits: false });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('serving the client', () => {
  it('sends a hashed asset precompressed, brotli first, gzip next, as is last, always cached as immutable', async () => {
    const brotli = await get('/assets/index-BneJyTNs.js', 'gzip, deflate, br');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' });
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/index-BneJyTNs.js', 'gzip');
    expect(gzip.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-BneJyTNs.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect([plain.body, plain.headers['cache-control']]).toEqual([SCRIPT, 'public, max-age=31536000, immutable']);
  });

  it('makes browsers revalidate index.html (also as the single-page fallback) and files without a hash', async () => {
    for (const url of ['/', '/index.html', '/race/ABCDEF', '/robots.txt']) {
      const answer = await get(url, 'br');
      expect([url, answer.statusCode, answer.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
    }
  });

  it('answers the client’s pages with 200 and any other path with the app’s page and a 404', async () => {
    const pages = ['/', '/race/ABCDEF', '/r/abcdef', '/race/ABCDEF/replay', '/series/ABCDEF', '/daily', '/daily/2026-12-01', '/game/12', '/player/3', '/history', '/practice', '/replay'];
    for (const url of pages) expect([url, (await get(url)).statusCode]).toEqual([url, 200]);
    for (const url of ['/nothing', '/race', '/daily/yesterday', '/game/0', '/game/12/extra', '/assets/gone-12345678.js', '/favicon.ico']) {
      const answer = await get(url);
      expect([url, answer.statusCode, answer.headers['content-type']]).toEqual([url, 404, 'text/html; charset=utf-8']);
      expect(answer.body).toContain('<title>Lucie</title>');
    }
    expect((await app.inject({ method: 'HEAD', url: '/nothing' })).statusCode).toBe(404);
  });

  it("answers a page with the build's copy of index.html for it in the browser's language, when there is one", async () => {
    for (const url of ['/practice', '/practice/', '/practice?seed=abc']) {
      const answer = await get(url, 'br');
      expect([url, answer.statusCode, answer.headers['cache-control'], answer.body]).toEqual([url, 200, 'no-cache', expect.stringContaining('practice-en-')]);
      expect(answer.headers.vary).toMatch(/accept-language/);
    }
    const inLanguage = async (header: string): Promise<string> => (await app.inject({ url: '/practice', headers: { 'accept-language': header } })).body;
    expect(await inLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toContain('practice-fr-');
    expect(await inLanguage('de-DE,de;q=0.9')).toContain('practice-en-');
    expect(await inLanguage('de, en;q=0.4, fr;q=0.5')).toContain('practice-fr-');
    expect(await inLanguage('fr;q=0, en')).toContain('practice-en-');
    // A language with no copies, a page with none: index.html.
    expect(await inLanguage('it')).toContain('practice-en-');
    for (const url of ['/', '/daily', '/nothing']) expect([url, (await get(url)).body]).toEqual([url, expect.not.stringContaining('modulepreload')]);
  });

  it('compresses answers that benefit (brotli, else gzip) and leaves small ones as they are', async () => {
    const plain = await get('/api/openapi.json', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(50_000);
    const brotli = await get('/api/openapi.json', 'gzip, deflate, br');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    const gzip = await get('/api/openapi.json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // Under the threshold (1 KB): not worth it.
    const health = await get('/api/health', 'br');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toMatchObject({ status: 'ok' });
  });

  it('sets security headers on pages and API answers alike, with a CSP that allows no inline code and no eval', async () => {
    for (const url of ['/', '/race/ABCDEF', '/api/health', '/api/nothing']) {
      const { headers } = await get(url);
      expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-(eval|inline)|\*/);
    }
  });
});
