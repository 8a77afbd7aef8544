// Several real server processes on one PostgreSQL database and one Redis (test/support/cluster.ts):
// what no single process can show. Two instances given moves of one game at the same moment store
// each index once, whichever wins. Three instances run a race whose racers are on different
// instances; one is killed with SIGKILL mid-race: its racers carry on elsewhere, nothing
// acknowledged is lost, and the race's timers (its deal, its time limit) act exactly once. A rated
// race's instance dies after storing its standings and before its ratings: the survivor applies them once.
import { rate, rating as newRating } from 'openskill';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeAction, type Action } from '../../shared/index.js';
import { SIGNED_OUT_CLOSE, type ServerMessage, type ServerMessageOf } from '../../contract/index.js';
import type { Cluster, Instance } from '../support/cluster.js';
import { Client, Mirror, play, playToEnd, type TestPlayer } from './helpers.js';
import { sharedStorage, timerOwner, type SharedStorage } from './shared-cluster.js';

/** A strict deal: long enough for every round below whichever of two moves wins. */
const SEED = 's2';

const storages: SharedStorage[] = [];
const connections: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.end()));
  await Promise.all(storages.map((storage) => storage.close()));
});

/** Storage of its own (shared-cluster.ts) and `count` instances on it. */
async function cluster(count: number, env: Record<string, string> = {}): Promise<{ cluster: Cluster; instances: Instance[]; sql: pg.Client; url: string }> {
  const storage = await sharedStorage(env);
  storages.push(storage);
  const instances = await storage.cluster.start(count);
  return { cluster: storage.cluster, instances, sql: storage.sql, url: storage.url };
}

/** Two instances, started once for the tests that need no more (starting them is most of their time). */
let pair: ReturnType<typeof cluster> | undefined;
const twoInstances = () => (pair ??= cluster(2));
/** A test that starts its own server processes (each builds its app and migrates) has their start-up in its time too. */
const CLUSTER_TEST_MS = 60_000;

type Answer = ServerMessageOf<'ack'> | ServerMessageOf<'error'>;

/** The answer to `action` at `index` on this socket: its ack, or a refusal at that index (acks of another socket's move do not count). */
function answerTo(client: Client, gameId: number, index: number, action: string): Promise<Answer> {
  return client.nextWhere(
    (message: ServerMessage): message is Answer =>
      (message.type === 'ack' && message.gameId === gameId && message.index === index && message.action === action) ||
      (message.type === 'error' && message.gameId === gameId && message.index === index),
    `the answer to ${action} at ${index}`,
  );
}

