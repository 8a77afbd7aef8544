/**
 * Every race and lobby ends. This module holds the rules that end them when people do not:
 * - a racer without an open socket for the grace period loses their lobby seat, or, in a race,
 *   is finished as `abandoned` at the moment they left (cards home then, ranked as a
 *   resignation);
 * - a lobby whose creator leaves or loses their seat passes to the next racer in seat order; a
 *   lobby with nobody left, or not started within the lobby limit, is closed;
 * - the creator can remove a racer or cancel the lobby, and anyone can leave it.
 * Every deadline is stored (race_entries.gone_since, races.lobby_closes_at), and kept by the
 * scheduler as its own kind: after a restart or a takeover it is armed again from the database,
 * and one already past acts at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ClosedReason, PlayerView } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../errors.js';
import type { GameService } from '../games/service.js';
import { after, type DeadlineHandler, type Pending, type Scheduler, type Transport } from '../ports.js';
import type { PlayerStore, RaceRow, RaceStore } from '../stores.js';
import { GRACE_PERIOD, graceKey, LOBBY_LIMIT, type RaceEffects } from './effects.js';
import { lobbyRefusal, stepRace } from './machine.js';
import type { RaceViews } from './views.js';

export interface LifecycleRules {
  /** Without a socket this long, a racer loses their lobby seat or is finished as abandoned. */
  graceMs: number;
  /** A lobby not started this long after its creation is closed. */
  lobbyLimitMs: number;
  /** A race without a time limit still ends this long after its deal. */
  hardCapMs: number;
}

export const DEFAULT_LIFECYCLE_RULES: LifecycleRules = { graceMs: 60_000, lobbyLimitMs: 3_600_000, hardCapMs: 86_400_000 };

/**
 * How long after its end a race's standings still hear of its racers' comings and goings: while
 * people look at them (and answer a rematch), not for every race a player ever finished.
 */
export const STANDINGS_PRESENCE_MS = 3_600_000;

export interface LifecycleParts {
  readonly store: RaceStore;
  readonly players: PlayerStore;
  readonly games: GameService;
  readonly transport: Transport;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly rules: LifecycleRules;
  readonly views: RaceViews;
  readonly effects: RaceEffects;
  readonly scheduler: Scheduler;
}

export class RaceLifecycle {
  private readonly store: RaceStore;
  private readonly players: PlayerStore;
  private readonly games: GameService;
  private readonly transport: Transport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly rules: LifecycleRules;
  private readonly views: RaceViews;
  private readonly effects: RaceEffects;
  private readonly scheduler: Scheduler;

  constructor(parts: LifecycleParts) {
    ({
      store: this.store,
      players: this.players,
      games: this.games,
      transport: this.transport,
      clock: this.clock,
      log: this.log,
      rules: this.rules,
      views: this.views,
      effects: this.effects,
      scheduler: this.scheduler,
    } = parts);
    this.transport.onPresence((playerId, connected) => void this.presenceChanged(playerId, connected));
  }

  /** Lobby limits, as stored: each closes its lobby if it is still one. */
  readonly lobbyLimits: DeadlineHandler = {
    due: (key) => after(this.store.byId(Number(key)), (race) => (race?.state === 'lobby' ? this.closeLobby(race, 'expired', null) : undefined)),
    stored: () =>
      after(this.store.inState('lobby'), (lobbies) =>
        lobbies.map((race) => ({ key: String(race.id), at: race.lobbyClosesAt ?? race.createdAt + this.rules.lobbyLimitMs })),
      ),
  };

  /**
   * Grace periods, from the racers stored as gone. Nothing is written to find them and none
   * starts here: a racer stored as connected may only be one whose leaving has not reached this
   * instance yet (their own presence event starts it).
   */
  readonly gracePeriods: DeadlineHandler = {
    due: (key, at) => {
      const [raceId, playerId] = key.split(':').map(Number) as [number, number];
      return this.graceOver(raceId, playerId, at - this.rules.graceMs);
    },
    stored: () =>
      after(this.store.goneEntries(), (entries) =>
        entries
          .filter(({ playerId }) => !this.transport.isConnected(playerId))
          .map(({ raceId, playerId, goneSince }) => ({ key: graceKey(raceId, playerId), at: goneSince + this.rules.graceMs })),
      ),
  };

  /**
   * On taking the timers over (alone: at start, when nobody is connected yet): the comings and
   * goings nobody stored meanwhile are stored, and told to the watchers of their races; the
   * grace periods then follow from what is stored.
   */
  async takeOver(): Promise<void> {
    const now = this.clock.now();
    const changed = new Set<number>();
    for (const entry of await this.store.liveEntries()) {
      const connected = this.transport.isConnected(entry.playerId);
      if (connected === (entry.goneSince === null)) continue;
      const since = connected ? null : now;
      // Not stored (a full disk): its timer runs from now all the same.
      if (since !== null) this.scheduler.arm(GRACE_PERIOD, graceKey(entry.raceId, entry.playerId), since + this.rules.graceMs);
      await this.recordGoneSince(entry.raceId, entry.playerId, since);
      changed.add(entry.raceId);
    }
    for (const raceId of changed) {
      const race = await this.store.byId(raceId);
      if (race) await this.views.broadcastView(race.code);
    }
  }

