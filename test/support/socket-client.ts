// The tests' and the bench's websocket client: keeps every server message, read with the
// contract's union (a message outside the contract fails the next wait), and waits for the next
// one that matches.
import { WebSocket } from 'ws';
import { errorParamsMatch, serverMessage, type ClientMessageInput, type ServerMessage, type ServerMessageOf } from '../../contract/index.js';

export class Client {
  readonly messages: ServerMessage[] = [];
  /** Frames the contract's union refused, with why: any of them makes `next` throw. */
  readonly offContract: string[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      const parsed = serverMessage.safeParse(JSON.parse(text));
      if (!parsed.success) this.offContract.push(`${text.slice(0, 200)}: ${parsed.error.message}`);
      // An error's params must be exactly its code's (contract/errors.ts ERROR_PARAMS).
      else if (parsed.data.type === 'error' && !errorParamsMatch(parsed.data)) this.offContract.push(`${text.slice(0, 200)}: params do not match the code`);
      else this.messages.push(parsed.data as ServerMessage);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  /** Opens `/ws` with the player's token (none: a spectator) and waits for the welcome. */
  static async connect(wsBase: string, player?: { token: string }): Promise<Client> {
    const socket = new WebSocket(`${wsBase}/ws${player ? `?token=${encodeURIComponent(player.token)}` : ''}`);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await client.next('welcome');
    return client;
  }

  send(message: ClientMessageInput): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.socket.send(data, { binary });
  }

  /** The next message of `type` (after the previous one returned), skipping others. */
  next<T extends ServerMessage['type']>(type: T, match: (message: ServerMessageOf<T>) => boolean = () => true, ms = 5000): Promise<ServerMessageOf<T>> {
    return this.nextWhere((message): message is ServerMessageOf<T> => message.type === type && match(message as ServerMessageOf<T>), type, ms);
  }

  /** The next message `accept` takes (after the previous one returned), skipping others. */
  async nextWhere<M extends ServerMessage>(accept: (message: ServerMessage) => message is M, what: string, ms = 5000): Promise<M> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.offContract.length > 0) throw new Error(`the server sent a message outside the contract: ${this.offContract[0]}`);
      while (this.cursor < this.messages.length) {
        const message = this.messages[this.cursor++]!;
        if (accept(message)) return message;
      }
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the server closes the socket. */
  async whenClosed(ms = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('socket still open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  /** A round trip: everything the server sent before its pong has arrived. */
  async settle(): Promise<void> {
    this.send({ type: 'ping' });
    await this.next('pong');
  }

  /** Messages of `type` received so far (all of them, not just after the cursor). */
  all<T extends ServerMessage['type']>(type: T): ServerMessageOf<T>[] {
    return this.messages.filter((message) => message.type === type) as ServerMessageOf<T>[];
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
