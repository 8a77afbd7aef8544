/**
 * The public lobby: who is online, the listed lobbies anyone may join, the listed races under way
 * anyone may watch (the highest rated of the running ones featured), and how many wait in the
 * pool. Watchers subscribe on the socket; the lobby is read at most once per window while anyone
 * here watches it, and a watcher gets a frame only when it changed: one frame per window per
 * socket however many races change, and nothing at all on an instance where nobody watches.
 * Reading from the store rather than from events lets every instance show every instance's races.
 */
import type { FastifyBaseLogger } from 'fastify';
import { playerTag, type LiveRaceView, type LobbyView, type OpenRaceView, type PublicPlayer, type ServerMessage } from '../../contract/index.js';
import type { VariantId } from '../../shared/index.js';
import type { Clock } from '../clock.js';
import type { PlayerRatings } from '../player-ratings.js';
import type { ListedRaceRow, LobbyStore } from '../stores.js';

/** The lobby is read and sent at most this often. */
export const LOBBY_WINDOW_MS = 1000;
/** Races listed per section: the newest. */
export const LOBBY_RACES = 30;

export interface LobbyParts {
  readonly store: LobbyStore;
  readonly ratings: PlayerRatings;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  /** Players with a socket now, everywhere. */
  readonly online: () => number;
  readonly windowMs: number;
}

/** A watcher: where its frames go. */
export type LobbyWatcher = (message: ServerMessage) => void;

export class Lobby {
  private readonly watchers = new Set<LobbyWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private last: { view: LobbyView; at: number } | undefined;
  /** What the last window sent its watchers. */
  private sent: string | undefined;
  private reading: Promise<LobbyView> | undefined;

  constructor(private readonly parts: LobbyParts) {}

  /** Starts sending the lobby to `watcher`: the current view at once (read at most once per window), then each change. */
  async watch(watcher: LobbyWatcher): Promise<void> {
    this.watchers.add(watcher);
    this.timer ??= setInterval(() => void this.tick(), this.parts.windowMs).unref();
    const now = this.parts.clock.now();
    const view = this.last && now - this.last.at < this.parts.windowMs ? this.last.view : await this.read();
    if (this.watchers.has(watcher)) watcher({ type: 'lobby', lobby: view, serverTime: this.parts.clock.now() });
  }

  unwatch(watcher: LobbyWatcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
    this.sent = undefined;
  }

  close(): void {
    this.watchers.clear();
    clearInterval(this.timer);
  }

  /** The lobby as it stands (one read at a time: watchers arriving together share it). */
  read(): Promise<LobbyView> {
    this.reading ??= this.compose().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** One window: the lobby read once and sent to every watcher if it changed. */
  private async tick(): Promise<void> {
    try {
      const view = await this.read();
      const text = JSON.stringify(view);
      if (text === this.sent) return;
      this.sent = text;
      const message: ServerMessage = { type: 'lobby', lobby: view, serverTime: this.parts.clock.now() };
      for (const watcher of this.watchers) watcher(message);
    } catch (error) {
      this.parts.log.warn({ err: error }, 'cannot read the lobby: the next window tries again');
    }
  }

  private async compose(): Promise<LobbyView> {
    const { store, ratings, online } = this.parts;
    const rows = await store.listed(LOBBY_RACES);
    const ratingOf = async (player: { id: number; name: string }, variant: VariantId): Promise<PublicPlayer> => ({
      id: player.id,
      name: player.name,
      tag: playerTag(player.id),
      rating: await ratings.ratingOf(player.id, variant),
    });
    const open: OpenRaceView[] = [];
    const live: LiveRaceView[] = [];
    for (const row of rows) {
      if (row.state === 'lobby') open.push(await this.openRace(row, ratingOf));
      else if (row.state === 'countdown' || row.state === 'running') {
        const racers = await Promise.all(row.racers.map((racer) => ratingOf(racer, row.variant)));
        live.push({ code: row.code, variant: row.variant, rated: row.rated, state: row.state, startsAt: row.startsAt, racers, rating: meanRating(racers) });
      }
    }
    const waiting = Object.fromEntries((await store.waitingByVariant()).map(({ variant, count }) => [variant, count]));
    const view: LobbyView = { online: online(), open, live, featured: featuredOf(live), waiting };
    this.last = { view, at: this.parts.clock.now() };
    return view;
  }

  private async openRace(row: ListedRaceRow, ratingOf: (player: { id: number; name: string }, variant: VariantId) => Promise<PublicPlayer>): Promise<OpenRaceView> {
    const creator = row.racers.find((racer) => racer.id === row.creatorId) ?? row.racers[0] ?? { id: row.creatorId, name: '' };
    return {
      code: row.code,
      variant: row.variant,
      seats: row.seats,
      taken: row.racers.length,
      timeLimitSeconds: row.timeLimitSeconds,
      rated: row.rated,
      creator: await ratingOf(creator, row.variant),
      createdAt: row.createdAt,
    };
  }
}

function meanRating(racers: readonly PublicPlayer[]): number | null {
  const rated = racers.flatMap((racer) => (racer.rating === null ? [] : [racer.rating]));
  return rated.length === 0 ? null : Math.round(rated.reduce((sum, rating) => sum + rating, 0) / rated.length);
}

/** The running race to feature: the highest rated (a race without ratings below any with), then the most racers, then the newest. */
export function featuredOf(live: readonly LiveRaceView[]): string | null {
  let best: LiveRaceView | undefined;
  for (const race of live) {
    if (race.state !== 'running') continue;
    if (!best || compareFeatured(race, best) < 0) best = race;
  }
  return best?.code ?? null;
}

function compareFeatured(a: LiveRaceView, b: LiveRaceView): number {
  const rating = (b.rating ?? -Infinity) - (a.rating ?? -Infinity);
  if (rating !== 0 && !Number.isNaN(rating)) return rating;
  return b.racers.length - a.racers.length || (b.startsAt ?? 0) - (a.startsAt ?? 0);
}
