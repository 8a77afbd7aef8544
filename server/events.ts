/**
 * Domain events: what became true, announced once the write that makes it true is stored. A
 * service emits; statistics, analyses (and later ratings, moderation) subscribe, so what
 * happens when a game ends or a race finishes is added without touching who ends it. The
 * stream is in-process: with several instances, the instance whose write made the change emits
 * (a conditional write tells it so), so every event is emitted once across the deployment.
 */
import type { EndState, GameAnalysis, GameKind, PlayerView, StandingView } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';

/** Every event by its type, with what it carries. */
export interface DomainEventMap {
  /** A game stopped for good (won, out of moves, resigned, timed out, abandoned). */
  'game-ended': {
    readonly gameId: number;
    readonly kind: GameKind;
    readonly playerId: number;
    readonly raceId: number | null;
    readonly variant: VariantId;
    readonly state: EndState;
    readonly foundations: number;
    readonly moves: number;
    readonly startedAt: number;
    readonly finishedAt: number;
  };
  /** A race's standings were stored: every racer's game has ended. */
  'race-finished': {
    readonly raceId: number;
    readonly code: string;
    readonly finishedAt: number;
    /** Best first, as stored. */
    readonly standings: readonly StandingView[];
    /** Whether its result moves the racers' ratings (applied a moment later: race-rated). */
    readonly rated: boolean;
  };
  /** A rated race's new ratings were stored (once per race, across instances). */
  'race-rated': { readonly raceId: number };
  /** A player identity was made (a name given a token). */
  'player-created': { readonly player: PlayerView };
  /** A device's token was ended: its sockets close, wherever they are connected. */
  'device-signed-out': { readonly playerId: number; readonly deviceId: number };
  /** A day's daily deal closed (00:00 UTC): its seed and its attempts are public now. */
  'daily-closed': { readonly day: string };
  /** A game's analysis was stored (analyses.ts): fair play measures the game from it. */
  'game-analysed': { readonly gameId: number; readonly playerId: number; readonly analysis: GameAnalysis };
  /**
   * An operator banned a player (moderation.ts): their identity is refused, their sockets are
   * closed on every instance and their lobby seats freed; the quick-race pool drops them, and
   * ratings are recomputed without them.
   */
  'player-banned': { readonly playerId: number; readonly at: number };
  /**
   * The quick-race pool seated waiting players in a new race (stored by the one transaction that
   * claims their entries, so once across instances): when each had joined, for how long they waited.
   */
  'quick-race-formed': {
    readonly raceId: number;
    readonly code: string;
    readonly variant: VariantId;
    readonly formedAt: number;
    /** In seat order. */
    readonly racers: readonly { readonly playerId: number; readonly joinedAt: number }[];
  };
  /** An operator lifted a player's ban: their results are back on the boards (and in ratings). */
  'player-unbanned': { readonly playerId: number; readonly at: number };
}

export type DomainEventType = keyof DomainEventMap;
export type DomainEvent<K extends DomainEventType = DomainEventType> = { [T in K]: { readonly type: T } & DomainEventMap[T] }[K];
export type DomainListener<K extends DomainEventType> = (event: DomainEvent<K>) => void;

/**
 * The stream. Listeners run synchronously, in the order they subscribed, right after the write:
 * a listener that needs storage starts its own work and must not throw into the emitter (a
 * failing one is reported and the others still run).
 */
export class DomainEvents {
  private readonly listeners = new Map<DomainEventType, DomainListener<never>[]>();

  /** `failed` hears of a listener that threw. */
  constructor(private readonly failed: (error: unknown, event: DomainEvent) => void) {}

  on<K extends DomainEventType>(type: K, listener: DomainListener<K>): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener as DomainListener<never>]);
  }

  emit<K extends DomainEventType>(event: DomainEvent<K>): void {
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        (listener as DomainListener<K>)(event);
      } catch (error) {
        this.failed(error, event as DomainEvent);
      }
    }
  }
}
