// The phone benchmark (issue 23): how soon the practice board is playable on a throttled phone
// profile (Lighthouse's mobile one: 4x CPU slowdown, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s
// up), set through the DevTools protocol (Emulation.setCPUThrottlingRate,
// Network.emulateNetworkConditions), on a cold first visit (a new profile) and on a repeat visit
// (a new tab of the same profile, after the first visit's service worker took over). Baseline in
// the same run: the repeat visit with service workers blocked (the HTTP cache alone). Figures,
// not a pass/fail: the targets are 1.2 s cold and 0.5 s repeat. Rounds: PHONE_ROUNDS (default 5).
// "Playable" is the moment the page first has all 52 cards of the deal on its board, read as
// performance.now() (milliseconds since the navigation started) on each animation frame.
// A/B: PHONE_BASELINE=DIR (another build of the client, e.g. the previous commit's) is served by a
// second server and measured in the same rounds, interleaved, and the ratios printed against it.
// The floor, in the same rounds: a static page of one document and one small module that draws
// the 52 cards and nothing else, the module cached for good (so a repeat visit asks the network
// for the document alone, as Lucie's worker does): what this browser, on this machine and
// profile, takes for any page at all.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser, ROOT, startServer } from '../test/browser/helpers.js';
import { format, percentile } from './measure.js';

const PROFILE = { cpu: 4, latency: 150, down: 1_600_000 / 8, up: 750_000 / 8 };
const PATH = '/practice?seed=abc&variant=strict';

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  await session.send('Network.enable');
  await session.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
  await session.send('Network.emulateNetworkConditions', { offline: false, latency: PROFILE.latency, downloadThroughput: PROFILE.down, uploadThroughput: PROFILE.up });
}

