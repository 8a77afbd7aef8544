// Ghost races: a finished public game raced again. The new game deals as the raced one did
// (same cards, same layouts after each redeal), the ghost's progress follows the times its
// actions were stored, and nothing the player is sent shows a layout before it is dealt to them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptSeed, dealsMismatch, makeAction, replayRecord, type VariantId } from '../../shared/index.js';
import type { GhostStartAnswer, GhostView, ServerMessage } from '../../contract/index.js';
import { api, anaAndBob, Client, createPlayer, homeFirst, layoutOf, ManualClock, now, TEST_DAILY_SECRET, type TestPlayer, type TestServer } from './helpers.js';

const HOUR = 3_600_000;
/** Ana's pace: her i-th action is stored 700 + 300·(i mod 5) ms after the one before. */
const paceOf = (index: number): number => 700 + 300 * (index % 5);

let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let bob: TestPlayer;
beforeEach(async () => {
  // 2026-11-30: the day whose deal `homeFirst` plays through both redeals and loses.
  ({ server, clock, ana, bob } = await anaAndBob({ dailySecret: TEST_DAILY_SECRET }, Date.UTC(2026, 10, 30, 9)));
});
afterEach(async () => server.app.close());

/** Ana's daily attempt, played by `homeFirst` to its end at her pace; its game id and actions. */
async function anaPlaysTheDay(): Promise<{ id: number; actions: string[] }> {
  const started = await api(server.app, 'POST', '/api/daily/start', ana);
  expect(started.status).toBe(201);
  const id: number = started.body.game.gameId;
  const game = now(server.app.games.get(id))!;
  for (let action = homeFirst(game.position); action; action = homeFirst(game.position)) {
    clock.jump(paceOf(game.actions.length));
    expect(await server.app.games.play(ana, { gameId: id, index: game.actions.length, action: makeAction(action) })).toBeUndefined();
  }
  expect(game.state).toBe('out-of-moves');
  return { id, actions: [...game.actions] };
}

