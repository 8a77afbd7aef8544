/**
 * Ghost races: a finished game whose seed is public raced again. The player gets a new unrated
 * game (kind `ghost`) on the same seed and variant that redeals from the raced game's stream, so
 * the same cards deal the same layouts; the raced game (the ghost) replays its stored actions on
 * their own timeline from the ghost race's start. What the player learns of the ghost is computed
 * here and is counts only (ghost-timeline.ts): never a card, so no layout reaches them early.
 */
import { dayOf, type GhostReplayAnswer, type GhostView, type PlayerView, type ReplayGame } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import { redealStreamOf, type LiveGame } from './games/live-game.js';
import type { GameService } from './games/service.js';
import { ghostAt, ghostTimeline, type GhostTimeline } from './ghost-timeline.js';
import type { ReplayService } from './replays.js';
import type { GhostStore, PlayerStore } from './stores.js';

export interface GhostRules {
  /** A ghost race ends by itself this long after the ghost's own time (nothing waits forever). */
  readonly slackMs: number;
  /** How many of the newest public games of a variant `POST /api/ghosts` chooses the best from. */
  readonly recent: number;
}
export const DEFAULT_GHOST_RULES: GhostRules = { slackMs: 15 * 60_000, recent: 50 };

/** Finished games never change: their timelines are kept, the most recently used few. */
const KEPT_TIMELINES = 200;

export class GhostService {
  private readonly timelines = new Map<number, GhostTimeline>();

  constructor(
    private readonly store: GhostStore,
    private readonly players: PlayerStore,
    private readonly games: GameService,
    private readonly replays: Pick<ReplayService, 'whyHidden'>,
    private readonly clock: Clock,
    private readonly rules: GhostRules = DEFAULT_GHOST_RULES,
  ) {}

  /**
   * `player` races game `ghostId` (the same ghost race again while it is played). Refused for a
   * game being played, one whose seed is not public yet, or while another ghost race is played.
   */
  async race(player: PlayerView, ghostId: number): Promise<{ game: LiveGame; view: GhostView; created: boolean }> {
    const hidden = await this.replays.whyHidden(ghostId);
    if (hidden?.params.hidden === 'playing') {
      throw new Refusal('game-in-progress', `game ${ghostId} is still being played: race it once it has ended`, { field: 'id', params: { game: ghostId } });
    }
    if (hidden) throw new Refusal('record-hidden', `game ${ghostId} cannot be raced yet: ${hidden.words}`, { field: 'id', params: { game: ghostId, ...hidden.params } });
    const playing = await this.store.playing(player.id);
    if (playing) {
      if (playing.ghostOf !== ghostId) {
        throw new Refusal('ghost-playing', `you are playing ghost race ${playing.id}: finish or resign it first`, { params: { game: playing.id } });
      }
      const game = (await this.games.get(playing.id))!;
      return { game, view: await this.viewOf(game), created: false };
    }
    const ghost = (await this.games.get(ghostId))!;
    const timeline = await this.timeline(ghost);
    const startedAt = this.clock.now();
    const [game] = await this.games.create([
      {
        kind: 'ghost',
        playerId: player.id,
        ghost: { of: ghost.id, redealFrom: redealStreamOf(ghost) },
        variant: ghost.variant,
        seed: ghost.seed,
        startedAt,
        deadline: startedAt + timeline.end.after + this.rules.slackMs,
      },
    ]);
    return { game: game!, view: await this.viewOf(game!), created: true };
  }

  /** `player` races the best of the newest public games of `variant` played by someone else. */
  async raceAny(player: PlayerView, variant: VariantId): Promise<{ game: LiveGame; view: GhostView; created: boolean }> {
    const playing = await this.store.playing(player.id);
    if (playing) return this.race(player, playing.ghostOf);
    const candidates = await this.store.candidates(variant, player.id, dayOf(this.clock.now()), this.rules.recent);
    const best = candidates.reduce<(typeof candidates)[number] | undefined>((found, row) => (found === undefined || row.rankKey < found.rankKey ? row : found), undefined);
    if (!best) throw new Refusal('no-ghost', `there is no finished public game of ${variant} to race yet`, { field: 'variant', params: { variant } });
    return this.race(player, best.id);
  }

