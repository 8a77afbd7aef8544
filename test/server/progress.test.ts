// Race progress is batched per race (one message per PROGRESS_INTERVAL_MS holding every racer who
// moved, each at their latest state), while status changes and race messages go at once and never
// let an older progress arrive after a newer one. A ManualClock makes "at once" and "when the window ends"
// exact: no time passes unless the test says so.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppOptions } from '../../server/app.js';
import type { ServerMessage } from '../../contract/index.js';
import { PROGRESS_INTERVAL_MS } from '../../server/races/service.js';
import { api, Client, createPlayer, createRace, ManualClock, Mirror, play, playToEnd, setSeed, startServer, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

/** A running two-seat race (Ana, Bob) on a hand-driven clock, watched by both and by an anonymous spectator. */
async function runningRace(options: Partial<AppOptions> = {}) {
  const clock = new ManualClock();
  server = await startServer({ clock, ...options });
  const { app, wsBase } = server;
  const ana = await createPlayer(app, 'Ana');
  const bob = await createPlayer(app, 'Bob');
  const { code } = await createRace(app, ana, { seats: 2 });
  setSeed(app, code, 's0');
  await api(app, 'POST', `/api/races/${code}/join`, bob);
  const [a, b, spectator] = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob), await Client.connect(wsBase)];
  for (const client of [a, b, spectator]) {
    client.send({ type: 'watch', code });
    await client.next('race');
  }
  await api(app, 'POST', `/api/races/${code}/start`, ana);
  clock.advance(0);
  const [mirrorA, mirrorB] = [Mirror.of(await a.next('game')), Mirror.of(await b.next('game'))];
  for (const client of [a, b, spectator]) await client.next('race', (message) => message.race.state === 'running');
  return { clock, code, ana, bob, a, b, spectator, mirrorA, mirrorB };
}

/** What a watcher saw of the racers so far, message by message: [player, moves, status] for each racer in it. */
const seen = (client: Client) => client.all('progress').map(({ progress }) => progress.map((racer) => [racer.playerId, racer.moves, racer.status]));

/** Everything sent before this returns has arrived at each client. */
const settle = (...clients: Client[]) => Promise.all(clients.map((client) => client.settle()));

