// The stop: which signals start, continue or cut it short (stop.ts), and a close that no
// connection arriving meanwhile can hold open.
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gracefulStop } from '../../server/stop.js';
import { startServer } from './helpers.js';

const quietLog = { info: vi.fn(), warn: vi.fn(), error: vi.fn() } as unknown as Parameters<typeof gracefulStop>[0]['log'];

describe('signals while stopping', () => {
  afterEach(() => vi.useRealTimers());

  function stopper() {
    vi.useFakeTimers();
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const exit = vi.fn();
    const signal = gracefulStop({ graceMs: 10_000, log: quietLog, close, exit });
    return { signal, close, exit, finish: () => finish() };
  }

  it('a second and third signal within the grace period change nothing: the close finishes and the exit is 0', async () => {
    const { signal, close, exit, finish } = stopper();
    signal('SIGTERM');
    signal('SIGTERM'); // npm forwarding the group's signal
    await vi.advanceTimersByTimeAsync(9_000);
    signal('SIGINT');
    expect(close).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(exit.mock.calls).toEqual([[0]]);
  });

  it('a signal after the grace period forces exit 1; without one, three grace periods end it', async () => {
    const forced = stopper();
    forced.signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(10_001);
    expect(forced.exit).not.toHaveBeenCalled();
    forced.signal('SIGTERM');
    expect(forced.exit.mock.calls).toEqual([[1]]);
    vi.useRealTimers();

    const stuck = stopper();
    stuck.signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(stuck.exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(stuck.exit.mock.calls).toEqual([[1]]);
  });
});

describe('closing the app', () => {
  it('a websocket upgrade that arrives while the app closes is refused and ended, so the close completes', async () => {
    const { app, wsBase } = await startServer();
    const port = Number(new URL(wsBase).port);
    // Connected before the close, the request sent just after it: it is read while the plugins close.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    const closed = app.close().then(() => 'closed');
    socket.write(
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    // The client keeps its end open: only the server ending it lets the close finish.
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000));
    expect(await Promise.race([closed, timeout])).toBe('closed');
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    socket.destroy();
  });

  it('takes no move from the moment the close begins, before the timers are handed over', async () => {
    const { app } = await startServer();
    let takingMovesAtHandover: boolean | undefined;
    const close = app.scheduler.close.bind(app.scheduler);
    vi.spyOn(app.scheduler, 'close').mockImplementation(() => {
      takingMovesAtHandover = !app.games.closing;
      return close();
    });
    await app.close();
    expect(takingMovesAtHandover).toBe(false);
  });
});