describe('instances sharing one PostgreSQL', () => {
  it('stores a move sent to two instances at once exactly once, and of two different moves at one index acknowledges one and refuses the other', async () => {
    const { instances, sql } = await twoInstances();
    const [one, two] = instances as [Instance, Instance];
    const ana = await one.newPlayer('Ana');
    const bob = await two.newPlayer('Bob');
    const { race } = (await one.api('POST', '/api/races', ana, { seats: 2 })).body;
    await sql.query('update races set seed = $1 where code = $2', [SEED, race.code]);
    expect((await two.api('POST', `/api/races/${race.code}/join`, bob)).status).toBe(200);
    // Ana plays one game from two sockets, one on each instance.
    const a1 = await Client.connect(one.wsBase, ana);
    const a2 = await Client.connect(two.wsBase, ana);
    a1.send({ type: 'watch', code: race.code });
    await a1.next('race');
    expect((await one.api('POST', `/api/races/${race.code}/start`, ana)).status).toBe(200);
    // The timer owner deals: the game reaches Ana's socket on that instance, whichever it is.
    await vi.waitFor(() => expect([a1, a2].some((client) => client.messages.some((message) => message.type === 'game'))).toBe(true), { timeout: 10_000, interval: 20 });
    const game = await [a1, a2].find((client) => client.messages.some((message) => message.type === 'game'))!.next('game');
    const mirror = Mirror.of(game);

    let same = 0;
    let different = 0;
    for (let round = 0; round < 16 && !mirror.position.status().over; round++) {
      const index = mirror.index;
      const legal = mirror.position.legalActions().filter((action) => action.type !== 'redeal');
      const first = mirror.choose()!;
      const other = legal.find((action) => makeAction(action) !== makeAction(first));
      if (round % 2 === 0 || other === undefined) {
        // The same move to both instances in one tick: both acknowledge it, with the same ack.
        const text = makeAction(first);
        a1.send(mirror.frame(first));
        a2.send(mirror.frame(first));
        const [answer1, answer2] = await Promise.all([answerTo(a1, game.gameId, index, text), answerTo(a2, game.gameId, index, text)]);
        expect(answer1).toMatchObject({ type: 'ack', index, action: text });
        expect(answer2).toEqual(answer1);
        mirror.apply(answer1 as ServerMessageOf<'ack'>);
        same++;
      } else {
        // Two different moves at one index: one is stored and acknowledged, the other is an index conflict.
        const moves: [Action, Action] = [first, other];
        a1.send(mirror.frame(moves[0]));
        a2.send(mirror.frame(moves[1]));
        const answers = await Promise.all([answerTo(a1, game.gameId, index, makeAction(moves[0])), answerTo(a2, game.gameId, index, makeAction(moves[1]))]);
        const acked = answers.filter((answer): answer is ServerMessageOf<'ack'> => answer.type === 'ack');
        const refused = answers.filter((answer): answer is ServerMessageOf<'error'> => answer.type === 'error');
        expect(acked).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({ code: 'index-conflict', index, nextIndex: index + 1 });
        mirror.apply(acked[0]!);
        different++;
      }
    }
    expect(same).toBeGreaterThanOrEqual(6);
    expect(different).toBeGreaterThanOrEqual(6);

    // Each index once in the log, holding the acknowledged move; the game's counts agree.
    const rows = await sql.query('select action_index, action from game_actions where game_id = $1 order by action_index', [game.gameId]);
    expect(rows.rows.map((row) => [row.action_index, row.action])).toEqual(mirror.actions.map((action, index) => [index, action]));
    const last = await sql.query('select foundations from game_actions where game_id = $1 order by action_index desc limit 1', [game.gameId]);
    expect(last.rows[0].foundations).toBe(mirror.position.foundationCount());
    for (const instance of [one, two]) {
      const { progress } = (await instance.api('GET', `/api/races/${race.code}`)).body.race;
      expect(progress.find((racer: { gameId: number }) => racer.gameId === game.gameId)).toMatchObject({ moves: mirror.index, foundations: mirror.position.foundationCount() });
    }
    // Either instance resyncs the same log.
    for (const client of [a1, a2]) {
      client.send({ type: 'resync', gameId: game.gameId, lastIndex: -1 });
      expect((await client.next('resynced')).acks.map((ack) => ack.action)).toEqual(mirror.actions);
    }
    for (const client of [a1, a2]) client.close();
  });
});

/** A race's states as a watcher saw them change, each once. */
function statesSeen(client: Client): string[] {
  const states: string[] = [];
  for (const { race } of client.all('race')) if (states[states.length - 1] !== race.state) states.push(race.state);
  return states;
}

/** The racers whose progress this watcher has seen reach `moves` moves, in any order. */
function seenAt(client: Client, moves: number): number[] {
  return client.all('progress').flatMap(({ progress }) => progress.flatMap((racer) => (racer.moves === moves ? [racer.playerId] : [])));
}

/** Plays `count` moves of the policy's choice. */
async function playSome(client: Client, mirror: Mirror, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await play(client, mirror, mirror.choose()!);
}

