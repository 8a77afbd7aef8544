import type { ProgressView, RacerView } from './contract.js';

type PresenceState = RacerView['presence']['state'];
import { statusText } from './format.js';
import { t } from './i18n.svelte.js';

/** Every this many cards home is worth telling the others. */
export const MILESTONE_CARDS = 13;

interface Seen {
  tier: number;
  done: boolean;
}

/**
 * What is new in the opponents' progress since the last call, as sentences for a screen reader:
 * a finish, every 13 cards home, a lost connection and a return. A racer seen for the first time
 * is only noted, so opening or reloading a race announces nothing. Each change is said once: the
 * time left to come back is shown, never read out (it changes every second), and an abandonment
 * is the race's own event (`race-event.abandoned`), not a finish said a second time.
 */
export class Milestones {
  private readonly seen = new Map<number, Seen>();
  private readonly presence = new Map<number, PresenceState>();

  news(progress: readonly ProgressView[], myId: number | null, racers: readonly RacerView[] = []): string[] {
    const said: string[] = [];
    for (const racer of racers) {
      if (racer.id === myId) continue;
      const before = this.presence.get(racer.id);
      this.presence.set(racer.id, racer.presence.state);
      if (before === undefined || before === racer.presence.state) continue;
      if (racer.presence.state === 'reconnecting') said.push(t('milestone.away', { name: racer.name }));
      else if (racer.presence.state === 'online' && before === 'reconnecting') said.push(t('milestone.back', { name: racer.name }));
    }
    for (const racer of progress) {
      if (racer.playerId === myId) continue;
      const tier = Math.floor(racer.foundations / MILESTONE_CARDS);
      const done = racer.status !== 'playing' && racer.status !== 'disconnected';
      const before = this.seen.get(racer.playerId);
      this.seen.set(racer.playerId, { tier, done });
      if (!before) continue;
      if (done && !before.done && racer.status !== 'abandoned')
        said.push(racer.status === 'won' ? t('milestone.won', { name: racer.name }) : t('milestone.finished', { name: racer.name, status: statusText(racer.status), count: racer.foundations }));
      else if (tier > before.tier && !done) said.push(t('milestone.home', { name: racer.name, count: racer.foundations }));
    }
    return said;
  }
}
