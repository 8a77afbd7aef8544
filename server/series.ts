/**
 * Series: 100 deals in order from one secret seed, the same deals for everyone who opens the
 * series' link, unranked. Deal k is dealt (from `lucie-series/1:{k}:{seed}`) only when its player
 * asks for it, once they have finished deal k - 1; each deal is an ordinary game (kind `series`)
 * played, validated and stored by GameService, redealing from its own stream like a daily
 * attempt. A player's progress is nothing but their games in the series, so it follows their
 * identity to any device, paused as long as they like (a deal has no deadline).
 *
 * Seeds are never revealed, not even of a finished deal: a friend who learnt one by finishing the
 * deal could compute another player's redeals from it (their stream is the seed and a game id).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, max, sql } from 'drizzle-orm';
import type { VariantId } from '../shared/index.js';
import { SERIES_DEALS, type PlayerSeries, type PlayerView, type SeriesProgress, type SeriesResults, type SeriesView } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { Db } from './db/index.js';
import { games, players, series } from './db/schema.js';
import { Refusal } from './errors.js';
import type { GameService, LiveGame } from './games.js';
import { after, recovering, type Pending } from './ports.js';
import { freshShareCode } from './share-code.js';

/** Versioned, like the deal algorithm: changing how a deal's seed is made must change this. */
export const SERIES_SEED_SCHEME = 'lucie-series/1';

/** The seed deal `deal` (1-100) of a series is dealt from. */
export const seriesDealSeed = (seriesSeed: string, deal: number): string => `${SERIES_SEED_SCHEME}:${deal}:${seriesSeed}`;

/** What the rule sheets (docs/rules.md) call a good win rate over 100 deals, where they say. */
const BENCHMARKS: Partial<Record<VariantId, NonNullable<SeriesView['benchmark']>>> = {
  strict: { low: 0.05, high: 0.07, text: 'the rule sheets call 5-7 % above average in strict' },
  merci: { low: 0.12, high: 0.12, text: 'the rule sheets give about 12 % with the merci' },
};

type SeriesRow = typeof series.$inferSelect;
type GameRow = typeof games.$inferSelect;

/** A player's tallies over their games of a series (one group per player and series). */
const tally = {
  played: sql<number>`sum(case when ${games.status} <> 'playing' then 1 else 0 end)`,
  wins: sql<number>`sum(case when ${games.status} = 'won' then 1 else 0 end)`,
  cards: sql<number>`sum(case when ${games.status} <> 'playing' then ${games.foundations} else 0 end)`,
  lastDeal: max(games.seriesDeal),
  playing: sql<number>`max(case when ${games.status} = 'playing' then 1 else 0 end)`,
};
type Tally = { played: number; wins: number; cards: number; lastDeal: number | null; playing: number };

const resultsOf = ({ played, wins, cards }: Pick<Tally, 'played' | 'wins' | 'cards'>): SeriesResults => ({
  played,
  wins,
  winRate: played === 0 ? 0 : wins / played,
  averageFoundations: played === 0 ? 0 : cards / played,
});

/** The deal to play now: the one being played, else the one after the last; null after the last of all. */
const nextOf = (lastDeal: number | null, playing: boolean): number | null => {
  const last = lastDeal ?? 0;
  if (playing) return last;
  return last < SERIES_DEALS ? last + 1 : null;
};

/** A deal of a series dealt to its player, and whether this call dealt it. */
export interface SeriesDeal {
  readonly game: LiveGame;
  readonly created: boolean;
}

/** The series a player has been dealt in, the last one played first. */
export function seriesOfPlayer(db: Db, playerId: number): PlayerSeries[] {
  return db
    .select({ code: series.code, variant: series.variant, ...tally })
    .from(games)
    .innerJoin(series, eq(series.id, games.seriesId))
    .where(eq(games.playerId, playerId))
    .groupBy(series.id)
    .orderBy(desc(max(games.id)))
    .all()
    .map((row) => ({ code: row.code, variant: row.variant, ...resultsOf(row), next: nextOf(row.lastDeal, row.playing === 1) }));
}

export class SeriesService {
  constructor(
    private readonly db: Db,
    private readonly games: GameService,
    private readonly clock: Clock,
  ) {}

  /** A new series of `variant` created by `creator`, with a fresh secret seed. */
  create(creator: PlayerView, variant: VariantId): SeriesView {
    const code = freshShareCode((code) => this.find(code) !== undefined);
    this.db
      .insert(series)
      .values({ code, variant, seed: randomBytes(16).toString('base64url'), creatorId: creator.id, createdAt: this.clock.now() })
      .run();
    return this.view(code, creator);
  }

