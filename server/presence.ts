/**
 * Presence: where a racer is, computed on the server from their sockets (kept honest by the
 * websocket heartbeat, which closes half-open connections) and the stored time their last socket
 * closed, so every viewer sees the same thing.
 */
import type { PresenceView } from '../contract/index.js';

export interface PresenceFacts {
  /** An open socket right now. */
  readonly connected: boolean;
  /** When their last socket closed (null while connected or never seen disconnected). */
  readonly goneSince: number | null;
  /** Whether the grace period still runs for them: a seat in a lobby, or a game still being played. */
  readonly stakes: boolean;
  /** Finished as `abandoned`: gone for good, whatever their sockets do later. */
  readonly abandoned: boolean;
}

export function presenceOf(facts: PresenceFacts, graceMs: number): PresenceView {
  if (facts.abandoned) return { state: 'gone', since: facts.goneSince, until: null };
  if (facts.connected) return { state: 'online', since: null, until: null };
  // Nothing left to lose (their game is over, or the race is): they have simply gone.
  if (!facts.stakes || facts.goneSince === null) return { state: 'gone', since: facts.goneSince, until: null };
  return { state: 'reconnecting', since: facts.goneSince, until: facts.goneSince + graceMs };
}
