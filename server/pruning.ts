/**
 * Identities nobody used: a name was chosen (a token handed out) and then nothing was ever
 * played, joined or created with it. Each costs a row and an index entry forever, and a script
 * can make many (rate limits slow that down, they do not undo it). After the retention period
 * such identities are deleted; their token then answers 401 like any unknown token, and the
 * client asks for a name again. Anyone who played even once is kept, with their history.
 * The deletion itself is PlayerStore.pruneUnused.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { DeadlineHandler, Scheduler } from './ports.js';
import type { PlayerStore } from './stores.js';

export interface PruningRules {
  /** How long an identity may stay unused before it is deleted. */
  retentionMs: number;
  /** How often the server looks for them. */
  intervalMs: number;
}

const DAY_MS = 86_400_000;
export const DEFAULT_PRUNING_RULES: PruningRules = { retentionMs: 30 * DAY_MS, intervalMs: 3_600_000 };


export const PRUNING = 'pruning';

/**
 * Pruning as a kind of the scheduler's deadlines: one round due at once when the timers are
 * taken over (alone: at start), each round arming the next. A failed round is logged and the
 * next one tries again.
 */
export function pruningRounds(
  store: Pick<PlayerStore, 'pruneUnused'>,
  scheduler: Pick<Scheduler, 'arm'>,
  clock: Clock,
  log: FastifyBaseLogger,
  failure: (error: unknown) => string | undefined,
  rules: PruningRules,
): DeadlineHandler {
  const round = async (): Promise<void> => {
    try {
      const pruned = await store.pruneUnused(clock.now() - rules.retentionMs);
      if (pruned > 0) log.info({ pruned }, 'unused identities past their retention period deleted');
    } catch (error) {
      // Not urgent: the next round tries again.
      log.error({ err: error, code: failure(error) }, 'cannot prune unused identities');
    }
    scheduler.arm(PRUNING, 'rounds', clock.now() + rules.intervalMs);
  };
  return { due: round, stored: () => [{ key: 'rounds', at: clock.now() }] };
}
