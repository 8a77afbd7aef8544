/**
 * Every race and lobby ends. This module holds the rules that end them when people do not:
 * - a racer without an open socket for the grace period loses their lobby seat, or, in a race,
 *   is finished as `abandoned` at the moment they left (cards home then, ranked as a
 *   resignation);
 * - a lobby whose creator leaves or loses their seat passes to the next racer in seat order; a
 *   lobby with nobody left, or not started within the lobby limit, is closed;
 * - the creator can remove a racer or cancel the lobby, and anyone can leave it.
 * Every deadline is stored (race_entries.gone_since, races.lobby_closes_at, games.deadline for
 * time limits and the hard cap), so timers are only a way to act on time: after a restart they
 * are armed again from the database and a deadline already past acts at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import { STORAGE_RETRY_MS } from './db/index.js';
import { Refusal } from './errors.js';
import type { GameService } from './games.js';
import { releaseTimer, soleOwner, type TimerOwner } from './ownership.js';
import { after, recovering, type Pending, type Transport } from './ports.js';
import type { ClosedReason, PlayerView, RaceEvent } from '../contract/index.js';
import type { PlayerStore, RaceRow, RaceStore } from './stores.js';

export interface LifecycleRules {
  /** Without a socket this long, a racer loses their lobby seat or is finished as abandoned. */
  graceMs: number;
  /** A lobby not started this long after its creation is closed. */
  lobbyLimitMs: number;
  /** A race without a time limit still ends this long after its deal. */
  hardCapMs: number;
}

export const DEFAULT_LIFECYCLE_RULES: LifecycleRules = { graceMs: 60_000, lobbyLimitMs: 3_600_000, hardCapMs: 86_400_000 };

/** What the lifecycle needs of the race service: telling a race's watchers. */
/**
 * How long after its end a race's standings still hear of its racers' comings and goings: while
 * people look at them (and answer a rematch), not for every race a player ever finished.
 */
export const STANDINGS_PRESENCE_MS = 3_600_000;

export interface RaceAnnouncer {
  /** Sends the race's current view to its watchers. */
  broadcastView(code: string): Promise<unknown>;
  /** Sends an event to the race's watchers (then the view). */
  announce(code: string, event: RaceEvent): void;
}


export class RaceLifecycle {
  /** Grace timers by `raceId:playerId`, lobby limits by race id. */
  private readonly graceTimers = new Map<string, () => void>();
  private readonly lobbyTimers = new Map<number, () => void>();

  constructor(
    private readonly store: RaceStore,
    private readonly players: PlayerStore,
    private readonly games: GameService,
    private readonly transport: Transport,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    readonly rules: LifecycleRules,
    private readonly announcer: RaceAnnouncer,
    /** Grace periods and lobby limits are timers of the timer owner (ownership.ts). */
    private readonly owner: TimerOwner = soleOwner(clock),
  ) {
    transport.onPresence((playerId, connected) => void this.presenceChanged(playerId, connected));
  }

  /**
   * After a restart nobody is connected: everyone with something at stake is gone from now (or
   * from when they left, if stored). Taking over from another instance, the presence changes
   * nobody owned meanwhile are stored too, and told to the watchers of their races.
   */
  async resume(): Promise<void> {
    const now = this.clock.now();
    for (const race of await this.store.inState('lobby')) this.armLobbyLimit(race);
    const changed = new Set<number>();
    for (const entry of await this.store.liveEntries()) {
      if (this.transport.isConnected(entry.playerId)) {
        // Back while nobody owned the timers.
        if (entry.goneSince === null) continue;
        await this.recordGoneSince(entry.raceId, entry.playerId, null);
        changed.add(entry.raceId);
        continue;
      }
      const since = entry.goneSince ?? now;
      this.armGrace(entry.raceId, entry.playerId, since);
      if (entry.goneSince !== null) continue;
      await this.recordGoneSince(entry.raceId, entry.playerId, since);
      changed.add(entry.raceId);
    }
    // A single instance resumes at start, before any watcher.
    if (!this.owner.shared) return;
    for (const raceId of changed) {
      const race = await this.store.byId(raceId);
      if (race) await this.announcer.broadcastView(race.code);
    }
  }