describe('a device signed out on one instance', () => {
  it('closes its sockets on every instance at once, and each refuses its token after', async () => {
    const { instances } = await twoInstances();
    const [one, two] = instances as [Instance, Instance];
    const ana = await one.newPlayer('Ana');
    const link = await one.api('POST', '/api/me/links', ana);
    const phone = { token: (await two.api('POST', `/api/links/${link.body.code}`)).body.token as string };
    // The phone has a socket on each instance; the laptop one on the second.
    const phoneOnOne = await Client.connect(one.wsBase, phone);
    const phoneOnTwo = await Client.connect(two.wsBase, phone);
    const laptopOnTwo = await Client.connect(two.wsBase, ana);
    const phoneId = (await two.api('GET', '/api/me/devices', phone)).body.devices.find((device: { current: boolean }) => device.current).id;

    expect((await one.api('DELETE', `/api/me/devices/${phoneId}`, ana)).status).toBe(200);
    expect((await phoneOnOne.whenClosed()).code).toBe(SIGNED_OUT_CLOSE);
    expect((await phoneOnTwo.whenClosed()).code).toBe(SIGNED_OUT_CLOSE);
    for (const instance of [one, two]) expect((await instance.api('GET', '/api/me', phone)).status).toBe(401);
    await laptopOnTwo.settle();
    expect(laptopOnTwo.closed).toBeUndefined();
    laptopOnTwo.close();
  });
});

