/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a player adds passkeys to their identity,
 * and any device signs in with one, getting a token of its own. Every ceremony answers a
 * challenge handed out here, stored server-side, taken (deleted) by the first answer that names
 * it and refused after 5 minutes; the origin and RP id a browser signed for must be the site's
 * (PUBLIC_ORIGIN, PASSKEY_RP_ID), and the signature must check against the stored public key.
 */
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyView, PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import { newDevice } from './players.js';
import type { ChallengePurpose, IdentityStore, PasskeyRow } from './stores.js';

export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

/** Where passkeys are made and used: the site's origin, and the RP id (its host name, or a parent domain of it). */
export interface PasskeySite {
  readonly origin: string;
  readonly rpId: string;
}

/** The site of an origin, its RP id its host name unless told. */
export const passkeySite = (origin: string, rpId?: string): PasskeySite => ({ origin, rpId: rpId ?? new URL(origin).hostname });

/** What a ceremony got wrong, for the refusal's `issue`, read from the library's failure. */
function issueOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/challenge/i.test(message)) return 'challenge';
  if (/origin/i.test(message)) return 'origin';
  if (/RP ID/i.test(message)) return 'rp';
  if (/signature/i.test(message)) return 'signature';
  if (/user (presence|verification)|not verified/i.test(message)) return 'user-verification';
  return 'response';
}

const refused = (issue: string, why: string) => new Refusal('passkey-refused', `the passkey was refused: ${why}`, { params: { issue } });

/** The challenge a browser's answer signed, from its client data (unchecked: the library checks it all). */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string') return data.challenge;
  } catch {
    // Refused below as an unknown challenge.
  }
  return '';
}

export const passkeyView = (row: PasskeyRow): PasskeyView => ({ id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt });

export class Passkeys {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: Clock,
  ) {}

  /** Options for adding a passkey to `player`'s identity (its passkeys excluded, so one authenticator is not added twice). */
  async registrationOptions(player: PlayerView, site: PasskeySite): Promise<{ challenge: string }> {
    const existing = await this.store.passkeys(player.id);
    const options = await generateRegistrationOptions({
      rpName: 'Lucie',
      rpID: site.rpId,
      userName: player.name,
      userDisplayName: player.name,
      userID: randomBytes(16),
      challenge: randomBytes(32),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.store.storeChallenge(options.challenge, 'register', player.id, this.clock.now() + CHALLENGE_LIFETIME_MS);
    return options;
  }

  /** Stores the passkey the browser made, if it answers this player's challenge for this site. */
  async register(player: PlayerView, response: RegistrationResponseJSON, site: PasskeySite, deviceName: string): Promise<PasskeyView> {
    const challenge = await this.take(response.response.clientDataJSON, 'register', player.id);
    const result = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: site.origin, expectedRPID: site.rpId, requireUserVerification: false }).catch(
      (error: unknown) => {
        throw refused(issueOf(error), (error as Error).message);
      },
    );
    if (!result.verified) throw refused('response', 'the authenticator did not confirm it');
    const { credential } = result.registrationInfo;
    if (await this.store.passkeyByCredential(credential.id)) throw refused('credential', 'this passkey is already added');
    const row = {
      playerId: player.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      name: deviceName,
      createdAt: this.clock.now(),
    };
    const id = await this.store.addPasskey(row);
    return passkeyView({ ...row, id, lastUsedAt: null });
  }

  /** Options for signing in on any device: the browser offers whichever passkey of this site it holds. */
  async signInOptions(site: PasskeySite): Promise<{ challenge: string }> {
    const options = await generateAuthenticationOptions({ rpID: site.rpId, challenge: randomBytes(32), userVerification: 'preferred' });
    await this.store.storeChallenge(options.challenge, 'sign-in', null, this.clock.now() + CHALLENGE_LIFETIME_MS);
    return options;
  }

  /** Signs a new device in with a passkey: its player and the device's token, shown once. */
  async signIn(response: AuthenticationResponseJSON, site: PasskeySite, deviceName: string): Promise<{ player: PlayerView; token: string }> {
    const challenge = await this.take(response.response.clientDataJSON, 'sign-in', null);
    const passkey = await this.store.passkeyByCredential(response.id);
    if (!passkey) throw refused('credential', 'this passkey belongs to no identity here (it may have been removed)');
    const credential = { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: transportsOf(passkey) };
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: site.origin,
      expectedRPID: site.rpId,
      credential,
      requireUserVerification: false,
    }).catch((error: unknown) => {
      throw refused(issueOf(error), (error as Error).message);
    });
    if (!result.verified) throw refused('signature', 'the signature does not match the passkey');
    const { token, device } = newDevice(deviceName);
    const { player } = await this.store.passkeyUsed(passkey.id, result.authenticationInfo.newCounter, device, this.clock.now());
    return { player, token };
  }

  async list(playerId: number): Promise<PasskeyView[]> {
    return (await this.store.passkeys(playerId)).map(passkeyView);
  }

  async remove(playerId: number, passkeyId: number): Promise<void> {
    if (!(await this.store.removePasskey(playerId, passkeyId))) throw new Refusal('unknown-passkey', `you have no passkey ${passkeyId}`, { params: { passkey: passkeyId } });
  }

  /** Takes the challenge an answer signed, once: refused when it was never handed out (to this player), was answered already or is over 5 minutes old. */
  private async take(clientDataJSON: string, purpose: ChallengePurpose, playerId: number | null): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    const taken = challenge === '' ? undefined : await this.store.takeChallenge(challenge, purpose, this.clock.now());
    if (!taken || taken.playerId !== playerId) throw refused('challenge', 'it does not answer a challenge handed out here in the last 5 minutes (each is used once)');
    return challenge;
  }
}

const transportsOf = (passkey: PasskeyRow): AuthenticatorTransport[] =>
  passkey.transports === '' ? [] : (passkey.transports.split(',') as AuthenticatorTransport[]);
