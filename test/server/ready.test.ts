import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';

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
    expect(answer.json()).toEqual({ ready: false, closing: false, database: 'unreachable' });
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
    expect(answer.json()).toEqual({ ready: false, closing: true, database: 'ok' });
    app.games.closing = false;
    await app.close();
  });
});