describe('three instances, one killed mid-race', () => {
  it('keeps the race going for everyone: racers on different instances see each other live, the killed instance\'s racer carries on elsewhere, nothing acknowledged is lost, the deal and the time limit act once', async () => {
    // The race ends by its time limit (the hard cap here): long enough for everything below on a busy machine.
    const capSeconds = 15;
    // A short lease, so the survivors take the timers over within a second or so of the kill.
    const { cluster: three, instances, sql } = await cluster(3, {
      COUNTDOWN_MS: '1000',
      HARD_CAP_SECONDS: String(capSeconds),
      GRACE_SECONDS: '120',
      TIMER_LEASE_MS: '1000',
    });
    const owner = await timerOwner(instances);
    const names = ['Ana', 'Bob', 'Cy'];
    const racers: TestPlayer[] = await Promise.all(instances.map((instance, i) => instance.newPlayer(names[i]!)));
    const [ana, bob, cy] = racers as [TestPlayer, TestPlayer, TestPlayer];
    const { race } = (await instances[0]!.api('POST', '/api/races', ana, { seats: 3 })).body;
    await sql.query('update races set seed = $1 where code = $2', [SEED, race.code]);
    for (const [i, racer] of [bob, cy].entries()) expect((await instances[i + 1]!.api('POST', `/api/races/${race.code}/join`, racer)).status).toBe(200);

    // Each racer on their own instance, and a spectator on every instance; all watch the race.
    const sockets = await Promise.all(racers.map((racer, i) => Client.connect(instances[i]!.wsBase, racer)));
    const spectators = await Promise.all(instances.map((instance) => Client.connect(instance.wsBase)));
    for (const client of [...sockets, ...spectators]) {
      client.send({ type: 'watch', code: race.code });
      await client.next('race');
    }
    expect((await instances[1]!.api('POST', `/api/races/${race.code}/start`, ana)).body.race.state).toBe('countdown');
    const games = await Promise.all(sockets.map((socket) => socket.next('game', (game) => game.raceCode === race.code)));
    const mirrors = games.map((game) => Mirror.of(game));
    expect(new Set(games.map((game) => JSON.stringify(game.deals))).size).toBe(1);

    // Everyone moves; each sees the others' progress, wherever they are connected.
    for (const [i, socket] of sockets.entries()) await playSome(socket, mirrors[i]!, 5);
    for (const [i, socket] of [...sockets, ...spectators].entries()) {
      const others = racers.filter((_, j) => j !== i).map((racer) => racer.id);
      await vi.waitFor(() => expect(seenAt(socket, 5)).toEqual(expect.arrayContaining(others)), { timeout: 10_000, interval: 20 });
    }

    // The timer owner dies without a word, with the time limit armed there alone.
    const victim = owner;
    const survivors = [0, 1, 2].filter((i) => i !== victim);
    expect((await instances[victim]!.kill('SIGKILL')).signal).toBe('SIGKILL');
    await sockets[victim]!.whenClosed();
    // Its racer reconnects to another instance and carries on from where their acks left them.
    const elsewhere = instances[survivors[0]!]!;
    const back = await Client.connect(elsewhere.wsBase, racers[victim]!);
    sockets[victim] = back;
    back.send({ type: 'resync', gameId: mirrors[victim]!.gameId, lastIndex: mirrors[victim]!.index - 1 });
    expect(await back.next('resynced')).toMatchObject({ acks: [], status: { state: 'playing', nextIndex: mirrors[victim]!.index } });
    back.send({ type: 'watch', code: race.code });
    expect((await back.next('race')).race.state).toBe('running');
    await playSome(back, mirrors[victim]!, 5);
    for (const i of survivors) {
      for (const socket of [sockets[i]!, spectators[i]!]) {
        await socket.next('progress', ({ progress }) => progress.some((racer) => racer.playerId === racers[victim]!.id && racer.moves === 10), 10_000);
      }
    }
    // One survivor takes the timers over.
    expect(await timerOwner(survivors.map((i) => instances[i]!))).toBeGreaterThanOrEqual(0);

    // Ana plays her game to the end and wins; Bob and Cy stop and run out of time.
    await playToEnd(sockets[0]!, mirrors[0]!);
    expect((await sockets[0]!.next('game-over', (over) => over.gameId === mirrors[0]!.gameId)).status.state).toBe('won');
    for (const [i, socket] of sockets.entries()) {
      if (i === 0) continue;
      const over = await socket.next('game-over', (message) => message.gameId === mirrors[i]!.gameId, (capSeconds + 10) * 1000);
      expect(over.status.state).toBe('timed-out');
    }
    const finished = (await spectators[survivors[0]!]!.next('race', (message) => message.race.state === 'finished', 10_000)).race;

    // Standings: the win first, then the two timed out by cards home.
    const cards = (i: number) => mirrors[i]!.position.foundationCount();
    const [second, third] = [1, 2].sort((a, b) => cards(b) - cards(a));
    expect(finished.standings!.map((standing) => [standing.name, standing.state])).toEqual([
      ['Ana', 'won'],
      [names[second!], 'timed-out'],
      [names[third!], 'timed-out'],
    ]);
    expect(finished.standings!.map((standing) => standing.rank)).toEqual([1, 2, cards(second!) === cards(third!) ? 2 : 3]);
    for (const instance of survivors.map((i) => instances[i]!)) {
      expect((await instance.api('GET', `/api/races/${race.code}`)).body.race).toMatchObject({ state: 'finished', standings: finished.standings });
    }

    // Every acknowledged move is stored; the timed-out games ended at their deadline.
    for (const mirror of mirrors) {
      const rows = await sql.query('select action from game_actions where game_id = $1 order by action_index', [mirror.gameId]);
      expect(rows.rows.map((row) => row.action)).toEqual(mirror.actions);
    }
    const ends = await sql.query('select status, finished_at, deadline from games where race_id = (select id from races where code = $1) order by id', [race.code]);
    expect(ends.rows).toHaveLength(3);
    for (const row of ends.rows.filter((row) => row.status === 'timed-out')) expect(Number(row.finished_at)).toBe(Number(row.deadline));

    // The timers acted once: one deal (one game each, one snapshot before any move), one end per
    // game (one game-over on each racer's last socket), one run of states for a watcher who
    // stayed; no instance logged an error (a second deal or end would collide in the store).
    for (const [i, socket] of sockets.entries()) {
      expect(socket.all('game-over').filter((over) => over.gameId === mirrors[i]!.gameId)).toHaveLength(1);
    }
    for (const socket of survivors.map((i) => sockets[i]!)) expect(socket.all('game').filter((game) => game.raceCode === race.code && game.actions.length === 0)).toHaveLength(1);
    for (const spectator of survivors.map((i) => spectators[i]!)) expect(statesSeen(spectator)).toEqual(['lobby', 'countdown', 'running', 'finished']);
    expect(three.errors()).toEqual([]);
    for (const client of [...sockets, ...spectators]) client.close();
  }, CLUSTER_TEST_MS);
});

