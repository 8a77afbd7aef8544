import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { DB_FILE } from '../../server/db/index.js';
import { api, autoplay, createPlayer, createRace, ManualClock, TEST_DAILY_SECRET, type TestPlayer , now } from './helpers.js';

/**
 * Thousands of rows through every write path, one path at a time (a path whose commits never
 * checkpoint would hide behind the others' checkpoints otherwise), the write-ahead log measured
 * after each. Both checkpoint modes: the worker thread, and SQLite's own inside commits (the
 * fallback when the worker is gone), where an autocommit INSERT … RETURNING read with `.get()`
 * used to grow the log forever.
 */
const WAL_LIMIT_BYTES = 8 * 1024 * 1024;
/** The limit plus what a loaded machine may write before the checkpointer notices. */
const WAL_BOUND_BYTES = 2 * WAL_LIMIT_BYTES;

let app: FastifyInstance | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  app = undefined;
  dir = undefined;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

describe.each(['worker', 'auto'] as const)('the write-ahead log with %s checkpoints', (checkpoints) => {
  it('stays under its bound through every write path', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lucie-wal-'));
    const clock = new ManualClock();
    app = await buildApp({
      dataDir: dir,
      logLevel: 'silent',
      clientDir: null,
      countdownMs: 0,
      clock,
      dailySecret: TEST_DAILY_SECRET,
      storage: { checkpoints, walLimitBytes: WAL_LIMIT_BYTES },
      rateLimits: false,
    });
    await app.ready();
    const wal = join(dir, `${DB_FILE}-wal`);
    const sizes: Record<string, number> = {};
    const measure = async (path: string) => {
      await settle();
      sizes[path] = statSync(wal).size;
    };

    const players: TestPlayer[] = [];
    for (let i = 0; i < 2000; i++) players.push(await createPlayer(app, `p${i}`));
    await measure('players');

    const codes: string[] = [];
    for (let i = 0; i < 100; i++) codes.push((await createRace(app, players[2 * i]!, { seats: 2, timeLimitSeconds: 600 })).code);
    await measure('race creation');
    for (const [i, code] of codes.entries()) await api(app, 'POST', `/api/races/${code}/join`, players[2 * i + 1]);
    await measure('joins');
    for (const [i, code] of codes.entries()) await api(app, 'POST', `/api/races/${code}/start`, players[2 * i]);
    clock.advance(0);
    await measure('starts and deals');

    let moves = 0;
    for (const [i, code] of codes.entries()) {
      const creator = players[2 * i]!;
      moves += (await autoplay(app, creator, now(app.races.gameOf(code, creator.id))!.id)).length;
    }
    expect(moves).toBeGreaterThan(3000);
    await measure('moves');
    for (const [i, code] of codes.entries()) {
      const joiner = players[2 * i + 1]!;
      if (i % 2 === 0) expect(app.games.resign(joiner, now(app.races.gameOf(code, joiner.id))!.id)).toBeUndefined();
    }
    await measure('resignations and standings');
    clock.advance(600_000);
    await measure('time-outs');

    for (const player of players.slice(0, 1000)) expect((await api(app, 'POST', '/api/daily/start', player)).status).toBe(201);
    await measure('daily starts');

    for (const [path, bytes] of Object.entries(sizes)) expect(bytes, `WAL after ${path}`).toBeLessThanOrEqual(WAL_BOUND_BYTES);
  }, 300_000);
});
