import type { ErrorCode } from './contract.js';
import { hasMessage, t, type Values } from './i18n.svelte.js';

/**
 * A server refusal in the player's language, by its code (and its parameters, when it has any).
 * The server's own English `message` is shown only for a code this client has no words for (a
 * newer server).
 */
export function refusalText(code: string, message: string, params?: Values): string {
  const key = `error.${code as ErrorCode}` as const;
  return hasMessage(key) ? t(key, params) : message;
}
