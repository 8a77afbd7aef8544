import type { ProgressView } from './contract.js';
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
 * a finish, and every 13 cards home. A racer seen for the first time is only noted, so opening
 * or reloading a race announces nothing.
 */
export class Milestones {
  private readonly seen = new Map<number, Seen>();

  news(progress: readonly ProgressView[], myId: number | null): string[] {
    const said: string[] = [];
    for (const racer of progress) {
      if (racer.playerId === myId) continue;
      const tier = Math.floor(racer.foundations / MILESTONE_CARDS);
      const done = racer.status !== 'playing' && racer.status !== 'disconnected';
      const before = this.seen.get(racer.playerId);
      this.seen.set(racer.playerId, { tier, done });
      if (!before) continue;
      if (done && !before.done)
        said.push(racer.status === 'won' ? t('milestone.won', { name: racer.name }) : t('milestone.finished', { name: racer.name, status: statusText(racer.status), count: racer.foundations }));
      else if (tier > before.tier && !done) said.push(t('milestone.home', { name: racer.name, count: racer.foundations }));
    }
    return said;
  }
}
