import {
  routePath,
  type AckBody,
  type ClientMessageInput,
  type ErrorMessage,
  type GameStatus,
  type PlayerView,
  type ServerMessage,
  type ServerMessageOf,
} from './contract.js';
import { Connection, type ConnectionState } from './connection.js';
import {
  applyAction,
  makeAction,
  parseAction,
  parseLayout,
  replayRecord,
  type Action,
  type Layout,
  type Position,
  type Result,
  type VariantId,
} from './engine.js';
import { identity } from './identity.svelte.js';
import { t } from './i18n.svelte.js';
import { problemWords } from './moves.js';
import { refusalText } from './refusals.js';

/** An action sent and not yet acknowledged. */
interface Pending {
  readonly index: number;
  readonly text: string;
  readonly action: Action;
}

/** The player's own game as the server has acknowledged it. */
export interface OwnGame {
  readonly id: number;
  readonly variant: VariantId;
  readonly startedAt: number;
  readonly deals: readonly Layout[];
  /** The position after every acknowledged action. */
  readonly confirmed: Position;
  readonly actions: readonly string[];
  readonly status: GameStatus;
}

export type GameMessage = ServerMessageOf<'game'>;

/** What `OwnGame` plays on the player's board: a session over the socket, or practice's game made in the page. */
export interface PlayedGame {
  /** What the board shows, null until the game is known. */
  readonly position: Position | null;
  /** The actions offered now (none while a move is on its way or the game is over). */
  readonly legal: readonly Action[];
  /** Whether the player may still move (else the board is a view). */
  readonly playing: boolean;
  /** A refusal or loss to show in the board's message line. */
  readonly notice: string | null;
  act(action: Action): void;
}

/**
 * One ranked game of this player over the websocket, whatever it belongs to (a race seat, the
 * daily seed). Moves show at once (optimistic) and are reconciled with the server's acks: an
 * ack confirms, an error rolls back to the acknowledged position and resyncs, a dropped socket
 * reconnects, resubscribes and resends what was never acknowledged. A subclass says how to
 * subscribe, which `game` snapshots are its own, and when moves may be made.
 */
export abstract class GameSession implements PlayedGame {
  game = $state.raw<OwnGame | null>(null);
  pending = $state.raw<readonly Pending[]>([]);
  connection = $state<ConnectionState>('connecting');
  /** The last refusal from the server, in words. */
  notice = $state<string | null>(null);
  me = $state.raw<PlayerView | null>(identity.player);
  /** Server clock minus ours, in ms. */
  private clockOffset = 0;
  private socket: Connection | null = null;

  /** What the board shows: the acknowledged position plus the moves still waiting for their ack. */
  readonly position = $derived.by((): Position | null => {
    if (!this.game) return null;
    let position = this.game.confirmed;
    for (const { action } of this.pending) {
      if (action.type === 'redeal') break; // its layout comes with the ack
      const next = applyAction(position, action);
      if (!next.ok) break;
      position = next.value;
    }
    return position;
  });
  readonly redealing = $derived(this.pending.some((pending) => pending.action.type === 'redeal'));
  readonly playing = $derived(this.game?.status.state === 'playing' && this.accepting());
  readonly legal = $derived(this.playing && !this.redealing && this.position ? this.position.legalActions() : []);

  /** Sends what a freshly opened socket needs to receive this game (again). */
  protected abstract subscribe(): void;
  /** Whether a `game` snapshot is this session's game. */
  protected abstract owns(message: GameMessage): boolean;
  /** The server and this page disagree about the game: get the whole game again. */
  protected abstract reload(): void;
  /** Whether moves may be made now, besides the game itself still being played. */
  protected accepting(): boolean {
    return true;
  }

  /** The server's clock now (for countdowns and timers). */
  serverNow(now = Date.now()): number {
    return now + this.clockOffset;
  }

  /** Opens the socket; subclasses call it once their own fields are set. */
  protected open(): void {
    // The token is read at every attempt: one the server refused (and api.ts forgot) is not retried forever.
    this.socket = new Connection(() => routePath('socket', {}, { token: identity.token ?? undefined }), {
      onOpen: () => this.subscribe(),
      onMessage: (message) => this.receive(message),
      onState: (state) => (this.connection = state),
    });
  }

  /** Reopens the socket as the current identity (after the player got a name on this page). */
  reconnect(): void {
    this.socket?.close();
    this.me = identity.player;
    this.open();
  }

  close(): void {
    this.socket?.close();
  }

  act(action: Action): void {
    const game = this.game;
    if (!game || !this.playing || this.redealing) return;
    const pending: Pending = { index: game.actions.length + this.pending.length, text: makeAction(action), action };
    this.pending = [...this.pending, pending];
    this.notice = null;
    this.sendAction(game, pending);
  }

