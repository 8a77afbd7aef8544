import { Connection, type ConnectionState } from './connection.js';
import { getPool, joinPool, leavePool } from './api.js';
import { routePath, type LobbyView, type PoolStatus, type ServerMessage } from './contract.js';
import type { VariantId } from './engine.js';
import { identity } from './identity.svelte.js';

/** A pool status the player should read about: why they are no longer waiting (`gone`: the pool was restarted under them). */
export type PoolNotice = 'expired' | 'removed' | 'gone' | null;

/**
 * The start page's live lobby and this player's place in the quick-race pool, over one socket:
 * `lobby {on: true}` on every (re)open, `lobby` and `pool` messages as they come. After a
 * reconnect a player who was waiting asks where they stand: reading `none` then means the pool
 * they waited in is gone (a restart), and they are told so.
 */
export class LobbySession {
  lobby = $state.raw<LobbyView | null>(null);
  pool = $state.raw<PoolStatus | null>(null);
  notice = $state<PoolNotice>(null);
  connection = $state<ConnectionState>('connecting');
  serverOffset = 0;
  private socket: Connection;
  /** The token the socket was opened with: the pool seats only players whose socket says who they are. */
  private token: string | null = identity.token;
  private opened = false;

  constructor(private readonly onPaired: (code: string) => void) {
    this.socket = this.connect();
  }

  /** Opens the socket again as the player now named (a visitor who just chose a name, or another identity). */
  reidentify(token: string | null): void {
    if (token === this.token) return;
    this.token = token;
    this.socket.close();
    this.opened = false;
    this.socket = this.connect();
  }

  private connect(): Connection {
    return new Connection(() => routePath('socket', {}, { token: identity.token ?? undefined }), {
      onOpen: () => {
        this.socket.send({ type: 'lobby', on: true });
        if (this.opened || identity.player) void this.refresh(this.opened);
        this.opened = true;
      },
      onMessage: (message) => this.receive(message),
      onState: (state) => (this.connection = state),
    });
  }

  close(): void {
    this.socket.close();
  }

  async join(variant: VariantId): Promise<void> {
    this.notice = null;
    this.show((await joinPool(variant)).pool);
  }

  async leave(): Promise<void> {
    this.show((await leavePool()).pool);
  }

  /** Reads where this player stands; after a reconnect, a wait that vanished is told. */
  private async refresh(reconnected: boolean): Promise<void> {
    if (!identity.player) return;
    const wasWaiting = this.pool?.state === 'waiting';
    try {
      const { pool } = await getPool();
      if (reconnected && wasWaiting && pool.state === 'none') this.notice = 'gone';
      this.show(pool);
    } catch {
      // Offline: the next open asks again.
    }
  }

  private receive(message: ServerMessage): void {
    if (message.type === 'lobby') {
      this.lobby = message.lobby;
      this.serverOffset = message.serverTime - Date.now();
    } else if (message.type === 'pool') this.show(message.pool);
  }

  private show(pool: PoolStatus): void {
    if (pool.state === 'expired' || pool.state === 'removed') this.notice = pool.state;
    this.pool = pool;
    if (pool.state === 'paired' && pool.race) this.onPaired(pool.race);
  }
}
