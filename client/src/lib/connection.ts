import { BANNED_CLOSE_CODE, SIGNED_OUT_CLOSE, type ClientMessageInput, type ServerMessage } from './contract.js';
import { forget } from './identity.svelte.js';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ConnectionHandlers {
  /** Called on every (re)opened socket: subscribe again here. */
  onOpen(): void;
  onMessage(message: ServerMessage): void;
  onState(state: ConnectionState): void;
}

const PING_EVERY_MS = 15_000;
/** No frame at all for this long after a ping: the link is dead even if the socket says open. */
const SILENCE_LIMIT_MS = 10_000;
const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000];

/**
 * One websocket to the server that comes back by itself: on a drop it reconnects with backoff
 * and calls `onOpen` again so the owner can resubscribe and resync. Messages are trusted to be
 * server messages (the client carries no validator: the server is the one that checks).
 */
export class Connection {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private closed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private lastFrameAt = 0;

  constructor(
    private readonly url: () => string,
    private readonly handlers: ConnectionHandlers,
  ) {
    window.addEventListener('online', this.reconnectNow);
    this.open();
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Sends when open; returns false when the message could not go (the owner keeps it to resend). */
  send(message: ClientMessageInput): boolean {
    if (!this.isOpen) return false;
    this.socket!.send(JSON.stringify(message));
    return true;
  }

  close(): void {
    this.closed = true;
    window.removeEventListener('online', this.reconnectNow);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.socket?.close(1000, 'bye');
    this.socket = null;
    this.handlers.onState('closed');
  }

  private open(): void {
    this.handlers.onState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const socket = new WebSocket(new URL(this.url(), location.href.replace(/^http/, 'ws')));
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.lastFrameAt = Date.now();
      this.handlers.onState('open');
      this.handlers.onOpen();
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
    };
    socket.onmessage = (event) => {
      this.lastFrameAt = Date.now();
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data as string) as ServerMessage;
      } catch {
        return; // the server only sends JSON; anything else is noise
      }
      this.handlers.onMessage(message);
    };
    socket.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket || this.closed) return;
      // This device was signed out: its token is gone for good, so no reconnecting with it.
      if (event.code === SIGNED_OUT_CLOSE) {
        forget();
        this.close();
        return;
      }
      // An operator banned this identity: every reconnection would be refused (403 banned), so none is tried.
      if (event.code === BANNED_CLOSE_CODE) {
        this.close();
        return;
      }
      this.socket = null;
      this.handlers.onState('reconnecting');
      const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)]!;
      this.retryTimer = setTimeout(() => this.open(), delay * (0.75 + Math.random() / 2));
    };
  }

  private ping(): void {
    if (Date.now() - this.lastFrameAt > PING_EVERY_MS + SILENCE_LIMIT_MS) {
      this.socket?.close(4001, 'no answer');
      return;
    }
    this.send({ type: 'ping' });
  }

  private readonly reconnectNow = (): void => {
    if (this.closed || this.isOpen) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.socket?.close();
    this.socket = null;
    this.open();
  };
}
