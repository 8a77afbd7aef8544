/**
 * Moderation: players report a name or a player; an operator (ADMIN_TOKEN) renames a player or
 * hides their name, bans an identity and lifts a ban, and every such action is logged with who,
 * what and when (operator_actions, in the same transaction as the change).
 *
 * A ban, once stored: the identity is refused on every request and socket (players.ts), its open
 * sockets close on every instance, its lobby seats are freed, and its results leave the daily
 * and series boards (its games stay stored); `player-banned` tells the rest (the quick-race pool,
 * ratings). A lifted ban puts the results back and says `player-unbanned`. Hiding a name renames
 * the player `#id`: a handle in no language, so it needs no catalogue.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  REPORT_LIMIT,
  REPORT_WINDOW_SECONDS,
  type ModerationAnswer,
  type OperatorAction,
  type OperatorOverviewAnswer,
  type PlayerView,
  type ReportReason,
} from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import type { DomainEvents } from './events.js';
import { FAIR_PLAY_RULE, type FairPlayService } from './fair-play.js';
import { refuseName, type RefusedRule } from './refused-names.js';
import type { ModerationStore, PlayerChange, RaceStore, ReportRow } from './stores.js';

/** How many of each list the operator page shows. */
const OVERVIEW_LIMIT = 100;

export interface ModerationDeps {
  readonly store: ModerationStore;
  readonly raceStore: RaceStore;
  /** Leaves a race's lobby as the player would themselves (races/service.ts). */
  readonly leaveRace: (player: PlayerView, code: string) => Promise<unknown>;
  readonly fairPlay: FairPlayService;
  readonly refusedNames: readonly RefusedRule[];
  readonly clock: Clock;
  readonly events: DomainEvents;
  readonly log: FastifyBaseLogger;
  /** Whether a write failed on a unique key (a second report). */
  readonly isDuplicate: (error: unknown) => boolean;
  /** Closes the player's sockets on every instance. */
  readonly closeSockets: (playerId: number) => void;
}

export class ModerationService {
  constructor(private readonly deps: ModerationDeps) {
    // A banned player's daily game that ends after the ban (at the day's end, say) leaves the board too.
    deps.events.on('game-ended', ({ gameId, kind }) => {
      if (kind !== 'daily') return;
      void Promise.resolve()
        .then(() => deps.store.unlistIfBanned(gameId))
        .catch((error: unknown) => deps.log.warn({ err: error, gameId }, 'cannot check a daily result against the bans'));
    });
  }

  /** `reporter` reports player `targetId`: once per target, at most REPORT_LIMIT an hour. */
  async report(reporter: PlayerView, targetId: number, reason: ReportReason): Promise<ReportRow> {
    if (reporter.id === targetId) throw new Refusal('cannot-report-self', 'you cannot report yourself', { params: { player: targetId } });
    await this.mustFind(targetId);
    const now = this.deps.clock.now();
    const recent = await this.deps.store.reportsSince(reporter.id, now - REPORT_WINDOW_SECONDS * 1000);
    if (recent >= REPORT_LIMIT) {
      throw new Refusal('rate-limited', `at most ${REPORT_LIMIT} reports an hour: try again later`, { params: { limit: REPORT_LIMIT, seconds: REPORT_WINDOW_SECONDS } });
    }
    try {
      return await this.deps.store.report({ reporterId: reporter.id, targetId, reason, createdAt: now });
    } catch (error) {
      if (!this.deps.isDuplicate(error)) throw error;
      throw new Refusal('already-reported', `you have reported player ${targetId} already: an operator will look`, { params: { player: targetId } });
    }
  }

  async overview(): Promise<OperatorOverviewAnswer> {
    const { store, fairPlay } = this.deps;
    return {
      reports: await store.openReports(OVERVIEW_LIMIT),
      outliers: await fairPlay.outliers(OVERVIEW_LIMIT),
      rule: FAIR_PLAY_RULE,
      banned: await store.banned(),
      actions: await store.actions(OVERVIEW_LIMIT),
    };
  }

  /** A new name, checked as a new player's is. */
  rename(operator: string, playerId: number, name: string): Promise<ModerationAnswer> {
    refuseName(this.deps.refusedNames, name);
    return this.act(operator, playerId, 'rename', (player) => ({ change: { kind: 'rename', name }, detail: { from: player.name, to: name } }));
  }

  hideName(operator: string, playerId: number): Promise<ModerationAnswer> {
    const name = `#${playerId}`;
    return this.act(operator, playerId, 'hide-name', (player) => ({ change: { kind: 'rename', name }, detail: { from: player.name, to: name } }));
  }

  async ban(operator: string, playerId: number): Promise<ModerationAnswer> {
    const at = this.deps.clock.now();
    const answer = await this.act(operator, playerId, 'ban', () => ({ change: { kind: 'ban', at }, detail: {} }));
    this.deps.closeSockets(playerId);
    await this.freeLobbySeats(answer.player);
    this.deps.events.emit({ type: 'player-banned', playerId, at });
    return answer;
  }

  async unban(operator: string, playerId: number): Promise<ModerationAnswer> {
    const answer = await this.act(operator, playerId, 'unban', () => ({ change: { kind: 'unban' }, detail: {} }));
    this.deps.events.emit({ type: 'player-unbanned', playerId, at: answer.action.at });
    return answer;
  }

  dismissReports(operator: string, playerId: number): Promise<ModerationAnswer> {
    return this.act(operator, playerId, 'dismiss-reports', () => ({ change: { kind: 'dismiss-reports' }, detail: {} }));
  }

  /** Stores the change with its log row, and answers the player as they are now. */
  private async act(
    operator: string,
    playerId: number,
    action: OperatorAction,
    plan: (player: PlayerView) => { change: PlayerChange; detail: Record<string, string> },
  ): Promise<ModerationAnswer> {
    const { change, detail } = plan(await this.mustFind(playerId));
    const logged = await this.deps.store.apply({ operator, action, targetId: playerId, detail, at: this.deps.clock.now() }, change);
    this.deps.log.info({ operator, action, playerId }, 'operator action');
    return { player: (await this.deps.store.player(playerId))!, action: logged };
  }

  /** Leaves every lobby the player sits in (the lobby passes on as when they leave themselves); a race that started meanwhile keeps them. */
  private async freeLobbySeats(player: PlayerView): Promise<void> {
    for (const race of await this.deps.raceStore.liveRacesOf(player.id)) {
      if (race.state !== 'lobby') continue;
      try {
        await this.deps.leaveRace(player, race.code);
      } catch (error) {
        this.deps.log.warn({ err: error, playerId: player.id, race: race.code }, 'cannot free a banned player’s seat');
      }
    }
  }

  private async mustFind(playerId: number) {
    const player = await this.deps.store.player(playerId);
    if (!player) throw new Refusal('unknown-player', `there is no player ${playerId}`, { field: 'id', params: { player: playerId } });
    return player;
  }
}
