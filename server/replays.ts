/**
 * Finished games told again: a game's summary (anyone), its `lucie-record/1` record, and a
 * player's history. A game's moves become public once its contest is over — a race when it is
 * finished, a daily attempt when its day is over — so nobody copies the leader while it still
 * counts; a series deal's stay with its player, since the series can always be played. Until
 * then only its own player gets its record, also while playing. The seed is in a record (and a
 * summary) only once it is revealed.
 */
import { makeRecord, type RecordJson } from '../shared/index.js';
import type { ErrorParams, GameSummary, HistoryView, Page, PlayerView } from '../contract/index.js';
import { Refusal } from './errors.js';
import { storedLayout, type LiveGame } from './games/live-game.js';
import type { GameService } from './games/service.js';
import type { GameRow, ReplayStore, SummaryRow } from './stores.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** What replays ask of the daily deal (DailyService): whether a day is over, and an attempt's rank. */
export interface DailyDays {
  isOver(day: string): boolean;
  rankOf(row: GameRow): Promise<number | null>;
}

export class ReplayService {
  constructor(
    private readonly store: ReplayStore,
    private readonly gameService: GameService,
    private readonly daily: DailyDays,
  ) {}

  async summary(id: number, viewer: PlayerView | null): Promise<GameSummary> {
    return this.summaryOf(await this.row(id), viewer);
  }

  /** A player's games, newest first, each with the summary anyone may see (and their own records). */
  async history(player: PlayerView, { limit, offset }: Page): Promise<HistoryView> {
    const rows = await this.store.history(player.id, limit, offset);
    const total = await this.store.gameCount(player.id);
    const games: GameSummary[] = [];
    for (const row of rows) games.push(await this.summaryOf(row, player));
    return { total, limit, offset, games };
  }

  /**
   * The game's `lucie-record/1`: the stored deals and move log with who, when and how it ended in
   * `meta`. Refused to anyone but its player while the game is being played or its contest is on.
   */
  async record(id: number, viewer: PlayerView | null): Promise<{ record: RecordJson; filename: string }> {
    const row = await this.row(id);
    const { game } = row;
    const revealed = this.revealed(row);
    if (viewer?.id !== game.playerId) {
      if (game.status === 'playing') {
        throw new Refusal('game-in-progress', `game ${id} is still being played: until it ends only its player may see its moves`, { params: { game: id } });
      }
      if (!revealed) throw new Refusal('record-hidden', this.hiddenBecause(row), { params: { game: id, ...hiddenBy(row) } });
    }
    return this.recordOf(row, (await this.gameService.get(id))!, revealed);
  }

  /**
   * Why game `id`'s seed is not public yet (it is being played, or its race or day is still on),
   * in words and as a refusal's parameters, or null once it is; an unknown game is refused.
   */
  async whyHidden(id: number): Promise<{ words: string; params: HiddenParams } | null> {
    const row = await this.row(id);
    if (row.game.status === 'playing') return { words: `game ${id} is still being played`, params: { hidden: 'playing', scope: null } };
    return this.revealed(row) ? null : { words: this.hiddenBecause(row), params: hiddenBy(row) };
  }

  private recordOf(row: SummaryRow, live: LiveGame, revealed: boolean): { record: RecordJson; filename: string } {
    const { game } = row;
    const id = game.id;
    const record = makeRecord({
      variant: live.variant,
      ...(revealed && { seed: live.seed }),
      deals: live.deals.map(storedLayout),
      actions: live.actions,
      meta: {
        player: row.name,
        gameId: id,
        kind: game.kind,
        ...(row.raceCode !== null && { raceCode: row.raceCode }),
        ...(game.day !== null && { day: game.day }),
        ...(row.seriesCode !== null && { seriesCode: row.seriesCode, seriesDeal: game.seriesDeal }),
        state: live.state,
        startedAt: iso(live.startedAt),
        ...(live.finishedAt !== null && { finishedAt: iso(live.finishedAt) }),
      },
    });
    const where = row.raceCode ?? game.day ?? (row.seriesCode === null ? 'game' : `${row.seriesCode}-${game.seriesDeal}`);
    return { record, filename: `lucie-${game.kind}-${where}-${id}.json` };
  }

  /** The stored row of a game, first ending it if its deadline has passed unseen. */
  private async row(id: number): Promise<SummaryRow> {
    const row = await this.store.summary(id);
    if (!row) throw new Refusal('unknown-game', `there is no game ${id}`, { field: 'id', params: { game: id } });
    if (row.game.status !== 'playing') return row;
    const live = this.gameService.live(id);
    if (!live) return row;
    this.gameService.expireIfDue(live);
    return live.state === 'playing' ? row : (await this.store.summary(id))!;
  }

  /** Whether the game's contest is over: its seed and moves are public. */
  private revealed(row: SummaryRow): boolean {
    switch (row.game.kind) {
      case 'race':
        return row.raceState === 'finished';
      case 'daily':
        return this.daily.isOver(row.game.day!);
      case 'series':
        return false;
      case 'ghost':
        // The game it raced was public already: so is its seed.
        return true;
    }
  }

  private hiddenBecause(row: SummaryRow): string {
    switch (row.game.kind) {
      case 'race':
        return `the moves of race ${row.raceCode} stay hidden until the race is finished`;
      case 'daily':
        return `the moves of the daily deal of ${row.game.day} stay hidden until the day is over (00:00 UTC), so nobody can copy them`;
      case 'series':
        return `the moves of a deal of series ${row.seriesCode} stay with its player: anyone can still play that deal, so nobody may copy them`;
      case 'ghost':
        throw new Error('a ghost race is never hidden');
    }
  }

  private async summaryOf(row: SummaryRow, viewer: PlayerView | null): Promise<GameSummary> {
    const { game } = row;
    const revealed = this.revealed(row);
    return {
      id: game.id,
      kind: game.kind,
      variant: game.variant,
      player: { id: game.playerId, name: row.name },
      raceCode: row.raceCode,
      day: game.day,
      series: row.seriesCode === null ? null : { code: row.seriesCode, deal: game.seriesDeal! },
      startedAt: game.startedAt,
      result: {
        state: game.status,
        foundations: game.foundations,
        won: game.status === 'won',
        redealsUsed: game.redealsUsed,
        moves: game.moves,
        finishedAt: game.finishedAt,
        elapsedMs: game.finishedAt === null ? null : game.finishedAt - game.startedAt,
      },
      rank: row.raceRank ?? (await this.daily.rankOf(game)),
      seed: revealed ? game.seed : null,
      ghostOf: game.ghostOf,
      recordAvailable: viewer?.id === game.playerId || (game.status !== 'playing' && revealed),
    };
  }
}

/** What keeps a finished game's moves hidden, as refusal parameters: its race, its day or its series. */
export type HiddenParams = Pick<ErrorParams<'record-hidden'>, 'hidden' | 'scope'>;

function hiddenBy(row: SummaryRow): HiddenParams {
  switch (row.game.kind) {
    case 'race':
      return { hidden: 'race', scope: row.raceCode };
    case 'daily':
      return { hidden: 'daily', scope: row.game.day };
    case 'series':
      return { hidden: 'series', scope: row.seriesCode };
    case 'ghost':
      throw new Error('a ghost race is never hidden');
  }
}
