import fp from 'fastify-plugin';
import { DEFAULT_PRUNING_RULES, PRUNING, pruningRounds, type PruningRules } from '../pruning.js';

/** Deletes unused identities past their retention period (pruning.ts), where the timers run: on taking them (at start) and then every interval. */
export default fp<Partial<PruningRules>>(
  async (app, options) => {
    const rules = { ...DEFAULT_PRUNING_RULES, ...options };
    app.scheduler.handle(PRUNING, pruningRounds(app.storage.players, app.scheduler, app.clock, app.log, (error) => app.storage.failure(error), rules));
  },
  { name: 'pruning', dependencies: ['db', 'scheduler'] },
);
