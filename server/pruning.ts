/**
 * Identities nobody used: a name was chosen (a token handed out) and then nothing was ever
 * played, joined or created with it. Each costs a row and an index entry forever, and a script
 * can make many (rate limits slow that down, they do not undo it). After the retention period
 * such identities are deleted; their token then answers 401 like any unknown token, and the
 * client asks for a name again. Anyone who played even once is kept, with their history.
 * The deletion itself is PlayerStore.pruneUnused.
 */

export interface PruningRules {
  /** How long an identity may stay unused before it is deleted. */
  retentionMs: number;
  /** How often the server looks for them. */
  intervalMs: number;
}

const DAY_MS = 86_400_000;
export const DEFAULT_PRUNING_RULES: PruningRules = { retentionMs: 30 * DAY_MS, intervalMs: 3_600_000 };

