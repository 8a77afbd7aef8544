import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, Client, createPlayer, startServer, type TestServer } from './helpers.js';

let server: TestServer;
afterEach(async () => server.app.close());

const tight = { max: 3, windowMs: 60_000 };

describe('per-address rate limits', () => {
  it('answers identity creation past its limit with 429 in the error shape and retry-after', async () => {
    server = await startServer({ rateLimits: { createPlayer: tight } });
    const create = (remoteAddress: string) => server.app.inject({ method: 'POST', url: '/api/players', payload: { name: 'x' }, remoteAddress });
    for (let i = 0; i < 3; i++) expect((await create('10.0.0.1')).statusCode).toBe(201);
    const refused = await create('10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ statusCode: 429, code: 'rate-limited', message: expect.stringContaining('at most 3'), params: { limit: 3, seconds: 60 } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected, and nothing was created by the refused request.
    expect((await create('10.0.0.2')).statusCode).toBe(201);
    expect(server.app.db.$client.prepare('select count(*) as n from players').get()).toEqual({ n: 4 });
  });

  it('limits race creation and daily starts', async () => {
    server = await startServer({ rateLimits: { createRace: tight, dailyStart: tight } });
    const ana = await createPlayer(server.app, 'Ana');
    const statuses = async (url: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) seen.push((await api(server.app, 'POST', url, ana, url === '/api/races' ? { seats: 2 } : undefined)).status);
      return seen;
    };
    expect(await statuses('/api/races')).toEqual([201, 201, 201, 429]);
    // The first start creates the day's game, the next ones return it: all count.
    expect(await statuses('/api/daily/start')).toEqual([201, 200, 200, 429]);
  });

  it('caps the websockets open at once per address and frees a place when one closes', async () => {
    server = await startServer({ rateLimits: { socketsPerAddress: 2 } });
    const first = await Client.connect(server.wsBase);
    const second = await Client.connect(server.wsBase);
    const refusal = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${server.wsBase}/ws`);
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('a third socket opened')));
    });
    expect(refusal).toBe(429);
    first.close();
    await first.whenClosed();
    // The server sees the close a moment after the client: retry briefly.
    let third: Client | undefined;
    for (let attempt = 0; attempt < 20 && !third; attempt++) {
      third = await Client.connect(server.wsBase).catch(() => undefined);
      if (!third) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(third).toBeDefined();
    second.close();
    third!.close();
  });
});
