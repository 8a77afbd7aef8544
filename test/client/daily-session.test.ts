// The daily attempt's session against a scripted server: it starts from the game the HTTP start
// gave, plays by gameId on the socket, resyncs from its last ack on every (re)opened socket,
// and fetches the whole game again when the server and the page disagree.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DailySession as DailySessionType } from '../../client/src/lib/daily.svelte.js';
import type { GameMessage } from '../../client/src/lib/game-session.svelte.js';
import type { GameStatus } from '../../contract/index.js';
import { dealLayout, makeAction, makeLayout, Position, type Action, problemText } from '../../shared/index.js';
import { FakeSocket, stubBrowser } from './fake-browser.js';

const first = dealLayout('daily-session', 'strict');
const status = (nextIndex: number, state: GameStatus['state'] = 'playing'): GameStatus => ({
  state,
  foundations: 0,
  redealsUsed: 0,
  nextIndex,
  finishedAt: null,
});
const game = (actions: string[] = []): GameMessage => ({
  type: 'game',
  gameId: 12,
  raceCode: null,
  variant: 'strict',
  deals: [makeLayout(first)],
  actions,
  startedAt: 1,
  status: status(actions.length),
});
/** The first moves the engine offers from the deal, in order. */
const moves = (count: number): Action[] => {
  const start = Position.start('strict', first);
  if (!start.ok) throw new Error(problemText(start.error));
  const played: Action[] = [];
  for (let i = 0; i < count; i++) {
    const action = start.value.legalActions().find((candidate) => candidate.type !== 'redeal')!;
    start.value.play(action);
    played.push(action);
  }
  return played;
};

let session: DailySessionType;
let socket: FakeSocket;
let refetched: GameMessage[];

beforeEach(async () => {
  stubBrowser('/daily');
  refetched = [];
  const { DailySession } = await import('../../client/src/lib/daily.svelte.js');
  session = new DailySession(game(), async () => refetched.shift() ?? game());
  socket = FakeSocket.all[0]!;
  socket.accept();
});

afterEach(() => {
  session.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a daily session', () => {
  it('shows the game the start answer dealt and asks, once connected, for any ack it missed', () => {
    expect(makeLayout(session.position!.fans)).toEqual(makeLayout(first));
    expect(session.playing).toBe(true);
    expect(socket.url.href).toBe('ws://127.0.0.1:3000/ws?token=secret');
    expect(socket.sent).toEqual([{ type: 'resync', gameId: 12, lastIndex: -1 }]);
  });

  it('plays by gameId and confirms on the ack', () => {
    const [move] = moves(1);
    session.act(move!);
    expect(socket.sent.at(-1)).toEqual({ type: 'action', gameId: 12, index: 0, action: makeAction(move!) });
    socket.deliver({ type: 'ack', gameId: 12, index: 0, action: makeAction(move!) });
    expect(session.game!.actions).toEqual([makeAction(move!)]);
    expect(session.pending).toEqual([]);
  });

  it('resyncs from its last ack after a drop and resends the moves never acknowledged', () => {
    const [one, two] = moves(2);
    session.act(one!);
    socket.deliver({ type: 'ack', gameId: 12, index: 0, action: makeAction(one!) });
    session.act(two!);
    socket.close();
    vi.advanceTimersByTime(1_000);
    const again = FakeSocket.all[1]!;
    again.accept();
    expect(again.sent).toEqual([{ type: 'resync', gameId: 12, lastIndex: 0 }]);
    again.deliver({ type: 'resynced', gameId: 12, acks: [], status: status(1) });
    expect(again.sent.slice(1)).toEqual([{ type: 'action', gameId: 12, index: 1, action: makeAction(two!) }]);
  });

  it('loads the whole game again when an ack does not fit the position it holds', async () => {
    const [one, two] = moves(2);
    refetched.push(game([makeAction(one!), makeAction(two!)]));
    // An ack of a move the engine refuses here: the page is out of step with the server.
    socket.deliver({ type: 'ack', gameId: 12, index: 0, action: '18>18' });
    await vi.waitFor(() => expect(session.game!.actions).toEqual([makeAction(one!), makeAction(two!)]));
    expect(refetched).toEqual([]);
  });

  it('ignores another game’s messages and stops offering moves when its own ends', () => {
    socket.deliver({ type: 'game-over', gameId: 13, status: status(0, 'resigned') });
    expect(session.playing).toBe(true);
    socket.deliver({ ...game(), gameId: 13, actions: [makeAction(moves(1)[0]!)] });
    expect(session.game!.actions).toEqual([]);
    socket.deliver({ type: 'game-over', gameId: 12, status: status(0, 'resigned') });
    expect(session.playing).toBe(false);
    expect(session.legal).toEqual([]);
  });
});