  /** On the timer owner, for a race changed elsewhere: its lobby limit and its racers' grace periods, from what is stored. */
  async rearm(race: RaceRow): Promise<void> {
    if (race.state === 'lobby') this.armLobbyLimit(race);
    else this.started(race.id);
    if (race.state !== 'lobby' && race.state !== 'countdown' && race.state !== 'running') return;
    for (const entry of await this.store.entries(race.id)) {
      if (entry.goneSince !== null && !this.transport.isConnected(entry.playerId)) {
        this.armGrace(race.id, entry.playerId, entry.goneSince);
      } else {
        this.graceTimers.get(key(race.id, entry.playerId))?.();
        this.graceTimers.delete(key(race.id, entry.playerId));
      }
    }
  }

  /**
   * On the timer owner, each rescan round: lobby limits, and the grace periods of racers stored as
   * gone, armed where this instance has none. Nothing is written and no grace period starts: a
   * racer stored as connected may only be one whose leaving has not reached this instance yet.
   */
  async rescan(): Promise<void> {
    for (const race of await this.store.inState('lobby')) {
      if (!this.lobbyTimers.has(race.id)) this.armLobbyLimit(race);
    }
    for (const { raceId, playerId, goneSince } of await this.store.goneEntries()) {
      if (!this.graceTimers.has(key(raceId, playerId)) && !this.transport.isConnected(playerId)) this.armGrace(raceId, playerId, goneSince);
    }
  }

  close(): void {
    for (const cancel of [...this.graceTimers.values(), ...this.lobbyTimers.values()]) cancel();
    this.graceTimers.clear();
    this.lobbyTimers.clear();
  }

  /** A racer was just seated (created or joined): without a socket their grace period starts now. */
  async seated(race: RaceRow, playerId: number): Promise<void> {
    if (race.state === 'lobby' && !this.lobbyTimers.has(race.id)) this.armLobbyLimit(race);
    if (!this.transport.isConnected(playerId)) {
      const now = this.clock.now();
      this.armGrace(race.id, playerId, now);
      await this.recordGoneSince(race.id, playerId, now);
    }
    this.owner.changed({ raceId: race.id });
  }

  /** The countdown ended: lobby limits no longer apply. */
  started(raceId: number): void {
    this.lobbyTimers.get(raceId)?.();
    this.lobbyTimers.delete(raceId);
  }

  /** Frees `player`'s lobby seat at their own request. */
  async leave(player: PlayerView, race: RaceRow): Promise<void> {
    this.mustBeLobby(race, 'leave');
    await this.mustBeSeated(race, player.id, 'you are not seated in race ' + race.code);
    if (!(await this.unseat(race, player, 'left'))) await this.stillLobby(race, 'leave');
  }

  /** The creator removes a racer from the lobby. */
  async kick(creator: PlayerView, race: RaceRow, playerId: number): Promise<void> {
    if (race.creatorId !== creator.id) throw new Refusal('not-creator', 'only the creator of the race can remove a racer', { params: { race: race.code } });
    this.mustBeLobby(race, 'remove racers from');
    if (playerId === creator.id) throw new Refusal('cannot-kick-self', 'you cannot remove yourself: leave the race instead', { field: 'playerId', params: { race: race.code } });
    await this.mustBeSeated(race, playerId, `player ${playerId} has no seat in race ${race.code}`, 'playerId');
    if (!(await this.unseat(race, await this.playerOf(playerId), 'kicked'))) await this.stillLobby(race, 'remove racers from');
  }

  /** The creator cancels the lobby: nobody can join or start it any more. */
  async cancel(creator: PlayerView, race: RaceRow): Promise<void> {
    if (race.creatorId !== creator.id) throw new Refusal('not-creator', 'only the creator of the race can cancel it', { params: { race: race.code } });
    this.mustBeLobby(race, 'cancel');
    await this.closeLobby(race, 'cancelled', creator);
  }

