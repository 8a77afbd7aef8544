// Several real server processes on one PostgreSQL database and one Redis (test/support/cluster.ts):
// what no single process can show. Two instances given moves of one game at the same moment store
// each index once, whichever wins.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeAction, type Action } from '../../shared/index.js';
import type { ServerMessage, ServerMessageOf } from '../../contract/index.js';
import { Cluster, type Instance } from '../support/cluster.js';
import { Client, Mirror } from './helpers.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

/** A strict deal: long enough for every round below whichever of two moves wins. */
const SEED = 's2';

const databases: TestDatabase[] = [];
const clusters: Cluster[] = [];
const dirs: string[] = [];
const connections: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  await Promise.all(connections.map((connection) => connection.end()));
  await Promise.all(databases.map((database) => database.drop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh database and a Redis namespace of its own, and `count` instances on them. */
async function cluster(count: number, env: Record<string, string> = {}): Promise<{ cluster: Cluster; instances: Instance[]; sql: pg.Client }> {
  const database = await createTestDatabase();
  databases.push(database);
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-instances-'));
  dirs.push(dataDir);
  const started = new Cluster({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL!,
    REDIS_PREFIX: `lucie-test-${randomBytes(4).toString('hex')}`,
    DATA_DIR: dataDir,
    COUNTDOWN_MS: '0',
    RATE_LIMITS: 'off',
    ...env,
  });
  clusters.push(started);
  const instances = await started.start(count);
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  connections.push(sql);
  return { cluster: started, instances, sql };
}

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
    const { instances, sql } = await cluster(2);
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
    expect((await sql.query('select moves from games where id = $1', [game.gameId])).rows[0].moves).toBe(mirror.index);
    // Either instance resyncs the same log.
    for (const client of [a1, a2]) {
      client.send({ type: 'resync', gameId: game.gameId, lastIndex: -1 });
      expect((await client.next('resynced')).acks.map((ack) => ack.action)).toEqual(mirror.actions);
    }
    for (const client of [a1, a2]) client.close();
  });
});
