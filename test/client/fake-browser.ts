// A browser for the client's session tests: a scripted websocket, a location, and a
// localStorage holding Ana's identity. Timers are faked so reconnection delays can be stepped.
import { vi } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../contract/index.js';

export class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  readonly sent: ClientMessage[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: URL) {
    FakeSocket.all.push(this);
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text) as ClientMessage);
  }
  /** Closed as a browser reports it: `code` 1006 for a drop, 4401 for a device signed out. */
  close(code = 1006): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }
  accept(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  deliver(message: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

export function stubBrowser(path: string): void {
  vi.useFakeTimers();
  FakeSocket.all = [];
  const storage = new Map<string, string>([['lucie.identity', JSON.stringify({ player: { id: 1, name: 'Ana' }, token: 'secret' })]]);
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('location', new URL(`http://127.0.0.1:3000${path}`));
  vi.stubGlobal('window', { addEventListener() {}, removeEventListener() {} });
  vi.stubGlobal('localStorage', { getItem: (key: string) => storage.get(key) ?? null, setItem() {}, removeItem() {} });
}
