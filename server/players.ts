/**
 * Players and their devices. An identity is a name; each device it is used on holds a random
 * token of its own, stored only as its SHA-256 (a leaked database gives no way to act as anyone),
 * and every request with a token is checked against the devices signed in. Signing a device out
 * ends its token at once: the event tells every instance to close that device's sockets.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DeviceView, PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import type { DomainEvents } from './events.js';
import { after, type Pending } from './ports.js';
import { refuseName, type RefusedRule } from './refused-names.js';
import type { IdentityStore, NewDevice, PlayerStore, SignedIn } from './stores.js';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A device's last sight is written at most this often: a request does not cost a write. */
export const SEEN_EVERY_MS = 5 * 60 * 1000;

/** A fresh token and what its device is stored with. */
export function newDevice(name: string): { token: string; device: NewDevice } {
  const token = randomBytes(32).toString('base64url');
  return { token, device: { tokenHash: hashToken(token), name } };
}

export class PlayerService {
  constructor(
    private readonly store: PlayerStore,
    private readonly identities: IdentityStore,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly refusedNames: readonly RefusedRule[],
  ) {}

  /** A new identity and its first device's token, the only time the token is seen in clear; a name of the refused-words list is refused. */
  create(name: string, deviceName: string): Pending<{ player: PlayerView; token: string }> {
    refuseName(this.refusedNames, name);
    const { token, device } = newDevice(deviceName);
    return after(this.store.create(name, device, this.clock.now()), ({ player }) => {
      this.events.emit({ type: 'player-created', player });
      return { player, token };
    });
  }

  /** The player and device owning `token` while it is signed in, or undefined; a banned identity is refused (moderation.ts). */
  byToken(token: string): Pending<SignedIn | undefined> {
    return after(this.identities.byTokenHash(hashToken(token)), (signedIn) => {
      if (signedIn?.bannedAt != null) throw new Refusal('banned', 'an operator has banned this identity', { params: { player: signedIn.player.id } });
      const now = this.clock.now();
      if (signedIn && now - signedIn.lastSeenAt >= SEEN_EVERY_MS) return after(this.identities.seen(signedIn.deviceId, now), () => signedIn);
      return signedIn;
    });
  }

  /** A new name for the same identity: its games, series and ratings stay its own. */
  rename(playerId: number, name: string): Pending<PlayerView | undefined> {
    refuseName(this.refusedNames, name);
    return this.store.rename(playerId, name);
  }

  /** The player's signed-in devices, `current` marked. */
  devices(playerId: number, current: number): Pending<DeviceView[]> {
    return after(this.identities.devices(playerId), (rows) => rows.map((row) => ({ ...row, current: row.id === current })));
  }

  /** Signs one of the player's devices out (this one included); false when it is not one of theirs signed in. */
  signOut(playerId: number, deviceId: number): Pending<boolean> {
    return after(this.identities.signOut(playerId, deviceId, this.clock.now()), (signedOut) => {
      if (signedOut) this.events.emit({ type: 'device-signed-out', playerId, deviceId });
      return signedOut;
    });
  }
}