describe('race progress', () => {
  it('sends each window one message holding every racer who moved, at their latest numbers', async () => {
    const { clock, ana, bob, a, b, spectator, mirrorA, mirrorB } = await runningRace();
    // No time passes: nothing is sent yet, however many moves.
    for (let i = 0; i < 4; i++) await play(a, mirrorA, mirrorA.choose()!);
    for (let i = 0; i < 2; i++) await play(b, mirrorB, mirrorB.choose()!);
    await settle(a, b, spectator);
    for (const watcher of [a, b, spectator]) expect(seen(watcher)).toEqual([]);

    // Within a window: one message, both racers, each with their state now.
    clock.advance(PROGRESS_INTERVAL_MS);
    await settle(a, b, spectator);
    const latest = (mirror: Mirror) => ({
      moves: mirror.actions.length,
      foundations: mirror.position.foundationCount(),
      cardsLeft: 52 - mirror.position.foundationCount(),
      redealsUsed: mirror.position.redealsUsed,
      status: 'playing',
    });
    for (const watcher of [a, b, spectator]) {
      expect(watcher.all('progress').map((message) => message.progress)).toMatchObject([
        [
          { playerId: ana.id, gameId: mirrorA.gameId, ...latest(mirrorA) },
          { playerId: bob.id, gameId: mirrorB.gameId, ...latest(mirrorB) },
        ],
      ]);
    }

    // A window with nothing new sends nothing; the next one carries only who moved.
    clock.advance(PROGRESS_INTERVAL_MS);
    await settle(spectator);
    expect(seen(spectator)).toHaveLength(1);
    await play(b, mirrorB, mirrorB.choose()!);
    clock.advance(PROGRESS_INTERVAL_MS);
    await settle(spectator);
    expect(seen(spectator)).toEqual([
      [
        [ana.id, 4, 'playing'],
        [bob.id, 2, 'playing'],
      ],
      [[bob.id, 3, 'playing']],
    ]);
  });

  it('never sends a watcher two progress messages of a race within a window, and loses no move', async () => {
    const { clock, ana, bob, a, b, spectator, mirrorA, mirrorB } = await runningRace();
    const slot = PROGRESS_INTERVAL_MS / 10;
    const arrivals: number[] = [];
    for (let step = 0; step < 40; step++) {
      if (step % 3 !== 2) await play(a, mirrorA, mirrorA.choose()!);
      if (step % 2 === 0) await play(b, mirrorB, mirrorB.choose()!);
      clock.advance(slot);
      await settle(spectator);
      for (let i = arrivals.length; i < seen(spectator).length; i++) arrivals.push(clock.now());
    }
    clock.advance(PROGRESS_INTERVAL_MS);
    await settle(spectator);
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);
    // The last word on each racer is their state now.
    const last = new Map(seen(spectator).flat().map(([id, moves]) => [id, moves]));
    expect(last).toEqual(new Map([[ana.id, mirrorA.actions.length], [bob.id, mirrorB.actions.length]]));
  });

  it('sends a game’s end at once, after the progress still waiting, and nothing after the standings', async () => {
    const { clock, ana, bob, a, b, spectator, mirrorA, mirrorB } = await runningRace();
    for (let i = 0; i < 3; i++) await play(a, mirrorA, mirrorA.choose()!);
    // Bob resigns while Ana's moves 2 and 3 wait: no time passes, yet everyone hears of both, in order.
    b.send({ type: 'resign', gameId: mirrorB.gameId });
    await b.next('game-over');
    await spectator.next('progress', (message) => message.progress.some((racer) => racer.status === 'resigned'));
    expect(seen(spectator)).toEqual([
      [
        [ana.id, 3, 'playing'],
        [bob.id, 0, 'resigned'],
      ],
    ]);

    // Ana plays on to the end of her game; its last move is a status change: no waiting either.
    await playToEnd(a, mirrorA);
    const over = await a.next('game-over');
    expect(over.status.state).toBe('out-of-moves');
    const finished = await spectator.next('race', (message) => message.race.state === 'finished');
    clock.advance(2 * PROGRESS_INTERVAL_MS);
    await settle(spectator);

    const progress = seen(spectator).flat();
    expect(progress.at(-1)).toEqual([ana.id, mirrorA.actions.length, 'out-of-moves']);
    // Far fewer progress messages than moves, and each racer's never go backwards.
    expect(progress.length).toBeLessThan(mirrorA.actions.length);
    for (const player of [ana.id, bob.id]) {
      const moves = progress.filter(([id]) => id === player).map(([, count]) => count as number);
      expect(moves).toEqual([...moves].sort((x, y) => x - y));
    }
    // The standings come after the last progress, and no progress after them.
    const after = (message: ServerMessage) => spectator.messages.slice(spectator.messages.indexOf(message) + 1);
    expect(after(finished).filter((message) => message.type !== 'pong')).toEqual([]);
    expect(finished.race.progress.find((entry) => entry.playerId === ana.id)).toMatchObject({ moves: mirrorA.actions.length, status: 'out-of-moves' });
  });

  it('shows a racer who leaves at once, with the moves still waiting', async () => {
    const { ana, a, b, spectator, mirrorA } = await runningRace();
    for (let i = 0; i < 3; i++) await play(a, mirrorA, mirrorA.choose()!);
    a.close();
    await spectator.next('progress', (message) => message.progress.some((racer) => racer.status === 'disconnected'));
    expect(seen(spectator)).toEqual([[[ana.id, 3, 'disconnected']]]);
    await settle(b);
    expect(seen(b)).toEqual(seen(spectator));
  });

  it('sends every move’s progress at once with an interval of 0, setting no timer', async () => {
    const { clock, ana, a, spectator, mirrorA } = await runningRace({ progressIntervalMs: 0 });
    for (let i = 0; i < 3; i++) await play(a, mirrorA, mirrorA.choose()!);
    await spectator.next('progress', (message) => message.progress.some((racer) => racer.moves === 3));
    expect(seen(spectator)).toEqual([[[ana.id, 1, 'playing']], [[ana.id, 2, 'playing']], [[ana.id, 3, 'playing']]]);
    // Only the two games' hard caps (a race without a time limit still ends), the hourly pruning of unused identities and the analyses' end of day.
    expect(clock.pending).toBe(4);
  });

  it('sends the progress still waiting when the server closes, and leaves no timer running', async () => {
    const { clock, ana, a, spectator, mirrorA } = await runningRace();
    for (let i = 0; i < 3; i++) await play(a, mirrorA, mirrorA.choose()!);
    // The progress timer (one for every race), the two games' hard caps, the hourly pruning of unused identities and the analyses' end of day.
    expect(clock.pending).toBe(5);
    await server!.app.close();
    server = undefined;
    expect(clock.pending).toBe(0);
    expect(await spectator.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(seen(spectator)).toEqual([[[ana.id, 3, 'playing']]]);
  });
});