  private async presenceChanged(playerId: number, connected: boolean): Promise<void> {
    // At shutdown every socket closes: that is no one leaving. With several instances each hears
    // of every change (shared presence): the timer owner alone stores it, arms the grace period
    // and sends the race view, which reaches the watchers of every instance; a change while
    // nobody owns the timers is stored and told at the takeover (resume).
    if (this.games.closing || !this.owner.isOwner) return;
    try {
      const now = this.clock.now();
      for (const race of await this.store.liveRacesOf(playerId)) {
        if (connected) {
          this.graceTimers.get(key(race.id, playerId))?.();
          this.graceTimers.delete(key(race.id, playerId));
          await this.recordGoneSince(race.id, playerId, null);
        } else {
          this.armGrace(race.id, playerId, now);
          await this.recordGoneSince(race.id, playerId, now);
        }
        await this.announcer.broadcastView(race.code);
      }
      // Nothing is at stake in a finished race: its standings are only told who is still there.
      for (const race of await this.store.finishedRacesOf(playerId, now - STANDINGS_PRESENCE_MS)) await this.announcer.broadcastView(race.code);
    } catch (error) {
      this.log.error({ err: error, playerId }, 'cannot record a presence change');
    }
  }

  /** The timer of a grace period: the timers, not the stored time, decide (a full disk may have refused to store it). */
  private armGrace(raceId: number, playerId: number, since: number, delayMs = since + this.rules.graceMs - this.clock.now()): void {
    const id = key(raceId, playerId);
    this.graceTimers.get(id)?.();
    const timer = this.owner.clock.setTimer(delayMs, () => {
      const over = recovering(
        () => this.graceOver(raceId, playerId, since),
        (error) => {
          const code = this.games.storageFailure(error);
          this.log.error({ err: error, code, raceId, playerId }, code ? 'cannot store the end of a grace period: retrying' : 'cannot end a grace period');
          if (code !== undefined) this.armGrace(raceId, playerId, since, STORAGE_RETRY_MS);
        },
      );
      // Held while it acts: a rescan meanwhile, reading the racer still gone, leaves it alone.
      void after(over, () => releaseTimer(this.graceTimers, id, timer));
    });
    this.graceTimers.set(id, timer);
  }

  /** A grace period that began at `since` ran out: unless the racer came back, their seat or their game ends. */
  private async graceOver(raceId: number, playerId: number, since: number): Promise<void> {
    if (this.games.closing || this.transport.isConnected(playerId)) return;
    const race = await this.store.byId(raceId);
    const entry = await this.store.entry(raceId, playerId);
    if (!race || !entry) return;
    // Shared by instances, the stored time decides: none means they came back, wherever that was;
    // a later one, that they left again since.
    if (this.owner.shared) {
      if (entry.goneSince === null) return;
      if (entry.goneSince > since) return this.armGrace(raceId, playerId, entry.goneSince);
    }
    const goneSince = entry.goneSince ?? since;
    if (race.state === 'lobby') {
      await this.unseat(race, await this.playerOf(playerId), 'unseated');
      return;
    }
    if (race.state === 'countdown') {
      // Dealt in a moment: judge them once their game exists.
      this.armGrace(raceId, playerId, Math.max(goneSince, race.startsAt! + 1 - this.rules.graceMs));
      return;
    }
    if (race.state !== 'running') return;
    const gameId = await this.store.gameIdOf(raceId, playerId);
    if (gameId === undefined) return;
    const game = await this.games.current(gameId);
    if (!game || game.state !== 'playing') return;
    // Told only by the write that ended the game: an owner whose lease ran out may be ending it too.
    if (await this.games.abandon(game, goneSince)) this.announcer.announce(race.code, { kind: 'abandoned', player: await this.playerOf(playerId), at: this.clock.now() });
  }