  /** Ghost race `id` as anyone may see it: its ghost's progress now, counts only. */
  async view(id: number): Promise<GhostView> {
    const game = await this.games.get(id);
    if (!game || game.kind !== 'ghost') throw new Refusal('unknown-game', `there is no ghost race ${id}`, { field: 'id', params: { game: id } });
    this.games.expireIfDue(game);
    return this.viewOf(game);
  }

  /**
   * Ghost race `id` told again once it has ended: the player's game and the ghost's, both on the
   * ghost race's clock. Before its end it is refused: the ghost's moves would show its cards.
   */
  async replay(id: number): Promise<GhostReplayAnswer> {
    const game = await this.games.get(id);
    if (!game || game.kind !== 'ghost') throw new Refusal('unknown-game', `there is no ghost race ${id}`, { field: 'id', params: { game: id } });
    this.games.expireIfDue(game);
    if (game.state === 'playing') {
      throw new Refusal('ghost-not-over', `ghost race ${id} is still being played: its replay opens once it has ended`, { field: 'id', params: { game: id } });
    }
    const ghost = (await this.games.get(game.ghostOf!))!;
    const [mine, theirs] = await Promise.all([this.replayGame(game, 0), this.replayGame(ghost, game.startedAt - ghost.startedAt)]);
    return { ghost: await this.viewOf(game), games: [mine, theirs] };
  }

  /** A game's deals and moves for a replay, its times moved by `shift` ms. */
  private async replayGame(game: LiveGame, shift: number): Promise<ReplayGame> {
    const [player, times] = await Promise.all([this.players.byId(game.playerId), this.store.actionTimes(game.id)]);
    return {
      playerId: game.playerId,
      name: player?.name ?? '',
      gameId: game.id,
      state: game.state,
      deals: game.deals,
      actions: game.actions,
      times: times.map((at) => at + shift),
      finishedAt: game.finishedAt === null ? null : game.finishedAt + shift,
    };
  }

  private async viewOf(game: LiveGame): Promise<GhostView> {
    const ghost = (await this.games.get(game.ghostOf!))!;
    const timeline = await this.timeline(ghost);
    const name = (await this.players.byId(ghost.playerId))?.name ?? '';
    const now = this.clock.now();
    // Once the ghost race has ended the whole ghost may be seen: its seed was public already.
    const moment = ghostAt(timeline, game.state === 'playing' ? now - game.startedAt : Number.POSITIVE_INFINITY);
    return {
      gameId: game.id,
      ghostOf: ghost.id,
      variant: game.variant,
      startedAt: game.startedAt,
      ghost: {
        playerId: ghost.playerId,
        name,
        gameId: ghost.id,
        foundations: moment.foundations,
        cardsLeft: 52 - moment.foundations,
        redealsUsed: moment.redealsUsed,
        moves: moment.moves,
        status: moment.state,
        finishedAt: moment.finishedAfter === null ? null : game.startedAt + moment.finishedAfter,
      },
      nextAt: moment.nextAfter === null ? null : game.startedAt + moment.nextAfter,
      now,
    };
  }

  private async timeline(ghost: LiveGame): Promise<GhostTimeline> {
    let timeline = this.timelines.get(ghost.id);
    if (timeline) this.timelines.delete(ghost.id);
    else timeline = ghostTimeline(ghost, await this.store.actionTimes(ghost.id));
    this.timelines.set(ghost.id, timeline);
    if (this.timelines.size > KEPT_TIMELINES) this.timelines.delete(this.timelines.keys().next().value!);
    return timeline;
  }
}
