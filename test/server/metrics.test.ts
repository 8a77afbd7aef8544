// /metrics: Prometheus text for the holder of METRICS_TOKEN, scraped during a race; without the
// token none of its figures; no token configured, no route.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_POOL_RULES } from '../../server/pool/pairing.js';
import { api, Client, createPlayer, createRace, ManualClock, Mirror, play, startServer, type TestServer } from './helpers.js';

const TOKEN = 'metrics-token-for-the-test-0123';
let server: TestServer | undefined;
afterEach(async () => server?.app.close());

/** The value of one sample (`name{labels} value`) in Prometheus text, or undefined. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

const scrape = async (headers: Record<string, string>) => server!.app.inject({ method: 'GET', url: '/metrics', headers });

describe('/metrics', () => {
  it('during a race: as many acks in the histogram and the counter as the players got, refusals by code, sockets, players, races by state', async () => {
    server = await startServer({ metricsToken: TOKEN });
    const { app, wsBase } = server;
    const ana = await createPlayer(app, 'Ana');
    const bob = await createPlayer(app, 'Bob');
    const { code } = await createRace(app, ana, { seats: 2 });
    await api(app, 'POST', `/api/races/${code}/join`, bob);
    await createRace(app, bob, { seats: 3 }); // a lobby beside the running race
    const clients = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob)];
    for (const client of clients) client.send({ type: 'watch', code });
    await api(app, 'POST', `/api/races/${code}/start`, ana);
    // Cy waits alone in the merci pool (on a socket: a waiting player without one is taken out).
    const cy = await createPlayer(app, 'Cy');
    const cyTab = await Client.connect(wsBase, cy);
    expect((await api(app, 'POST', '/api/pool', cy, { variant: 'merci' })).status).toBe(200);
    const mirrors = await Promise.all(clients.map(async (client) => Mirror.of(await client.next('game'))));

    let acks = 0;
    for (let turn = 0; turn < 6; turn++) {
      for (const [seat, client] of clients.entries()) {
        const action = mirrors[seat]!.choose();
        if (!action) continue;
        await play(client, mirrors[seat]!, action);
        acks++;
      }
    }
    // Two refusals: an index already played, and a move that is not legal.
    clients[0]!.send({ type: 'action', gameId: mirrors[0]!.gameId, index: 0, action: 'h' });
    await clients[0]!.next('error');
    clients[0]!.send({ type: 'action', gameId: mirrors[0]!.gameId, index: mirrors[0]!.index, action: 'nonsense' });
    await clients[0]!.next('error');
    const errors = clients[0]!.all('error').map((error) => error.code);

    // The pool's gauges (how many wait, the longest wait) are read with one query per scrape.
    const poolReads = vi.spyOn(app.storage.lobby, 'waitingByVariant');
    const answer = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(answer.statusCode).toBe(200);
    expect(poolReads).toHaveBeenCalledTimes(1);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.body;
    expect(acks).toBeGreaterThan(6);
    expect(sample(text, 'lucie_ack_latency_seconds_count')).toBe(acks);
    expect(sample(text, 'lucie_moves_acknowledged_total')).toBe(acks);
    expect(sample(text, 'lucie_ack_latency_seconds_bucket{le="+Inf"}')).toBe(acks);
    for (const refused of new Set(errors)) expect(sample(text, `lucie_moves_refused_total{code="${refused}"}`)).toBe(errors.filter((code) => code === refused).length);
    expect(errors).toHaveLength(2);
    expect(sample(text, 'lucie_open_sockets')).toBe(3);
    expect(sample(text, 'lucie_players_online')).toBe(3);
    expect(sample(text, 'lucie_pool_waiting{variant="merci"}')).toBe(1);
    expect(sample(text, 'lucie_pool_waiting{variant="strict"}')).toBeUndefined();
    expect(sample(text, 'lucie_pool_longest_wait_seconds{variant="merci"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'lucie_races{state="running"}')).toBe(1);
    expect(sample(text, 'lucie_races{state="lobby"}')).toBe(1);
    expect(sample(text, 'lucie_analysis_queue_length')).toBe(0);
    expect(sample(text, 'lucie_storage_errors_total')).toBeUndefined();
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    for (const client of [...clients, cyTab]) client.close();
  });

  it('without the token, or with another, answers 401 and none of its figures; with no token configured there is no /metrics', async () => {
    server = await startServer({ metricsToken: TOKEN });
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${TOKEN}x` }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const answer = await scrape(headers);
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'unauthorized' });
      expect(answer.body).not.toMatch(/lucie_|nodejs_|process_/);
    }
    await server.app.close();

    server = await startServer();
    const off = await scrape({});
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toMatch(/lucie_|nodejs_/);
  });

  it('counts how long each player the pool seats waited there, by variant, in buckets people wait in', async () => {
    const clock = new ManualClock();
    server = await startServer({ metricsToken: TOKEN, clock, rateLimits: false, pool: { rules: { ...DEFAULT_POOL_RULES, gatherMs: 300 }, lobbyWindowMs: 50 } });
    const { app, wsBase } = server;
    const arrive = async (name: string, variant: string) => {
      const player = await createPlayer(app, name);
      const tab = await Client.connect(wsBase, player);
      expect((await api(app, 'POST', '/api/pool', player, { variant })).status).toBe(200);
      return tab;
    };
    // Ana waits alone for 4 s; Bob comes and they are seated together at once; Cy waits for merci, unseated.
    const ana = await arrive('Ana', 'strict');
    clock.advance(4000);
    const bob = await arrive('Bob', 'strict');
    const cy = await arrive('Cy', 'merci');
    await vi.waitFor(
      () => {
        clock.advance(0);
        expect(ana.all('pool').some((message) => message.pool.state === 'paired')).toBe(true);
      },
      { timeout: 5000, interval: 20 },
    );
    await bob.next('pool', (message) => message.pool.state === 'paired');

    const text = (await scrape({ authorization: `Bearer ${TOKEN}` })).body;
    const strict = (part: string) => sample(text, `lucie_pool_wait_seconds_${part}`);
    expect(strict('count{variant="strict"}')).toBe(2);
    expect(strict('sum{variant="strict"}')).toBe(4);
    expect(strict('bucket{le="1",variant="strict"}')).toBe(1);
    expect(strict('bucket{le="2",variant="strict"}')).toBe(1);
    expect(strict('bucket{le="5",variant="strict"}')).toBe(2);
    expect(strict('bucket{le="120",variant="strict"}')).toBe(2);
    expect(strict('count{variant="merci"}')).toBeUndefined();
    for (const tab of [ana, bob, cy]) tab.close();
  });

  it('counts the rate limits it refuses', async () => {
    server = await startServer({ metricsToken: TOKEN, rateLimits: { createPlayer: { max: 1, windowMs: 60_000 } } });
    const ask = () => server!.app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Flood' } });
    expect((await ask()).statusCode).toBe(201);
    expect((await ask()).statusCode).toBe(429);
    expect((await ask()).statusCode).toBe(429);
    expect(sample((await scrape({ authorization: `Bearer ${TOKEN}` })).body, 'lucie_rate_limit_hits_total{where="http"}')).toBe(2);
  });
});
