/**
 * What a race's watchers are told: the race view (read from the store), race events, and the
 * racers' progress after their moves (coalesced per race: one message per interval holding the
 * latest of each racer who moved; a status change goes at once, with what waited). Races and their
 * lifecycle both tell through here; neither holds the other.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProgressView, RaceEvent, RaceView, StandingView } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { Coalescer } from '../coalescer.js';
import type { LiveGame } from '../games/live-game.js';
import { after, recovering, type Pending, type Transport } from '../ports.js';
import { presenceOf } from '../presence.js';
import type { Finisher } from '../standings.js';
import { changeView } from '../ratings/model.js';
import type { GameRow, PlayerStore, RacerRow, RaceStore, RatingStore } from '../stores.js';

/** What progress is made of, from a live game or a stored row. */
interface GameFacts {
  id: number;
  playerId: number;
  status: LiveGame['state'];
  foundations: number;
  redealsUsed: number;
  moves: number;
  finishedAt: number | null;
}

export class RaceViews {
  private readonly codes = new Map<number, string>();
  /** Names never change: progress after each move needs no query for them. */
  private readonly names = new Map<number, string>();
  /** Moves' progress per race code, coalesced; status changes go through it at once, in order. */
  private readonly progress: Coalescer<LiveGame>;

  constructor(
    private readonly store: RaceStore,
    private readonly players: PlayerStore,
    private readonly ratings: RatingStore,
    private readonly transport: Transport,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly timing: { progressIntervalMs: number; graceMs: number },
  ) {
    this.progress = new Coalescer(clock, timing.progressIntervalMs, (code, changed) => this.sendProgress(code, changed));
  }

  /** The public view of a race, or undefined when the code is unknown. */
  async view(code: string): Promise<RaceView | undefined> {
    const race = await this.store.byCode(code);
    if (!race) return undefined;
    const creator = (await this.players.byId(race.creatorId))!;
    const entries = await this.store.racers(race.id);
    for (const entry of entries) this.names.set(entry.id, entry.name);
    const rows = await this.store.games(race.id);
    const progress: ProgressView[] = [];
    const standings: StandingView[] = [];
    for (const entry of entries) {
      const row = rows.find((game) => game.playerId === entry.id);
      if (!row) continue;
      progress.push(this.progressOf(row, entry.name));
      if (entry.rank !== null) standings.push({ rank: entry.rank, ...finisherOf(row, entry.name) });
    }
    const finished = race.state === 'finished';
    const live = race.state === 'lobby' || race.state === 'countdown' || race.state === 'running';
    const racers = entries.map(({ id, name, seat, goneSince }) => {
      const game = rows.find((row) => row.playerId === id);
      const stakes = live && (game === undefined || game.status === 'playing');
      const facts = { connected: this.transport.isConnected(id), goneSince, stakes, abandoned: game?.status === 'abandoned' };
      return { id, name, seat, presence: presenceOf(facts, this.timing.graceMs) };
    });
    return {
      code: race.code,
      variant: race.variant,
      seats: race.seats,
      timeLimitSeconds: race.timeLimitSeconds,
      listed: race.listed,
      rated: race.rated,
      state: race.state,
      creator,
      racers,
      createdAt: race.createdAt,
      startsAt: race.startsAt,
      endsAt: race.startsAt !== null && race.timeLimitSeconds !== null ? race.startsAt + race.timeLimitSeconds * 1000 : null,
      finishedAt: race.finishedAt,
      progress,
      // Stored ranks, best first (a stable sort keeps seat order within a tie).
      standings: finished ? standings.sort((a, b) => a.rank - b.rank) : null,
      seed: finished ? race.seed : null,
      closedReason: race.closedReason,
      lobbyClosesAt: race.state === 'lobby' ? race.lobbyClosesAt : null,
      capAt: race.capAt,
      graceSeconds: Math.round(this.timing.graceMs / 1000),
      rematchOf: race.rematchOf === null ? null : await this.codeOf({ raceId: race.rematchOf }),
      rematch: finished ? await this.rematchOf(race.id, entries) : null,
      ratingChanges: finished && race.rated ? await this.ratingChanges(race.id) : null,
    };
  }

