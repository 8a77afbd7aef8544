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
import type { VariantId } from '../shared/index.js';
import { SERIES_DEALS, type PlayerSeries, type PlayerView, type SeriesProgress, type SeriesResults, type SeriesView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import type { LiveGame } from './games/live-game.js';
import type { GameService } from './games/service.js';
import { freshShareCode } from './share-code.js';
import type { GameRow, PlayerStore, SeriesRow, SeriesStore, SeriesTally } from './stores.js';

/** Versioned, like the deal algorithm: changing how a deal's seed is made must change this. */
export const SERIES_SEED_SCHEME = 'lucie-series/1';

/** The seed deal `deal` (1-100) of a series is dealt from. */
export const seriesDealSeed = (seriesSeed: string, deal: number): string => `${SERIES_SEED_SCHEME}:${deal}:${seriesSeed}`;

/** What the rule sheets (docs/rules.md) call a good win rate over 100 deals, where they say. */
const BENCHMARKS: Partial<Record<VariantId, NonNullable<SeriesView['benchmark']>>> = {
  strict: { low: 0.05, high: 0.07, text: 'the rule sheets call 5-7 % above average in strict' },
  merci: { low: 0.12, high: 0.12, text: 'the rule sheets give about 12 % with the merci' },
};

const resultsOf = ({ played, wins, cards }: Pick<SeriesTally, 'played' | 'wins' | 'cards'>): SeriesResults => ({
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
export async function seriesOfPlayer(store: SeriesStore, playerId: number): Promise<PlayerSeries[]> {
  return (await store.ofPlayer(playerId)).map((row) => ({ code: row.code, variant: row.variant, ...resultsOf(row), next: nextOf(row.lastDeal, row.playing === 1) }));
}

export class SeriesService {
  constructor(
    private readonly store: SeriesStore,
    private readonly players: PlayerStore,
    private readonly games: GameService,
    private readonly clock: Clock,
  ) {}

  /** A new series of `variant` created by `creator`, with a fresh secret seed. */
  async create(creator: PlayerView, variant: VariantId): Promise<SeriesView> {
    const code = await freshShareCode((code) => this.store.byCode(code));
    await this.store.create({ code, variant, seed: randomBytes(16).toString('base64url'), creatorId: creator.id, createdAt: this.clock.now() });
    return this.view(code, creator);
  }

  async view(code: string, viewer: PlayerView | null): Promise<SeriesView> {
    const row = await this.mustFind(code);
    const creator = (await this.players.byId(row.creatorId))!;
    const standings = await this.store.standings(row.id);
    return {
      code: row.code,
      variant: row.variant,
      deals: SERIES_DEALS,
      creator,
      createdAt: row.createdAt,
      benchmark: BENCHMARKS[row.variant] ?? null,
      me: viewer && (await this.progressOf(row, viewer.id)),
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
  async deal(player: PlayerView, code: string, deal: number): Promise<SeriesDeal> {
    const row = await this.mustFind(code);
    const mine = await this.store.gamesOf(row.id, player.id);
    const last = mine.at(-1);
    const playing = last?.status === 'playing';
    const next = nextOf(last?.seriesDeal ?? null, playing);
    if (deal === next && playing) return { game: (await this.games.get(last!.id))!, created: false };
    if (next === null || deal < next) throw playedRefusal(row, mine.find((game) => game.seriesDeal === deal)!, next);
    if (deal > next) {
      const message = playing
        ? `deal ${next} of series ${row.code} is still being played: finish it (or resign it) before deal ${deal}`
        : `deals of series ${row.code} come in order: your next one is deal ${next}, not ${deal}`;
      throw new Refusal('series-deal-ahead', message, { field: 'deal', params: { series: row.code, deal, next, playing } });
    }
    // The unique index on (series, player, deal) decides between two requests at once: the
    // second gets the game the first dealt.
    try {
      const [game] = await this.games.create([
        { kind: 'series', playerId: player.id, series: { id: row.id, deal }, variant: row.variant, seed: seriesDealSeed(row.seed, deal), startedAt: this.clock.now() },
      ]);
      return { game: game!, created: true };
    } catch (error) {
      if (!this.games.isDuplicate(error)) throw error;
    }
    const stored = (await this.store.gamesOf(row.id, player.id)).find((game) => game.seriesDeal === deal)!;
    if (stored.status !== 'playing') throw playedRefusal(row, stored, nextOf(deal, false));
    return { game: (await this.games.get(stored.id))!, created: false };
  }

  private async progressOf(row: SeriesRow, playerId: number): Promise<SeriesProgress | null> {
    const mine = await this.store.gamesOf(row.id, playerId);
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

  private async mustFind(code: string): Promise<SeriesRow> {
    const row = await this.store.byCode(code);
    if (!row) throw new Refusal('unknown-series', `there is no series ${code}`, { field: 'code', params: { series: code } });
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
    { field: 'deal', params: { series: row.code, deal: game.seriesDeal!, state: game.status, foundations: game.foundations, next } },
  );
}
