// Identities that were never used are deleted once their retention period is over; anyone who
// played, took a seat or created a race is kept.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { api, createPlayer, createRace, ManualClock, TEST_DAILY_SECRET } from './helpers.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('pruning unused identities', () => {
  it('deletes identities unused for the retention period and keeps every one that did something', async () => {
    const clock = new ManualClock();
    app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, countdownMs: 0, clock, rateLimits: false, dailySecret: TEST_DAILY_SECRET, pruning: { retentionMs: 30 * DAY, intervalMs: HOUR },
      // The lobby stays open and seated: what keeps its racers is their seat and their race.
      lifecycle: { graceMs: 90 * DAY, lobbyLimitMs: 90 * DAY },
    });
    await app.ready();
    const idle = await createPlayer(app, 'Idle');
    const player = await createPlayer(app, 'Player');
    const creator = await createPlayer(app, 'Creator');
    const joiner = await createPlayer(app, 'Joiner');
    expect((await api(app, 'POST', '/api/daily/start', player)).status).toBe(201);
    const { code } = await createRace(app, creator, { seats: 3 });
    expect((await api(app, 'POST', `/api/races/${code}/join`, joiner)).status).toBe(200);
    clock.advance(29 * DAY);
    const newcomer = await createPlayer(app, 'Newcomer');
    const alive = async () => {
      const names: string[] = [];
      for (const someone of [idle, player, creator, joiner, newcomer]) if ((await api(app!, 'GET', '/api/me', someone)).status === 200) names.push(someone.name);
      return names;
    };
    expect(await alive()).toEqual(['Idle', 'Player', 'Creator', 'Joiner', 'Newcomer']);

    clock.advance(DAY + HOUR);
    expect(await alive()).toEqual(['Player', 'Creator', 'Joiner', 'Newcomer']);
    const refused = await api(app, 'GET', '/api/me', idle);
    expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized' } });

    // The newcomer's own period runs from their creation.
    clock.advance(29 * DAY);
    expect(await alive()).toEqual(['Player', 'Creator', 'Joiner']);
  });
});
