import fp from 'fastify-plugin';
import { noteStorageFailure } from '../db/index.js';
import { DEFAULT_PRUNING_RULES, pruneUnusedIdentities, type PruningRules } from '../pruning.js';

/** Deletes unused identities past their retention period, once at start and then every interval. */
export default fp<Partial<PruningRules>>(
  async (app, options) => {
    const rules = { ...DEFAULT_PRUNING_RULES, ...options };
    let cancel: (() => void) | undefined;
    const round = () => {
      try {
        const pruned = pruneUnusedIdentities(app.db, app.clock.now() - rules.retentionMs);
        if (pruned > 0) app.log.info({ pruned }, 'unused identities past their retention period deleted');
      } catch (error) {
        // Not urgent: the next round tries again.
        const code = noteStorageFailure(app.db, error);
        app.log.error({ err: error, code }, 'cannot prune unused identities');
      }
      cancel = app.clock.setTimer(rules.intervalMs, round);
    };
    app.addHook('onReady', async () => round());
    app.addHook('preClose', async () => cancel?.());
  },
  { name: 'pruning', dependencies: ['db'] },
);
