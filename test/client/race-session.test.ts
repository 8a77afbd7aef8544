// The client's race session against a scripted server: optimistic moves reconciled with acks,
// errors rolled back, reconnection resending what was never acknowledged.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RaceSession as RaceSessionType } from '../../client/src/lib/race.svelte.js';
import type { GameStatus, RaceView, ServerMessage } from '../../contract/index.js';
import { BANNED_CLOSE_CODE } from '../../contract/index.js';
import { dealLayout, makeAction, makeLayout, parseAction, redealLayout, type Action, problemText } from '../../shared/index.js';
import { FakeSocket, stubBrowser } from './fake-browser.js';

const SEED = 'client-session';
const first = dealLayout(SEED, 'strict');
const status = (nextIndex: number, state: GameStatus['state'] = 'playing'): GameStatus => ({
  state,
  foundations: 0,
  redealsUsed: 0,
  nextIndex,
  finishedAt: null,
});
const race: RaceView = {
  code: 'ABCDEF',
  variant: 'strict',
  seats: 2,
  timeLimitSeconds: null,
      listed: false,
      rated: false,
  state: 'running',
  creator: { id: 1, name: 'Ana' },
  racers: [
    { id: 1, name: 'Ana', seat: 1, presence: { state: 'online', since: null, until: null } },
    { id: 2, name: 'Bo', seat: 2, presence: { state: 'online', since: null, until: null } },
  ],
  createdAt: 0,
  startsAt: 1,
  endsAt: null,
  finishedAt: null,
  progress: [],
  standings: null,
  seed: null,
  closedReason: null,
  lobbyClosesAt: null,
  capAt: null,
  graceSeconds: 60,
  rematchOf: null,
  rematch: null,
  ratingChanges: null,
};
const game = (actions: string[] = []): ServerMessage => ({
  type: 'game',
  gameId: 7,
  raceCode: 'ABCDEF',
  variant: 'strict',
  deals: [makeLayout(first)],
  actions,
  startedAt: 1,
  status: status(actions.length),
});
const act = (text: string): Action => {
  const action = parseAction(text);
  if (!action.ok) throw new Error(problemText(action.error));
  return action.value;
};

let session: RaceSessionType;
let socket: FakeSocket;

beforeEach(async () => {
  stubBrowser('/race/ABCDEF');
  await (await import('../../client/src/lib/i18n.svelte.js')).setLocale('en', [], 'every');
  const { RaceSession } = await import('../../client/src/lib/race.svelte.js');
  session = new RaceSession('ABCDEF');
  socket = FakeSocket.all[0]!;
  socket.accept();
  socket.deliver({ type: 'welcome', player: { id: 1, name: 'Ana' }, serverTime: 5 });
  socket.deliver({ type: 'race', race, serverTime: 5 });
  socket.deliver(game());
});