  private armLobbyLimit(race: RaceRow, delayMs = (race.lobbyClosesAt ?? race.createdAt + this.rules.lobbyLimitMs) - this.clock.now()): void {
    this.lobbyTimers.get(race.id)?.();
    const timer = this.owner.clock.setTimer(delayMs, () => {
      const closed = recovering(
        () => after(this.store.byId(race.id), (now) => (now?.state === 'lobby' ? this.closeLobby(now, 'expired', null) : undefined)),
        (error) => {
          const code = this.games.storageFailure(error);
          this.log.error({ err: error, code, raceId: race.id }, code ? 'cannot store the close of an expired lobby: retrying' : 'cannot close an expired lobby');
          if (code !== undefined) this.armLobbyLimit(race, STORAGE_RETRY_MS);
        },
      );
      // Held while it acts, as a grace period.
      void after(closed, () => releaseTimer(this.lobbyTimers, race.id, timer));
    });
    this.lobbyTimers.set(race.id, timer);
  }

  /**
   * Frees a lobby seat; a creator's lobby passes to the next racer in seat order, an empty one
   * closes. Whether it did: a seat freed, or a lobby started, meanwhile (another request, another
   * instance, a stale timer owner) is left as it is, and told by whoever changed it.
   */
  private async unseat(race: RaceRow, player: PlayerView, kind: 'left' | 'kicked' | 'unseated'): Promise<boolean> {
    const now = this.clock.now();
    const freed = await this.store.unseat(race.id, player.id);
    this.graceTimers.get(key(race.id, player.id))?.();
    this.graceTimers.delete(key(race.id, player.id));
    if (!freed) return false;
    // The one removed is told too: they may still be watching.
    this.announcer.announce(race.code, { kind, player, at: now });
    if (freed.heir === null) {
      await this.closeLobby(race, 'empty', null);
      return true;
    }
    if (freed.heir) this.announcer.announce(race.code, { kind: 'creator-changed', player: freed.heir, at: now });
    await this.announcer.broadcastView(race.code);
    return true;
  }

  /** After a seat that could not be freed: refused if the race started or closed meanwhile (else the seat was freed already). */
  private async stillLobby(race: RaceRow, what: string): Promise<void> {
    const now = await this.store.byId(race.id);
    if (now) this.mustBeLobby(now, what);
  }

  private async closeLobby(race: RaceRow, reason: ClosedReason, by: PlayerView | null): Promise<void> {
    // Started or closed meanwhile (by another instance, or a stale timer owner): nothing to close or tell.
    if (!(await this.store.transition(race.id, 'lobby', { state: 'closed', closedReason: reason, finishedAt: this.clock.now() }))) return;
    this.started(race.id);
    for (const entry of await this.store.entries(race.id)) {
      this.graceTimers.get(key(race.id, entry.playerId))?.();
      this.graceTimers.delete(key(race.id, entry.playerId));
    }
    this.announcer.announce(race.code, { kind: reason === 'cancelled' ? 'cancelled' : 'closed', player: by, at: this.clock.now() });
    await this.announcer.broadcastView(race.code);
  }

  /** Stores when a racer left (null: back), for the race view and for a restart; a storage failure only costs that record. */
  private async recordGoneSince(raceId: number, playerId: number, goneSince: number | null): Promise<void> {
    try {
      await this.store.updateEntry(raceId, playerId, { goneSince });
    } catch (error) {
      const code = this.games.storageFailure(error);
      if (code === undefined) throw error;
      this.log.warn({ err: error, code, raceId, playerId }, 'cannot store a presence change: its timer goes on');
    }
  }

  private mustBeLobby(race: RaceRow, what: string): void {
    if (race.state === 'closed') throw new Refusal('race-closed', `race ${race.code} is closed (${race.closedReason})`, { params: { race: race.code, reason: race.closedReason ?? 'empty' } });
    if (race.state !== 'lobby') throw new Refusal('not-in-lobby', `race ${race.code} has started: you cannot ${what} it any more`, { params: { race: race.code } });
  }

  private async mustBeSeated(race: RaceRow, playerId: number, message: string, field?: string): Promise<void> {
    if (!(await this.store.entry(race.id, playerId))) throw new Refusal('not-seated', message, { ...(field !== undefined && { field }), params: { race: race.code } });
  }

  private async playerOf(playerId: number): Promise<PlayerView> {
    return (await this.players.byId(playerId))!;
  }
}

const key = (raceId: number, playerId: number): string => `${raceId}:${playerId}`;