  /** A racer was just seated (created or joined): the lobby's limit is stored, and without a socket their grace period starts now. */
  async seated(race: RaceRow, playerId: number): Promise<void> {
    if (race.state === 'lobby') this.scheduler.stored(LOBBY_LIMIT, String(race.id), race.lobbyClosesAt ?? race.createdAt + this.rules.lobbyLimitMs);
    if (!this.transport.isConnected(playerId)) {
      const now = this.clock.now();
      await this.recordGoneSince(race.id, playerId, now);
      this.scheduler.stored(GRACE_PERIOD, graceKey(race.id, playerId), now + this.rules.graceMs);
    }
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
    const step = stepRace(race, { type: 'close', reason: 'cancelled', by: creator, at: this.clock.now() });
    if (step instanceof Refusal) throw step;
    await this.closeLobby(race, 'cancelled', creator);
  }

  private async presenceChanged(playerId: number, connected: boolean): Promise<void> {
    // At shutdown every socket closes: that is no one leaving. With several instances each hears
    // of every change (shared presence): the one running the timers alone stores it, arms the
    // grace period and sends the race view, which reaches the watchers of every instance; a
    // change while none runs them is stored and told at the takeover.
    if (this.games.closing || !this.scheduler.runsTimers) return;
    try {
      const now = this.clock.now();
      for (const race of await this.store.liveRacesOf(playerId)) {
        if (connected) {
          this.scheduler.cancel(GRACE_PERIOD, graceKey(race.id, playerId));
          await this.recordGoneSince(race.id, playerId, null);
        } else {
          this.scheduler.arm(GRACE_PERIOD, graceKey(race.id, playerId), now + this.rules.graceMs);
          await this.recordGoneSince(race.id, playerId, now);
        }
        await this.views.broadcastView(race.code);
      }
      // Nothing is at stake in a finished race: its standings are only told who is still there.
      for (const race of await this.store.finishedRacesOf(playerId, now - STANDINGS_PRESENCE_MS)) await this.views.broadcastView(race.code);
    } catch (error) {
      this.log.error({ err: error, playerId }, 'cannot record a presence change');
    }
  }

  /** A grace period that began at `since` ran out: unless the racer came back, their seat or their game ends. */
  private async graceOver(raceId: number, playerId: number, since: number): Promise<void> {
    if (this.games.closing || this.transport.isConnected(playerId)) return;
    const race = await this.store.byId(raceId);
    const entry = await this.store.entry(raceId, playerId);
    if (!race || !entry) return;
    const key = graceKey(raceId, playerId);
    // The stored time decides: a later one means they left again since (wherever that was heard).
    if (entry.goneSince !== null && entry.goneSince > since) return this.scheduler.arm(GRACE_PERIOD, key, entry.goneSince + this.rules.graceMs);
    const goneSince = entry.goneSince ?? since;
    if (race.state === 'lobby') {
      await this.unseat(race, await this.playerOf(playerId), 'unseated');
      return;
    }
    if (race.state === 'countdown') {
      // Dealt in a moment: judge them once their game exists.
      this.scheduler.arm(GRACE_PERIOD, key, Math.max(goneSince + this.rules.graceMs, race.startsAt! + 1));
      return;
    }
    if (race.state !== 'running') return;
    const gameId = await this.store.gameIdOf(raceId, playerId);
    if (gameId === undefined) return;
    const game = await this.games.current(gameId);
    if (!game || game.state !== 'playing') return;
    // Told only by the write that ended the game: an owner whose lease ran out may be ending it too.
    if (await this.games.abandon(game, goneSince)) this.views.announce(race.code, { kind: 'abandoned', player: await this.playerOf(playerId), at: this.clock.now() });
  }

  /**
   * Frees a lobby seat; a creator's lobby passes to the next racer in seat order, an empty one
   * closes. Whether it did: a seat freed, or a lobby started, meanwhile (another request, another
   * instance, a stale timer owner) is left as it is, and told by whoever changed it.
   */
  private async unseat(race: RaceRow, player: PlayerView, kind: 'left' | 'kicked' | 'unseated'): Promise<boolean> {
    const now = this.clock.now();
    const freed = await this.store.unseat(race.id, player.id);
    this.scheduler.cancel(GRACE_PERIOD, graceKey(race.id, player.id));
    if (!freed) return false;
    // The one removed is told too: they may still be watching.
    this.views.announce(race.code, { kind, player, at: now });
    if (freed.heir === null) {
      await this.closeLobby(race, 'empty', null);
      return true;
    }
    if (freed.heir) this.views.announce(race.code, { kind: 'creator-changed', player: freed.heir, at: now });
    await this.views.broadcastView(race.code);
    return true;
  }

  /** After a seat that could not be freed: refused if the race started or closed meanwhile (else the seat was freed already). */
  private async stillLobby(race: RaceRow, what: string): Promise<void> {
    const now = await this.store.byId(race.id);
    if (now) this.mustBeLobby(now, what);
  }

  private closeLobby(race: RaceRow, reason: ClosedReason, by: PlayerView | null): Pending<void> {
    const step = stepRace(race, { type: 'close', reason, by, at: this.clock.now() });
    if (step === undefined || step instanceof Refusal) return;
    // Started or closed meanwhile (by another instance, or a stale timer owner): nothing to close or tell.
    return after(this.store.transition(race.id, step.from, step.change), (changed) => (changed ? this.effects.run(race, step.effects) : undefined));
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
    const refused = lobbyRefusal(race, what);
    if (refused) throw refused;
  }

  private async mustBeSeated(race: RaceRow, playerId: number, message: string, field?: string): Promise<void> {
    if (!(await this.store.entry(race.id, playerId))) throw new Refusal('not-seated', message, { ...(field !== undefined && { field }), params: { race: race.code } });
  }

  private async playerOf(playerId: number): Promise<PlayerView> {
    return (await this.players.byId(playerId))!;
  }
}