async function raceGhost(player: TestPlayer, gameId: number): Promise<GhostStartAnswer> {
  const { status, body } = await api(server.app, 'POST', `/api/games/${gameId}/ghost`, player);
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

const ghostNow = async (id: number): Promise<GhostView> => (await api(server.app, 'GET', `/api/ghosts/${id}`)).body.ghost;

describe('ghost races', () => {
  it('refuses, with codes, a game still played or not yet public, an unknown game, a variant with none, and anyone without a token', async () => {
    const { app } = server;
    const started = await api(app, 'POST', '/api/daily/start', ana);
    const playing: number = started.body.game.gameId;
    let answer = await api(app, 'POST', `/api/games/${playing}/ghost`, bob);
    expect([answer.status, answer.body.code, answer.body.params]).toEqual([403, 'game-in-progress', { game: playing }]);
    answer = await api(app, 'POST', `/api/games/${playing}/ghost`, ana);
    expect([answer.status, answer.body.code]).toEqual([403, 'game-in-progress']);

    // Ana resigns: her attempt has ended, but its day is still on.
    expect(await app.games.resign(ana, playing)).toBeUndefined();
    const id = playing;
    answer = await api(app, 'POST', `/api/games/${id}/ghost`, bob);
    expect([answer.status, answer.body.code, answer.body.params]).toEqual([403, 'record-hidden', { game: id, hidden: 'daily', scope: '2026-11-30' }]);

    answer = await api(app, 'POST', '/api/games/999/ghost', bob);
    expect([answer.status, answer.body.code, answer.body.params]).toEqual([404, 'unknown-game', { game: 999 }]);
    answer = await api(app, 'POST', `/api/games/${id}/ghost`);
    expect([answer.status, answer.body.code]).toEqual([401, 'unauthorized']);
    // Nothing public yet: the pool's offer has nobody to race.
    answer = await api(app, 'POST', '/api/ghosts', bob, { variant: 'strict' });
    expect([answer.status, answer.body.code, answer.body.params]).toEqual([404, 'no-ghost', { variant: 'strict' }]);
    answer = await api(app, 'POST', '/api/ghosts', bob, { variant: 'fast' });
    expect([answer.status, answer.body.code, answer.body.params.field]).toEqual([400, 'invalid-body', 'variant']);
    answer = await api(app, 'GET', `/api/ghosts/${id}`);
    expect([answer.status, answer.body.code]).toEqual([404, 'unknown-game']);
  });

  it('deals as the raced attempt did: the same cards give the same layouts after each redeal, from its own stream', async () => {
    const { app } = server;
    const anas = await anaPlaysTheDay();
    clock.jump(24 * HOUR);
    const started = await raceGhost(bob, anas.id);
    const anaGame = now(app.games.get(anas.id))!;
    expect(started.game.deals).toEqual([anaGame.deals[0]]);
    expect(started.ghost).toMatchObject({ ghostOf: anas.id, variant: 'strict', ghost: { name: 'Ana', moves: 0, status: 'playing' } });

    // Bob copies Ana's moves: he is dealt exactly her layouts, redeal for redeal.
    const bobId = started.game.gameId;
    for (const [index, action] of anas.actions.entries()) {
      expect(await app.games.play(bob, { gameId: bobId, index, action })).toBeUndefined();
    }
    const bobGame = now(app.games.get(bobId))!;
    expect(anaGame.deals.length).toBe(3);
    expect(bobGame.deals).toEqual(anaGame.deals);
    // Pinned to the attempt's own stream (not the seed's, which a race would use).
    const seed = (await api(app, 'GET', '/api/daily/2026-11-30')).body.daily.seed as string;
    expect(dealsMismatch('strict' as VariantId, seed, attemptSeed(seed, anas.id), bobGame.deals.map(layoutOf))).toBeUndefined();
    expect(dealsMismatch('strict', seed, seed, bobGame.deals.map(layoutOf))).toMatchObject({ k: 1 });
    expect(bobGame.state).toBe('out-of-moves');

    // A ghost race is itself public at once, and racing it deals the same again.
    const carol = await createPlayer(app, 'Carol');
    const again = await raceGhost(carol, bobId);
    for (const [index, action] of anas.actions.entries()) {
      expect(await app.games.play(carol, { gameId: again.game.gameId, index, action })).toBeUndefined();
    }
    expect(now(app.games.get(again.game.gameId))!.deals).toEqual(anaGame.deals);
    const summary = await api(app, 'GET', `/api/games/${again.game.gameId}`);
    expect(summary.body.game).toMatchObject({ kind: 'ghost', ghostOf: bobId, seed });
  });

  it("moves the ghost on its stored timeline from the ghost race's start, and shows its end once reached", async () => {
    const { app } = server;
    const anas = await anaPlaysTheDay();
    const anaGame = now(app.games.get(anas.id))!;
    // What Ana had home after each action, replayed here from her record.
    const home: number[] = [];
    const redeals: number[] = [];
    replayRecord({ variant: 'strict', deals: anaGame.deals.map(layoutOf), actions: anaGame.actions }, (position) => {
      home.push(position.foundationCount());
      redeals.push(position.redealsUsed);
    });
    clock.jump(24 * HOUR);
    const started = await raceGhost(bob, anas.id);
    const t0 = started.ghost.startedAt;
    expect(t0).toBe(clock.now());
    expect(started.ghost.nextAt).toBe(t0 + paceOf(0));

    let due = t0;
    for (let index = 0; index < anas.actions.length; index += 7) {
      const at = t0 + Array.from({ length: index + 1 }, (_, i) => paceOf(i)).reduce((a, b) => a + b, 0);
      clock.jump(at - 1 - due);
      let view = await ghostNow(started.game.gameId);
      expect(view.ghost.moves).toBe(index);
      expect(view.nextAt).toBe(at);
      clock.jump(1);
      due = at;
      view = await ghostNow(started.game.gameId);
      expect(view.ghost).toMatchObject({ moves: index + 1, foundations: home[index], cardsLeft: 52 - home[index]!, redealsUsed: redeals[index], status: 'playing', finishedAt: null });
    }
    const end = t0 + (anaGame.finishedAt! - anaGame.startedAt);
    clock.jump(end - due);
    const view = await ghostNow(started.game.gameId);
    expect(view.ghost).toMatchObject({ moves: anas.actions.length, foundations: home.at(-1), status: 'out-of-moves', finishedAt: end });
    expect(view.nextAt).toBeNull();
  });

  it('replays both games on the ghost race’s clock once it has ended, and nothing of them before', async () => {
    const { app } = server;
    const anas = await anaPlaysTheDay();
    const anaGame = now(app.games.get(anas.id))!;
    clock.jump(24 * HOUR);
    const started = await raceGhost(bob, anas.id);
    const bobId = started.game.gameId;
    const t0 = started.ghost.startedAt;
    clock.jump(1500);
    expect(await app.games.play(bob, { gameId: bobId, index: 0, action: anas.actions[0]! })).toBeUndefined();
    const early = await api(app, 'GET', `/api/ghosts/${bobId}/replay`);
    expect([early.status, early.body.code, early.body.params]).toEqual([409, 'ghost-not-over', { game: bobId }]);
    expect(JSON.stringify(early.body)).not.toContain(JSON.stringify(anaGame.deals[1]));

    clock.jump(2500);
    expect(await app.games.play(bob, { gameId: bobId, index: 1, action: anas.actions[1]! })).toBeUndefined();
    clock.jump(1000);
    expect(await app.games.resign(bob, bobId)).toBeUndefined();
    const { status, body } = await api(app, 'GET', `/api/ghosts/${bobId}/replay`);
    expect(status).toBe(200);
    expect(body.ghost.gameId).toBe(bobId);
    const [mine, ghost] = body.games;
    expect(mine).toMatchObject({ playerId: bob.id, name: 'Bob', gameId: bobId, state: 'resigned', actions: anas.actions.slice(0, 2), times: [t0 + 1500, t0 + 4000], finishedAt: t0 + 5000 });
    // Ana's moves at her own pace from the ghost race's start: her i-th after paceOf(0) + ... + paceOf(i).
    const paced = anas.actions.map((_, index) => t0 + Array.from({ length: index + 1 }, (__, i) => paceOf(i)).reduce((a, b) => a + b, 0));
    expect(ghost).toEqual({
      playerId: ana.id,
      name: 'Ana',
      gameId: anas.id,
      state: 'out-of-moves',
      deals: anaGame.deals,
      actions: anas.actions,
      times: paced,
      finishedAt: t0 + (anaGame.finishedAt! - anaGame.startedAt),
    });
    expect((await api(app, 'GET', `/api/ghosts/${anas.id}/replay`)).body.code).toBe('unknown-game');
  });

  it('sends the player counts of the ghost only: no frame or answer holds a layout before it is dealt to them', async () => {
    const { app, wsBase } = server;
    const anas = await anaPlaysTheDay();
    const anaDeals = now(app.games.get(anas.id))!.deals;
    clock.jump(24 * HOUR);
    const socket = await Client.connect(wsBase, bob);
    try {
      const started = await api(app, 'POST', `/api/games/${anas.id}/ghost`, bob);
      const bodies: string[] = [JSON.stringify(started.body)];
      const bobId: number = started.body.game.gameId;
      const bobGame = now(app.games.get(bobId))!;
      const seen = (): string => [...bodies, ...socket.messages.map((message: ServerMessage) => JSON.stringify(message))].join('\n');
      for (const [index, action] of anas.actions.entries()) {
        clock.jump(paceOf(index));
        bodies.push(JSON.stringify((await api(app, 'GET', `/api/ghosts/${bobId}`)).body));
        // Every later layout of Ana's is still unseen: Bob has been dealt deals 0..redealsUsed.
        const text = seen();
        for (const later of anaDeals.slice(bobGame.position.redealsUsed + 1)) expect(text).not.toContain(JSON.stringify(later));
        expect(await app.games.play(bob, { gameId: bobId, index, action })).toBeUndefined();
      }
      await socket.nextWhere((message): message is ServerMessage => message.type === 'ack' && message.index === anas.actions.length - 1, 'the last ack');
      // Dealt in the end, through his own acks.
      expect(seen()).toContain(JSON.stringify(anaDeals[2]));
      for (const body of bodies.slice(1)) expect(Object.keys(JSON.parse(body).ghost.ghost).sort()).toEqual(['cardsLeft', 'finishedAt', 'foundations', 'gameId', 'moves', 'name', 'playerId', 'redealsUsed', 'status']);
    } finally {
      socket.close();
    }
  });

  it('offers the best recent public game of a variant by someone else (none of another variant), gives back the ghost race being played, and ends it by its deadline', async () => {
    const { app } = server;
    // Carol resigns at once, with fewer cards home than Ana's attempt: Ana's is the one offered.
    const carol = await createPlayer(app, 'Carol');
    const carols: number = (await api(app, 'POST', '/api/daily/start', carol)).body.game.gameId;
    expect(await app.games.resign(carol, carols)).toBeUndefined();
    const anas = await anaPlaysTheDay();
    clock.jump(24 * HOUR);
    let answer = await api(app, 'POST', '/api/ghosts', ana, { variant: 'strict' });
    expect(answer.body.ghost.ghostOf).toBe(carols);
    answer = await api(app, 'POST', '/api/ghosts', bob, { variant: 'merci' });
    expect([answer.status, answer.body.code]).toEqual([404, 'no-ghost']);
    answer = await api(app, 'POST', '/api/ghosts', bob, { variant: 'strict' });
    expect(answer.status).toBe(201);
    expect(answer.body.ghost.ghostOf).toBe(anas.id);
    const id: number = answer.body.game.gameId;
    // The same ghost race again while it is played; another is refused until it ends.
    answer = await api(app, 'POST', '/api/ghosts', bob, { variant: 'strict' });
    expect([answer.status, answer.body.game.gameId]).toEqual([200, id]);
    answer = await api(app, 'POST', `/api/games/${carols}/ghost`, bob);
    expect([answer.status, answer.body.code, answer.body.params]).toEqual([409, 'ghost-playing', { game: id }]);
    answer = await api(app, 'POST', `/api/games/${id}/ghost`, carol);
    expect([answer.status, answer.body.code]).toEqual([403, 'game-in-progress']);
    // Nobody plays it: it ends by itself 15 minutes after the ghost's own time.
    const anaGame = now(app.games.get(anas.id))!;
    clock.advance(anaGame.finishedAt! - anaGame.startedAt + 15 * 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(now(app.games.get(id))!.state).toBe('timed-out');
  });
});