  resign(): void {
    if (this.game && this.playing) this.send({ type: 'resign', gameId: this.game.id });
  }

  protected send(message: ClientMessageInput): boolean {
    return this.socket?.send(message) ?? false;
  }

  /** Asks for the acks after the last one held (and, from a server ahead of us, the whole game). */
  protected resync(): void {
    if (this.game) this.send({ type: 'resync', gameId: this.game.id, lastIndex: this.game.actions.length - 1 });
  }

  private sendAction(game: OwnGame, pending: Pending): void {
    this.send({ type: 'action', gameId: game.id, index: pending.index, action: pending.text });
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'welcome':
        this.me = message.player;
        this.setClock(message.serverTime);
        break;
      case 'game':
        if (this.owns(message)) this.load(message);
        break;
      case 'ack':
        if (message.gameId === this.game?.id) this.applyAcks([message]);
        break;
      case 'resynced':
        if (message.gameId !== this.game?.id) return;
        this.applyAcks(message.acks);
        if (this.game) this.game = { ...this.game, status: message.status };
        this.resendPending();
        break;
      case 'game-over':
        if (message.gameId !== this.game?.id) return;
        this.game = { ...this.game, status: message.status };
        this.pending = [];
        break;
      case 'error':
        this.refused(message);
        break;
      case 'pong':
        this.setClock(message.serverTime);
        break;
      default:
        break;
    }
  }

  protected setClock(serverTime: number): void {
    this.clockOffset = serverTime - Date.now();
  }

  /** A full snapshot of the game (on subscribing, at the start, on reconnect): rebuild it with the engine. */
  load(message: GameMessage): void {
    const deals: Layout[] = [];
    for (const fans of message.deals) {
      const layout = parseLayout(fans);
      if (!layout.ok) return void (this.notice = t('session.bad-layout', { detail: problemWords(layout.error) }));
      deals.push(layout.value);
    }
    const replay = replayRecord({ variant: message.variant, deals, actions: message.actions });
    if (!replay.ok) return void (this.notice = t('session.not-rebuilt', { detail: problemWords(replay.error.problem) }));
    this.game = {
      id: message.gameId,
      variant: message.variant,
      startedAt: message.startedAt,
      deals,
      confirmed: replay.value,
      actions: message.actions,
      status: message.status,
    };
    this.resendPending();
  }

  private applyAcks(acks: readonly AckBody[]): void {
    let game = this.game;
    if (!game) return;
    for (const ack of acks) {
      if (ack.index < game.actions.length) continue; // already held: a repeated ack
      if (ack.index > game.actions.length) {
        this.send({ type: 'resync', gameId: game.id, lastIndex: game.actions.length - 1 });
        break;
      }
      const action = parseAction(ack.action);
      const layout = ack.layout ? parseLayout(ack.layout) : undefined;
      const next: Result<Position, unknown> | undefined =
        action.ok && (!layout || layout.ok) ? applyAction(game.confirmed, action.value, layout?.ok ? layout.value : undefined) : undefined;
      if (!next?.ok) {
        this.reload();
        break;
      }
      const position: Position = next.value;
      game = {
        ...game,
        confirmed: position,
        actions: [...game.actions, ack.action],
        deals: layout?.ok ? [...game.deals, layout.value] : game.deals,
        status: { ...game.status, nextIndex: game.actions.length + 1, foundations: position.foundationCount(), redealsUsed: position.redealsUsed },
      };
    }
    this.game = game;
    this.settlePending();
  }

  /** Drops the pending actions the server now holds; any disagreement drops them all. */
  private settlePending(): void {
    const game = this.game;
    if (!game || this.pending.length === 0) return;
    const held = game.actions.length;
    const rest = this.pending.filter((pending) => pending.index >= held);
    const agreed = this.pending.every((pending) => pending.index >= held || game.actions[pending.index] === pending.text);
    this.pending = agreed && (rest.length === 0 || rest[0]!.index === held) ? rest : [];
  }

  private resendPending(): void {
    this.settlePending();
    const game = this.game;
    if (game && game.status.state === 'playing') for (const pending of this.pending) this.sendAction(game, pending);
    else this.pending = [];
  }

  private refused(error: ErrorMessage): void {
    // An illegal move says which rule, from the engine's problem; every other refusal is written from its code.
    this.notice = error.code === 'illegal-action' ? problemWords(error.params.problem) : refusalText(error.code, error.message);
    const game = this.game;
    if (!game || (error.request !== 'action' && error.gameId !== game.id)) return;
    if (error.code === 'server-closing') return; // kept, and resent once reconnected
    // Nothing was applied: fall back to the acknowledged position and make sure it is current.
    this.pending = [];
    this.resync();
  }
}
