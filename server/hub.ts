import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { SIGNED_OUT_CLOSE, type PlayerView, type ServerMessage } from '../contract/index.js';
import type { Transport } from './ports.js';

/** A connected socket and what it is subscribed to. `player` is null for an anonymous spectator. */
export interface Peer {
  readonly socket: WebSocket;
  readonly player: PlayerView | null;
  /** The signed-in device whose token opened it (null for a spectator). */
  readonly device: number | null;
  readonly watching: Set<string>;
}

/** A socket that lets this much pile up unread is too slow to keep: it is dropped. */
const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Who is connected and what they watch: sends a message to a player's sockets (every tab) or
 * to a race's watchers, serialising it once.
 */
export class Hub implements Transport {
  private readonly byPlayer = new Map<number, Set<Peer>>();
  private readonly byRace = new Map<string, Set<Peer>>();
  private readonly presenceListeners: ((playerId: number, connected: boolean) => void)[] = [];
  private readonly watchedListeners: ((code: string, watched: boolean) => void)[] = [];

  /** `listener` is told when a player's first socket (on this instance) opens or last socket closes. */
  onPresence(listener: (playerId: number, connected: boolean) => void): void {
    this.presenceListeners.push(listener);
  }

  /** `listener` is told when a race gets its first watcher on this instance, or loses its last. */
  onWatched(listener: (code: string, watched: boolean) => void): void {
    this.watchedListeners.push(listener);
  }

  add(peer: Peer): void {
    if (!peer.player) return;
    const peers = this.byPlayer.get(peer.player.id) ?? new Set();
    peers.add(peer);
    this.byPlayer.set(peer.player.id, peers);
    if (peers.size === 1) this.presenceChanged(peer.player.id, true);
  }

  remove(peer: Peer): void {
    for (const code of peer.watching) this.unwatch(peer, code);
    if (!peer.player) return;
    const peers = this.byPlayer.get(peer.player.id);
    if (!peers?.delete(peer)) return;
    if (peers.size === 0) {
      this.byPlayer.delete(peer.player.id);
      this.presenceChanged(peer.player.id, false);
    }
  }

  watch(peer: Peer, code: string): void {
    peer.watching.add(code);
    const peers = this.byRace.get(code);
    if (peers) return void peers.add(peer);
    this.byRace.set(code, new Set([peer]));
    for (const listener of this.watchedListeners) listener(code, true);
  }

  unwatch(peer: Peer, code: string): void {
    peer.watching.delete(code);
    const peers = this.byRace.get(code);
    if (!peers?.delete(peer) || peers.size > 0) return;
    this.byRace.delete(code);
    for (const listener of this.watchedListeners) listener(code, false);
  }

  /** Whether a race has a watcher on this instance. */
  isWatched(code: string): boolean {
    return this.byRace.has(code);
  }

  isConnected(playerId: number): boolean {
    return this.byPlayer.has(playerId);
  }

  /** How many players have a socket open on this instance. */
  onlineCount(): number {
    return this.byPlayer.size;
  }

  /** The players with a socket on this instance. */
  connectedPlayers(): IterableIterator<number> {
    return this.byPlayer.keys();
  }

  /** Closes a player's sockets here (a ban): `code` and `reason` tell the client why. */
  closePlayer(playerId: number, code: number, reason: string): void {
    for (const peer of this.byPlayer.get(playerId) ?? []) peer.socket.close(code, reason);
  }

  toPlayer(playerId: number, message: ServerMessage): void {
    this.sendAll(this.byPlayer.get(playerId), message);
  }

  /** To a player's sockets, written now with whatever this turn held for them: an ack must not wait for the turn's other work. */
  toPlayerNow(playerId: number, message: ServerMessage): void {
    const peers = this.byPlayer.get(playerId);
    this.sendAll(peers, message);
    for (const peer of peers ?? []) release(peer.socket);
  }

  toRace(code: string, message: ServerMessage): void {
    this.sendAll(this.byRace.get(code), message);
  }

  /** Closes the sockets here of a device just signed out: its token opened them and is no longer good. */
  closeDevice(playerId: number, deviceId: number): void {
    for (const peer of this.byPlayer.get(playerId) ?? []) {
      if (peer.device === deviceId) peer.socket.close(SIGNED_OUT_CLOSE, 'signed out');
    }
  }

  /** A message already serialised (it came from another instance) to a player's sockets here. */
  toPlayerText(playerId: number, text: string): void {
    for (const peer of this.byPlayer.get(playerId) ?? []) sendText(peer.socket, text);
  }

  /** A message already serialised to a race's watchers here. */
  toRaceText(code: string, text: string): void {
    const peers = this.byRace.get(code);
    if (!peers || peers.size === 0) return;
    const data = Buffer.from(text);
    for (const peer of peers) sendText(peer.socket, data);
  }

  private presenceChanged(playerId: number, connected: boolean): void {
    for (const listener of this.presenceListeners) listener(playerId, connected);
  }

  private sendAll(peers: Set<Peer> | undefined, message: ServerMessage): void {
    if (!peers || peers.size === 0) return;
    // Encoded once: every socket's frame points at the same bytes, not a copy each.
    const data = peers.size === 1 ? JSON.stringify(message) : Buffer.from(JSON.stringify(message));
    for (const peer of peers) sendText(peer.socket, data);
  }
}

export function send(socket: WebSocket, message: ServerMessage): void {
  sendText(socket, JSON.stringify(message));
}

/** A text frame (`data` a string or its UTF-8 bytes). */
function sendText(socket: WebSocket, data: string | Buffer): void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.terminate();
    return;
  }
  holdUntilTurnEnds(socket);
  socket.send(data, { binary: false });
}

/** TCP sockets holding the frames written to them during this turn of the event loop. */
const held = new Set<Duplex>();

/**
 * Each frame written at once costs a system call of its own, the largest share of a move's time
 * (a move sends the ack and progress to every racer watching, and under load a socket gets
 * several frames per turn). A socket corked until the turn's immediates run sends everything it
 * got in that turn in one write, in order, with no timer: the frames leave as soon as the
 * turn's work is done. An ack is the exception: the player is waiting on it, so `toPlayerNow`
 * writes it (after anything held for that socket) at once. (`_socket` is ws's TCP socket;
 * without it a frame is written at once.)
 */
function holdUntilTurnEnds(socket: WebSocket): void {
  const tcp = (socket as WebSocket & { _socket?: Duplex })._socket;
  if (!tcp || held.has(tcp)) return;
  if (held.size === 0) setImmediate(releaseHeld);
  tcp.cork();
  held.add(tcp);
}

function release(socket: WebSocket): void {
  const tcp = (socket as WebSocket & { _socket?: Duplex })._socket;
  if (tcp && held.delete(tcp)) tcp.uncork();
}

function releaseHeld(): void {
  for (const tcp of held) tcp.uncork();
  held.clear();
}
