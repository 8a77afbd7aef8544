/**
 * Runs what a race's step (machine.ts) says follows its stored change: deadlines armed or ended
 * through the scheduler, events told to the watchers, the race-finished domain event, the new
 * view. Only the instance whose conditional write made the change runs them, so each is told once.
 */
import type { DomainEvents } from '../events.js';
import type { Scheduler } from '../ports.js';
import type { RaceRow, RaceStore } from '../stores.js';
import type { RaceEffect } from './machine.js';
import type { RaceViews } from './views.js';

/** The kinds of stored deadline races keep (scheduler.ts). */
export const RACE_DEAL = 'race-deal';
export const LOBBY_LIMIT = 'lobby-limit';
export const GRACE_PERIOD = 'grace-period';
/** Not a time but a fact due now: a running race none of whose games plays, its standings not stored. */
export const RACE_STANDINGS = 'race-standings';

export const graceKey = (raceId: number, playerId: number): string => `${raceId}:${playerId}`;

export class RaceEffects {
  constructor(
    private readonly store: RaceStore,
    private readonly views: RaceViews,
    private readonly scheduler: Scheduler,
    private readonly events: DomainEvents,
  ) {}

  async run(race: RaceRow, effects: readonly RaceEffect[]): Promise<void> {
    for (const effect of effects) {
      switch (effect.type) {
        case 'arm-deal':
          this.scheduler.stored(RACE_DEAL, String(race.id), effect.at);
          break;
        case 'end-lobby-limit':
          this.scheduler.cancel(LOBBY_LIMIT, String(race.id));
          break;
        case 'end-grace-periods':
          for (const entry of await this.store.entries(race.id)) this.scheduler.cancel(GRACE_PERIOD, graceKey(race.id, entry.playerId));
          break;
        case 'announce':
          this.views.announce(race.code, effect.event);
          break;
        case 'finished':
          this.events.emit({ type: 'race-finished', raceId: race.id, code: race.code, finishedAt: effect.finishedAt, standings: effect.standings, rated: race.rated });
          break;
        case 'broadcast':
          await this.views.broadcastView(race.code);
          break;
      }
    }
  }
}
