/** Identities on several devices (players.ts, device-links.ts, passkeys.ts): devices, one-time links, passkeys and their challenges. Part of the storage seam (../stores.ts). */
import type { PlayerView } from '../../contract/index.js';
import type { Pending } from '../ports.js';

/** A device about to get its token: the token's SHA-256 and a name from its user agent. */
export interface NewDevice {
  readonly tokenHash: string;
  readonly name: string;
}

export interface DeviceRow {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/** Whose token a hash is: the player and the device, while it is signed in. */
export interface SignedIn {
  readonly player: PlayerView;
  readonly deviceId: number;
  readonly lastSeenAt: number;
  /** When an operator banned the identity (moderation.ts): a banned identity is refused on every request. */
  readonly bannedAt: number | null;
}

/** Why a device link was not claimed: no such code, its 10 minutes are over, or it was used. */
export type LinkRefusal = 'unknown' | 'expired' | 'used';

export interface PasskeyRow {
  readonly id: number;
  readonly playerId: number;
  readonly credentialId: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: string;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

export type ChallengePurpose = 'register' | 'sign-in';

/** An identity's ways in: its devices (each a token), its device links and its passkeys. */
export interface IdentityStore {
  /** The signed-in device whose token hashes to `tokenHash`, with its player; undefined once signed out or unknown. */
  byTokenHash(tokenHash: string): Pending<SignedIn | undefined>;
  addDevice(playerId: number, device: NewDevice, at: number): Pending<number>;
  /** The player's signed-in devices, most recently seen first. */
  devices(playerId: number): Pending<DeviceRow[]>;
  seen(deviceId: number, at: number): Pending<void>;
  /** Signs a device of this player out; false when it is not theirs or already out. */
  signOut(playerId: number, deviceId: number, at: number): Pending<boolean>;
  createLink(codeHash: string, playerId: number, expiresAt: number): Pending<void>;
  /** The player a link names while it can still be claimed, or why not. */
  linkOwner(codeHash: string, at: number): Pending<{ player: PlayerView; expiresAt: number } | LinkRefusal>;
  /** Marks the link used and adds the device, in one transaction: the link works once, whoever races for it. */
  claimLink(codeHash: string, device: NewDevice, at: number): Pending<{ player: PlayerView; deviceId: number } | LinkRefusal>;
  addPasskey(passkey: Omit<PasskeyRow, 'id' | 'lastUsedAt'>): Pending<number>;
  passkeys(playerId: number): Pending<PasskeyRow[]>;
  passkeyByCredential(credentialId: string): Pending<PasskeyRow | undefined>;
  /** A passkey signed in: its new counter, and a new device for the player, in one transaction. */
  passkeyUsed(passkeyId: number, counter: number, device: NewDevice, at: number): Pending<{ player: PlayerView; deviceId: number }>;
  removePasskey(playerId: number, passkeyId: number): Pending<boolean>;
  /** Stores a challenge just handed out (and forgets the expired ones). */
  storeChallenge(challenge: string, purpose: ChallengePurpose, playerId: number | null, expiresAt: number): Pending<void>;
  /** Takes a challenge for good: who asked for it (null for a sign-in), or undefined when unknown, expired or of another purpose. */
  takeChallenge(challenge: string, purpose: ChallengePurpose, at: number): Pending<{ playerId: number | null } | undefined>;
}