  view(code: string, viewer: PlayerView | null): SeriesView {
    const row = this.mustFind(code);
    const creator = this.db.select({ id: players.id, name: players.name }).from(players).where(eq(players.id, row.creatorId)).get()!;
    const standings = this.db
      .select({ id: players.id, name: players.name, ...tally })
      .from(games)
      .innerJoin(players, eq(players.id, games.playerId))
      .where(eq(games.seriesId, row.id))
      .groupBy(games.playerId)
      .orderBy(desc(tally.wins), desc(tally.cards), asc(games.playerId))
      .all();
    return {
      code: row.code,
      variant: row.variant,
      deals: SERIES_DEALS,
      creator,
      createdAt: row.createdAt,
      benchmark: BENCHMARKS[row.variant] ?? null,
      me: viewer && this.progressOf(row, viewer.id),
      players: standings.slice(0, SERIES_PLAYERS_SHOWN).map((standing) => ({
        player: { id: standing.id, name: standing.name },
        ...resultsOf(standing),
        next: nextOf(standing.lastDeal, standing.playing === 1),
      })),
      playerCount: standings.length,
    };
  }

  /**
   * Deal `deal` of a series for `player`: dealt when it is the one after their last finished
   * deal, the same game again while it is being played (a reload, another device), refused
   * otherwise (a deal finished already, or one past the deal they are on).
   */
  deal(player: PlayerView, code: string, deal: number): Pending<SeriesDeal> {
    const row = this.mustFind(code);
    const mine = this.gamesOf(row.id, player.id);
    const last = mine.at(-1);
    const playing = last?.status === 'playing';
    const next = nextOf(last?.seriesDeal ?? null, playing);
    if (deal === next && playing) return after(this.games.get(last!.id), (game) => ({ game: game!, created: false }));
    if (next === null || deal < next) throw playedRefusal(row, mine.find((game) => game.seriesDeal === deal)!, next);
    if (deal > next) {
      const message = playing
        ? `deal ${next} of series ${row.code} is still being played: finish it (or resign it) before deal ${deal}`
        : `deals of series ${row.code} come in order: your next one is deal ${next}, not ${deal}`;
      throw new Refusal('series-deal-ahead', message, { field: 'deal' });
    }
    // The unique index on (series, player, deal) decides between two requests at once: the
    // second gets the game the first dealt.
    return recovering<SeriesDeal>(
      () =>
        after(
          this.games.create([
            { kind: 'series', playerId: player.id, series: { id: row.id, deal }, variant: row.variant, seed: seriesDealSeed(row.seed, deal), startedAt: this.clock.now() },
          ]),
          ([game]) => ({ game: game!, created: true }),
        ),
      (error) => {
        if (!this.games.isDuplicate(error)) throw error;
        const stored = this.gamesOf(row.id, player.id).find((game) => game.seriesDeal === deal)!;
        if (stored.status !== 'playing') throw playedRefusal(row, stored, nextOf(deal, false));
        return after(this.games.get(stored.id), (game) => ({ game: game!, created: false }));
      },
    );
  }

  private progressOf(row: SeriesRow, playerId: number): SeriesProgress | null {
    const mine = this.gamesOf(row.id, playerId);
    const last = mine.at(-1);
    if (!last) return null;
    const finished = mine.filter((game) => game.status !== 'playing');
    const playing = last.status === 'playing';
    return {
      next: nextOf(last.seriesDeal, playing),
      playing: playing ? last.id : null,
      results: resultsOf({
        played: finished.length,
        wins: finished.filter((game) => game.status === 'won').length,
        cards: finished.reduce((sum, game) => sum + game.foundations, 0),
      }),
      deals: finished.map((game) => ({
        deal: game.seriesDeal!,
        gameId: game.id,
        state: game.status,
        foundations: game.foundations,
        moves: game.moves,
        elapsedMs: game.finishedAt! - game.startedAt,
      })),
    };
  }

  /** A player's games of a series in deal order (read from the games_series_player_deal index). */
  private gamesOf(seriesId: number, playerId: number): GameRow[] {
    return this.db
      .select()
      .from(games)
      .where(and(eq(games.seriesId, seriesId), eq(games.playerId, playerId)))
      .orderBy(asc(games.seriesDeal))
      .all();
  }

  private find(code: string): SeriesRow | undefined {
    return this.db.select().from(series).where(eq(series.code, code)).get();
  }

  private mustFind(code: string): SeriesRow {
    const row = this.find(code);
    if (!row) throw new Refusal('unknown-series', `there is no series ${code}`, { field: 'code' });
    return row;
  }
}

/** The most players a series' view lists (the best of them); playerCount says how many there are. */
const SERIES_PLAYERS_SHOWN = 100;

function playedRefusal(row: SeriesRow, game: GameRow, next: number | null): Refusal {
  const then = next === null ? `you have played all ${SERIES_DEALS} deals` : `your next deal is ${next}`;
  return new Refusal(
    'series-deal-played',
    `you have finished deal ${game.seriesDeal} of series ${row.code} already (${game.status}, ${game.foundations} cards home): each deal is played once; ${then}`,
    { field: 'deal' },
  );
}