afterEach(() => {
  session.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a race session', () => {
  it('opens the socket with the token, watches the race and rebuilds the dealt game', () => {
    expect(socket.url.href).toBe('ws://127.0.0.1:3000/ws?token=secret');
    expect(socket.sent).toEqual([{ type: 'watch', code: 'ABCDEF' }]);
    expect(makeLayout(session.position!.fans)).toEqual(makeLayout(first));
    expect(session.legal.map(makeAction)).toEqual(session.position!.legalActions().map(makeAction));
  });

  it('shows a move at once, sends it with its index, and confirms it on the ack', () => {
    const move = session.legal.find((action) => action.type !== 'redeal')!;
    session.act(move);
    expect(socket.sent.at(-1)).toEqual({ type: 'action', gameId: 7, index: 0, action: makeAction(move) });
    expect(session.pending).toHaveLength(1);
    const shown = makeLayout(session.position!.fans);
    expect(shown).not.toEqual(makeLayout(first));

    socket.deliver({ type: 'ack', gameId: 7, index: 0, action: makeAction(move) });
    expect(session.pending).toHaveLength(0);
    expect(session.game!.actions).toEqual([makeAction(move)]);
    expect(makeLayout(session.position!.fans)).toEqual(shown);
    // A repeated ack changes nothing.
    socket.deliver({ type: 'ack', gameId: 7, index: 0, action: makeAction(move) });
    expect(session.game!.actions).toEqual([makeAction(move)]);
  });

  it('rolls an optimistic move back on an error, shows why, and resyncs', () => {
    const move = session.legal.find((action) => action.type !== 'redeal')!;
    session.act(move);
    socket.deliver({
      type: 'error',
      code: 'illegal-action',
      message: '8C cannot go on 9S: a card goes only on the next higher card of its own suit',
      params: { action: '4>12', problem: { code: 'cannot-build', card: 7, target: 47, rule: 'same-suit-down' } },
      request: 'action',
      gameId: 7,
      index: 0,
      nextIndex: 0,
    });
    expect(session.pending).toHaveLength(0);
    expect(makeLayout(session.position!.fans)).toEqual(makeLayout(first));
    expect(session.notice).toBe('8♣ cannot go on 9♠: a card goes only on the next higher card of its own suit');
    expect(socket.sent.at(-1)).toEqual({ type: 'resync', gameId: 7, lastIndex: -1 });
  });

  it('waits for the layout of a redeal, offering nothing meanwhile', () => {
    session.act({ type: 'redeal' });
    expect(session.redealing).toBe(true);
    expect(session.legal).toEqual([]);
    expect(makeLayout(session.position!.fans)).toEqual(makeLayout(first));
    const next = redealLayout(SEED, 1, session.position!.gatheredCards());
    socket.deliver({ type: 'ack', gameId: 7, index: 0, action: 'R', layout: makeLayout(next) });
    expect(session.redealing).toBe(false);
    expect(makeLayout(session.position!.fans)).toEqual(makeLayout(next));
    expect(session.game!.deals).toHaveLength(2);
    expect(session.position!.redealsUsed).toBe(1);
  });

  it('asks for the missing acks when one arrives out of order', () => {
    const move = session.legal.find((action) => action.type !== 'redeal')!;
    socket.deliver({ type: 'ack', gameId: 7, index: 1, action: makeAction(move) });
    expect(session.game!.actions).toEqual([]);
    expect(socket.sent.at(-1)).toEqual({ type: 'resync', gameId: 7, lastIndex: -1 });
    socket.deliver({ type: 'resynced', gameId: 7, acks: [{ gameId: 7, index: 0, action: makeAction(move) }], status: status(1) });
    expect(session.game!.actions).toEqual([makeAction(move)]);
    expect(session.game!.status.nextIndex).toBe(1);
  });

  it('reconnects after a drop, resubscribes, and resends the moves never acknowledged', () => {
    const one = session.legal.find((action) => action.type !== 'redeal')!;
    session.act(one);
    socket.close(); // the network drops: the move may or may not have arrived
    expect(session.connection).toBe('reconnecting');
    const afterOne = session.position!.legalActions().find((action) => action.type !== 'redeal')!;
    session.act(afterOne); // played while offline: kept
    expect(session.pending.map((pending) => pending.index)).toEqual([0, 1]);

    vi.advanceTimersByTime(1_000);
    const again = FakeSocket.all[1]!;
    again.accept();
    expect(again.sent).toEqual([{ type: 'watch', code: 'ABCDEF' }]);
    // The server had stored the first move before the drop: only the second is sent again.
    again.deliver(game([makeAction(one)]));
    expect(again.sent.slice(1)).toEqual([{ type: 'action', gameId: 7, index: 1, action: makeAction(afterOne) }]);
    expect(session.connection).toBe('open');
    again.deliver({ type: 'ack', gameId: 7, index: 1, action: makeAction(afterOne) });
    expect(session.game!.actions).toEqual([makeAction(one), makeAction(afterOne)]);
    expect(session.pending).toEqual([]);
  });

  it('tries no reconnection once an operator has banned the identity', () => {
    socket.close(BANNED_CLOSE_CODE);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('stops offering moves when the game is over', () => {
    socket.deliver({ type: 'game-over', gameId: 7, status: status(0, 'resigned') });
    expect(session.playing).toBe(false);
    expect(session.legal).toEqual([]);
    session.act(act('1>F'));
    expect(socket.sent.filter((message) => message.type === 'action')).toEqual([]);
  });

  it('keeps everyone’s progress current', () => {
    const progress = { playerId: 2, name: 'Bo', gameId: 8, foundations: 3, cardsLeft: 49, redealsUsed: 0, moves: 4, status: 'playing' as const, finishedAt: null };
    const ana = { ...progress, playerId: 3, name: 'Ana', gameId: 9, moves: 1 };
    socket.deliver({ type: 'progress', code: 'ABCDEF', progress: [progress] });
    // One window's message: both racers who moved, each replacing only their own entry.
    socket.deliver({ type: 'progress', code: 'ABCDEF', progress: [{ ...progress, foundations: 4, moves: 5 }, ana] });
    socket.deliver({ type: 'progress', code: 'ABCDEF', progress: [{ ...ana, moves: 2 }] });
    socket.deliver({ type: 'progress', code: 'OTHER1', progress: [{ ...progress, foundations: 9 }] });
    expect(session.race!.progress).toEqual([{ ...progress, foundations: 4, moves: 5 }, { ...ana, moves: 2 }]);
  });
});
