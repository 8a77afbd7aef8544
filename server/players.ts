/**
 * Anonymous players: a name gets a random token, stored only as its SHA-256, so a leaked
 * database gives no way to act as anyone; every request with a token is checked against it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { DomainEvents } from './events.js';
import { after, type Pending } from './ports.js';
import type { PlayerStore } from './stores.js';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export class PlayerService {
  constructor(
    private readonly store: PlayerStore,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  /** A new identity and its token, the only time the token is seen in clear. */
  create(name: string): Pending<{ player: PlayerView; token: string }> {
    const token = randomBytes(32).toString('base64url');
    return after(this.store.create(name, hashToken(token), this.clock.now()), (player) => {
      this.events.emit({ type: 'player-created', player });
      return { player, token };
    });
  }

  /** The player owning `token`, or undefined. */
  byToken(token: string): Pending<PlayerView | undefined> {
    return this.store.byTokenHash(hashToken(token));
  }
}