describe('a rated race whose instance dies between its standings and its ratings', () => {
  it('has its ratings applied once by the survivor, as openskill rates its standings', async () => {
    const { cluster: two, instances, sql, url } = await cluster(2, { TIMER_LEASE_MS: '1000', TIMER_RESCAN_MS: '300' });
    // The timer owner is the instance that both stores the standings and applies the ratings.
    const victim = instances[await timerOwner(instances)]!;
    const survivor = instances.find((instance) => instance !== victim)!;
    const racers: TestPlayer[] = [await victim.newPlayer('Ana'), await victim.newPlayer('Bob'), await victim.newPlayer('Cy')];
    const { race } = (await victim.api('POST', '/api/races', racers[0], { seats: 3, rated: true })).body;
    expect(race.rated).toBe(true);
    await sql.query('update races set seed = $1 where code = $2', [SEED, race.code]);
    for (const racer of racers.slice(1)) expect((await victim.api('POST', `/api/races/${race.code}/join`, racer)).status).toBe(200);
    const sockets = await Promise.all(racers.map((racer) => Client.connect(victim.wsBase, racer)));
    expect((await victim.api('POST', `/api/races/${race.code}/start`, racers[0])).status).toBe(200);
    const mirrors = (await Promise.all(sockets.map((socket) => socket.next('game', (game) => game.raceCode === race.code)))).map((game) => Mirror.of(game));
    // Ana gets cards home; Bob and Cy resign at once with as many as the deal gave them: a tie.
    for (let i = 0; i < 12 && !mirrors[0]!.position.status().over; i++) await play(sockets[0]!, mirrors[0]!, mirrors[0]!.choose()!);

    // Held here, the ratings' transaction waits once the standings are stored.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    connections.push(blocker);
    await blocker.query('begin');
    await blocker.query('lock table rated_races in access exclusive mode');
    for (const [i, socket] of sockets.entries()) socket.send({ type: 'resign', gameId: mirrors[i]!.gameId });
    await vi.waitFor(async () => expect((await sql.query('select state from races where code = $1', [race.code])).rows[0].state).toBe('finished'), { timeout: 10_000, interval: 20 });
    const waiting = "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into \"rated_races\"%'";
    await vi.waitFor(async () => expect((await sql.query(waiting)).rows[0].n).toBe(1), { timeout: 10_000, interval: 20 });

    expect((await victim.kill('SIGKILL')).signal).toBe('SIGKILL');
    await blocker.query('rollback');
    for (const socket of sockets) socket.close();

    // The survivor takes the timers over and applies the race from the store.
    const changes = 'select player_id, mu_after, sigma_after from rating_changes where race_id = (select id from races where code = $1) order by player_id';
    await vi.waitFor(async () => expect((await sql.query(changes, [race.code])).rows).toHaveLength(3), { timeout: 15_000, interval: 50 });
    const { standings } = (await survivor.api('GET', `/api/races/${race.code}`)).body.race as { standings: { playerId: number; rank: number }[] };
    expect(standings.map((standing) => standing.rank)).toEqual([1, 2, 2]);
    const rated = rate(
      standings.map(() => [newRating()]),
      { rank: standings.map((standing) => standing.rank) },
    );
    const expected = standings.map((standing, i) => ({ player_id: standing.playerId, mu: rated[i]![0]!.mu, sigma: rated[i]![0]!.sigma, games: 1 })).sort((a, b) => a.player_id - b.player_id);
    const ratingRows = async () => (await sql.query("select player_id, mu, sigma, games from ratings where variant = 'strict' order by player_id")).rows;
    expect(await ratingRows()).toEqual(expected);
    // Later rescans (every 300 ms here) find it applied and change nothing.
    expect(survivor.output()).toContain('timer lease acquired');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await ratingRows()).toEqual(expected);
    expect((await sql.query(changes, [race.code])).rows).toHaveLength(3);
    expect((await sql.query('select count(*)::int as n from rated_races')).rows[0].n).toBe(1);
    expect(two.errors().filter((line) => !line.startsWith(victim.name))).toEqual([]);
  }, CLUSTER_TEST_MS);
});
