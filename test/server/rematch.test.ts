// Rematch: same racers, same variant, seats and time limit, a new seed, as a normal lobby.
import { afterEach, describe, expect, it } from 'vitest';
import { races } from '../../server/db/schema.js';
import type { RaceView } from '../../contract/index.js';
import { api, Client, createPlayer, createRace, dbState, ManualClock, startServer, type TestServer } from './helpers.js';

let server: TestServer;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server.app.close();
});

describe('rematch', () => {
  it('offers the racers of a finished race a new lobby; each accepts or declines and everyone sees who', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock });
    const { app, wsBase } = server;
    const [ana, bob, eve] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Eve')];
    const race = await createRace(app, ana, { seats: 3, variant: 'merci', timeLimitSeconds: 600 });
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    for (const player of [ana, bob]) {
      const client = await Client.connect(wsBase, player);
      clients.push(client);
      client.send({ type: 'watch', code: race.code });
      await client.next('race');
    }
    const [a, b] = clients;
    expect((await api(app, 'POST', `/api/races/${race.code}/rematch`, ana, { answer: 'accept' })).body).toMatchObject({ statusCode: 409, code: 'not-finished' });
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const [gameA, gameB] = [await a!.next('game'), await b!.next('game')];
    a!.send({ type: 'resign', gameId: gameA.gameId });
    b!.send({ type: 'resign', gameId: gameB.gameId });
    const finished = (await a!.next('race', (message) => message.race.state === 'finished')).race;
    expect(finished.rematch).toBeNull();

    const before = dbState(app);
    expect((await api(app, 'POST', `/api/races/${race.code}/rematch`, eve, { answer: 'accept' })).body).toMatchObject({ statusCode: 403, code: 'not-a-racer' });
    expect((await api(app, 'POST', `/api/races/${race.code}/rematch`, ana, { answer: 'yes' })).body).toMatchObject({ code: 'invalid-body', field: 'answer' });
    expect(dbState(app)).toEqual(before);

    const asked = (await api(app, 'POST', `/api/races/${race.code}/rematch`, bob, { answer: 'accept' })).body.race as RaceView;
    expect(asked.rematch).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{6}$/), accepted: [bob.id], declined: [] });
    expect((await b!.next('race-event')).event).toMatchObject({ kind: 'rematch', player: { name: 'Bob' } });
    const next = (await api(app, 'GET', `/api/races/${asked.rematch!.code}`)).body.race as RaceView;
    expect(next).toMatchObject({ state: 'lobby', variant: 'merci', seats: 3, timeLimitSeconds: 600, creator: { name: 'Bob' }, rematchOf: race.code });

    // Ana accepts: she joins Bob's lobby; declining later frees her seat there.
    const both = (await api(app, 'POST', `/api/races/${race.code}/rematch`, ana, { answer: 'accept' })).body.race as RaceView;
    expect(both.rematch).toMatchObject({ accepted: [ana.id, bob.id], declined: [] });
    expect((await api(app, 'GET', `/api/races/${next.code}`)).body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Bob', 'Ana']);
    const declined = (await api(app, 'POST', `/api/races/${race.code}/rematch`, ana, { answer: 'decline' })).body.race as RaceView;
    expect(declined.rematch).toMatchObject({ accepted: [bob.id], declined: [ana.id] });
    expect((await api(app, 'GET', `/api/races/${next.code}`)).body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Bob']);

    // Accepted again, it starts like any race, with a seed of its own.
    await api(app, 'POST', `/api/races/${race.code}/rematch`, ana, { answer: 'accept' });
    expect((await api(app, 'POST', `/api/races/${next.code}/start`, bob)).status).toBe(200);
    clock.advance(0);
    const seeds = app.db.select({ code: races.code, seed: races.seed }).from(races).all();
    expect(new Set(seeds.map((row) => row.seed)).size).toBe(2);
    expect((await api(app, 'GET', `/api/races/${next.code}`)).body.race.state).toBe('running');
  });
});