/** Serves the floor's page at every path but its module's, and the module cached for good. */
async function startFloor(): Promise<{ base: string; stop(): Promise<void> }> {
  const module = `const board = document.createElement('section');
board.setAttribute('aria-label', 'Practice board');
const fans = board.appendChild(document.createElement('ol'));
fans.className = 'fans';
for (let i = 0; i < 52; i++) fans.appendChild(document.createElement('li')).className = 'card';
document.body.append(board);`;
  const page = '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/floor-1.js"></script></head><body></body></html>';
  const server = createServer((request, response) => {
    const script = request.url === '/floor-1.js';
    response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html', 'cache-control': script ? 'public, max-age=31536000, immutable' : 'no-cache' });
    response.end(script ? module : page);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise((closed) => server.close(() => closed())) };
}

interface Visit {
  /** Milliseconds from the navigation's start to the board playable. */
  playable: number;
  /** When the page's own response began (ms): at least the latency when the network was asked. */
  documentResponse: number;
  /** Bytes the page's resources weighed on the wire (0 for those the cache or the worker gave). */
  transferred: number;
}

async function visit(page: Page, base: string): Promise<Visit> {
  await page.goto(`${base}${PATH}`, { waitUntil: 'commit' });
  const playable = await page.waitForFunction(
    () => (document.querySelector('[aria-label="Practice board"]')?.querySelectorAll('ol.fans .card').length === 52 ? performance.now() : false),
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return page.evaluate((ms) => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const transferred = [navigation, ...resources].reduce((sum, entry) => sum + entry.transferSize, 0);
    return { playable: ms, documentResponse: navigation.responseStart, transferred };
  }, (await playable.jsonValue()) as number);
}

/** One cold visit in a new profile, then a repeat visit in a new tab once the profile's service worker (if allowed) controls pages. */
async function round(base: string, serviceWorkers: boolean): Promise<{ cold: Visit; repeat: Visit }> {
  // A profile on disk, as a phone's: an incognito context keeps its HTTP cache in memory and is not what a repeat visit meets.
  const browser = await openBrowser({ width: 390, height: 844 }, { hasTouch: true, serviceWorkers: serviceWorkers ? 'allow' : 'block', ownProfile: true });
  try {
    await throttle(browser.context, browser.page);
    const cold = await visit(browser.page, base);
    if (serviceWorkers) await browser.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    else await browser.page.waitForLoadState('networkidle');
    const tab = await browser.context.newPage();
    await throttle(browser.context, tab);
    const repeat = await visit(tab, base);
    return { cold, repeat };
  } finally {
    await browser.close();
  }
}

function line(label: string, visits: Visit[]): string {
  const median = (pick: (visit: Visit) => number): number => percentile(visits.map(pick), 0.5);
  return `${label.padEnd(34)} playable ${format(median((v) => v.playable), 0).padStart(5)} ms (min ${format(Math.min(...visits.map((v) => v.playable)), 0)}, max ${format(Math.max(...visits.map((v) => v.playable)), 0)}), document response ${format(median((v) => v.documentResponse), 0).padStart(4)} ms, ${format(median((v) => v.transferred) / 1000, 1)} kB on the wire`;
}

export async function benchPhone(): Promise<void> {
  const rounds = Number(process.env.PHONE_ROUNDS) > 0 ? Number(process.env.PHONE_ROUNDS) : 5;
  // The client as `npm start` serves it: built, precompressed.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'client'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('phone: the client build failed');
  const server = await startServer({ CLIENT_DIR: join(ROOT, 'dist', 'client') });
  const baselineDir = process.env.PHONE_BASELINE;
  const baseline = baselineDir ? await startServer({ CLIENT_DIR: baselineDir }) : undefined;
  const floor = await startFloor();
  try {
    const withWorker: { cold: Visit; repeat: Visit }[] = [];
    const withoutWorker: { cold: Visit; repeat: Visit }[] = [];
    const baselineRounds: { cold: Visit; repeat: Visit }[] = [];
    const floorRounds: { cold: Visit; repeat: Visit }[] = [];
    for (let i = 0; i < rounds; i++) {
      withWorker.push(await round(server.base, true));
      if (baseline) baselineRounds.push(await round(baseline.base, true));
      withoutWorker.push(await round(server.base, false));
      floorRounds.push(await round(floor.base, false));
    }
    const median = (visits: Visit[]): number => percentile(visits.map((v) => v.playable), 0.5);
    console.log(`phone: practice board on ${PROFILE.cpu}x CPU, ${PROFILE.latency} ms, ${(PROFILE.down * 8) / 1e6} Mbit/s; median of ${rounds} rounds (targets: cold 1200 ms, repeat 500 ms)`);
    console.log(line('cold first visit', withWorker.map((r) => r.cold)));
    console.log(line('repeat visit, service worker', withWorker.map((r) => r.repeat)));
    console.log(line('repeat visit, HTTP cache only', withoutWorker.map((r) => r.repeat)));
    console.log(line('floor: a static page, cold', floorRounds.map((r) => r.cold)));
    console.log(line('floor: a static page, repeat', floorRounds.map((r) => r.repeat)));
    if (baseline) {
      console.log(line('baseline: cold first visit', baselineRounds.map((r) => r.cold)));
      console.log(line('baseline: repeat, service worker', baselineRounds.map((r) => r.repeat)));
      console.log(
        `phone: against the baseline (${baselineDir}), cold ${format(median(withWorker.map((r) => r.cold)) / median(baselineRounds.map((r) => r.cold)))}x, repeat ${format(median(withWorker.map((r) => r.repeat)) / median(baselineRounds.map((r) => r.repeat)))}x`,
      );
    }
    const ratio = median(withWorker.map((r) => r.repeat)) / median(withoutWorker.map((r) => r.repeat));
    const cold = median(withWorker.map((r) => r.cold));
    const repeat = median(withWorker.map((r) => r.repeat));
    console.log(
      `phone: cold ${format(cold, 0)} ms (${format(cold / median(floorRounds.map((r) => r.cold)))}x the floor), repeat ${format(repeat, 0)} ms (${format(repeat / median(floorRounds.map((r) => r.repeat)))}x the floor, ${format(ratio)}x the HTTP cache alone)`,
    );
  } finally {
    await floor.stop();
    await baseline?.stop();
    await server.stop();
  }
}
