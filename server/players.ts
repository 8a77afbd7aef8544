/**
 * Anonymous players: a name gets a random token, stored only as its SHA-256, so a leaked
 * database gives no way to act as anyone; every request with a token is checked against it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import type { DomainEvents } from './events.js';
import { after, type Pending } from './ports.js';
import { refuseName, type RefusedRule } from './refused-names.js';
import type { PlayerStore } from './stores.js';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export class PlayerService {
  constructor(
    private readonly store: PlayerStore,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly refusedNames: readonly RefusedRule[],
  ) {}

  /** A new identity and its token, the only time the token is seen in clear; a name of the refused-words list is refused. */
  create(name: string): Pending<{ player: PlayerView; token: string }> {
    refuseName(this.refusedNames, name);
    const token = randomBytes(32).toString('base64url');
    return after(this.store.create(name, hashToken(token), this.clock.now()), (player) => {
      this.events.emit({ type: 'player-created', player });
      return { player, token };
    });
  }

  /** The player owning `token`, or undefined; a banned identity is refused (moderation.ts). */
  byToken(token: string): Pending<PlayerView | undefined> {
    return after(this.store.byTokenHash(hashToken(token)), (found) => {
      if (!found) return undefined;
      if (found.bannedAt !== null) throw new Refusal('banned', 'an operator has banned this identity', { params: { player: found.id } });
      return { id: found.id, name: found.name };
    });
  }
}
