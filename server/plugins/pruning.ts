import fp from 'fastify-plugin';
import { DEFAULT_PRUNING_RULES, type PruningRules } from '../pruning.js';

/** Deletes unused identities past their retention period, on the timer owner: once on taking the timers (at start) and then every interval. */
export default fp<Partial<PruningRules>>(
  async (app, options) => {
    const rules = { ...DEFAULT_PRUNING_RULES, ...options };
    let cancel: (() => void) | undefined;
    const round = async () => {
      try {
        const pruned = await app.storage.players.pruneUnused(app.clock.now() - rules.retentionMs);
        if (pruned > 0) app.log.info({ pruned }, 'unused identities past their retention period deleted');
      } catch (error) {
        // Not urgent: the next round tries again.
        const code = app.storage.failure(error);
        app.log.error({ err: error, code }, 'cannot prune unused identities');
      }
      cancel = app.timers.clock.setTimer(rules.intervalMs, () => void round());
    };
    app.timers.onTakeover(round);
    app.addHook('preClose', async () => cancel?.());
  },
  { name: 'pruning', dependencies: ['db', 'timers'] },
);