  /** A rated race's changes, once applied. */
  private async ratingChanges(raceId: number): Promise<RaceView['ratingChanges']> {
    const changes = await this.ratings.changesOfRace(raceId);
    return changes.length === 0 ? null : changes.map(changeView);
  }

  /** The rematch of a finished race, once someone asked for it. */
  private async rematchOf(raceId: number, entries: readonly RacerRow[]): Promise<RaceView['rematch']> {
    const next = await this.store.rematchOf(raceId);
    if (!next) return null;
    const answered = (answer: string) => entries.filter((entry) => entry.rematch === answer).map((entry) => entry.id);
    return { code: next.code, accepted: answered('accepted'), declined: answered('declined') };
  }

  /** The code of the race a game belongs to, or null. */
  codeOf(game: { raceId: number | null }): Pending<string | null> {
    const { raceId } = game;
    if (raceId === null) return null;
    const code = this.codes.get(raceId);
    if (code !== undefined) return code;
    return after(this.store.byId(raceId), (race) => {
      if (!race) return null;
      this.codes.set(raceId, race.code);
      return race.code;
    });
  }

  /**
   * A move's progress waits for the race's next send; a status change (the game ended, its player
   * left or came back) goes at once, after whatever progress was waiting.
   */
  gameChanged(game: LiveGame, statusChanged: boolean): void {
    const sent = after(this.codeOf(game), (code) => {
      if (code === null) return;
      if (statusChanged) this.progress.urgent(code, game.id, game);
      else this.progress.change(code, game.id, game);
    });
    if (sent instanceof Promise) sent.catch((error: unknown) => this.log.error({ err: error, gameId: game.id }, 'cannot tell the race of a game'));
  }

  /** Tells a race's watchers what happened to its seats (the new view follows). */
  announce(code: string, event: RaceEvent): void {
    this.progress.flush(code);
    this.transport.toRace(code, { type: 'race-event', code, event });
  }

  async broadcastView(code: string): Promise<RaceView> {
    const view = (await this.view(code))!;
    // No progress may arrive after the race view that already holds it.
    this.progress.flush(code);
    this.transport.toRace(code, { type: 'race', race: view, serverTime: this.clock.now() });
    return view;
  }

  /** Progress still waiting is sent. */
  close(): void {
    this.progress.close();
  }

  /** Every changed racer's progress as it stands now (a coalesced send carries the latest), in one message. */
  private sendProgress(code: string, changed: readonly LiveGame[]): void {
    const facts = changed.map(factsOf);
    const names = facts.map((game) => this.nameOf(game.playerId));
    void recovering(
      () =>
        after(names.some((name) => name instanceof Promise) ? Promise.all(names) : (names as string[]), (known) =>
          this.transport.toRace(code, { type: 'progress', code, progress: facts.map((game, i) => this.progressOf(game, known[i]!)) }),
        ),
      (error) => this.log.error({ err: error, code }, 'cannot send race progress'),
    );
  }

  private progressOf(game: GameFacts, name: string): ProgressView {
    const disconnected = game.status === 'playing' && !this.transport.isConnected(game.playerId);
    return {
      playerId: game.playerId,
      name,
      gameId: game.id,
      foundations: game.foundations,
      cardsLeft: 52 - game.foundations,
      redealsUsed: game.redealsUsed,
      moves: game.moves,
      status: disconnected ? 'disconnected' : game.status,
      finishedAt: game.finishedAt,
    };
  }

  private nameOf(playerId: number): Pending<string> {
    const name = this.names.get(playerId);
    if (name !== undefined) return name;
    return after(this.players.byId(playerId), (player) => {
      this.names.set(playerId, player?.name ?? '');
      return player?.name ?? '';
    });
  }
}

export const finisherOf = (game: GameRow, name: string): Finisher => ({
  playerId: game.playerId,
  name,
  gameId: game.id,
  state: game.status,
  foundations: game.foundations,
  finishedAt: game.finishedAt,
});

const factsOf = (game: LiveGame): GameFacts => ({
  id: game.id,
  playerId: game.playerId,
  status: game.state,
  foundations: game.position.foundationCount(),
  redealsUsed: game.position.redealsUsed,
  moves: game.actions.length,
  finishedAt: game.finishedAt,
});
