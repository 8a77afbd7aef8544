import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { relay } from './relay.js';

const appWithoutClient = () => buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null });

describe('/api/ready', () => {
  it('fails, saying why, when the database stops answering', async () => {
    const app = await appWithoutClient();
    await app.ready();
    const database = app.db.$client;
    // Every statement fails, as on a database that is gone.
    const prepare = database.prepare.bind(database);
    database.prepare = (() => {
      throw new Error('database is gone');
    }) as typeof database.prepare;
    const answer = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ ready: false, closing: false, database: 'unreachable', redis: 'off' });
    database.prepare = prepare;
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    await app.close();
  });

  it('fails while the instance shuts down, so the balancer sends players elsewhere', async () => {
    const app = await appWithoutClient();
    await app.ready();
    app.games.closing = true;
    const answer = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ ready: false, closing: true, database: 'ok', redis: 'off' });
    app.games.closing = false;
    await app.close();
  });

  it('fails while Redis does not answer, and passes again once it is back', async () => {
    const url = process.env.TEST_REDIS_URL;
    if (!url) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
    const link = await relay(new URL(url));
    const app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, redisUrl: link.url });
    await app.ready();
    const ready = async () => (await app.inject({ method: 'GET', url: '/api/ready' })).json();
    expect(await ready()).toEqual({ ready: true, closing: false, database: 'ok', redis: 'ok' });
    await link.cut();
    expect(await ready()).toEqual({ ready: false, closing: false, database: 'ok', redis: 'unreachable' });
    await link.restore();
    // ioredis reconnects on its own schedule: wait for it, not for a fixed time.
    while ((await ready()).ready !== true) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await ready()).toEqual({ ready: true, closing: false, database: 'ok', redis: 'ok' });
    await app.close();
    await link.close();
  });
});
