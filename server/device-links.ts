/**
 * One-time device links: a player asks for one on a device they use, and another device claims
 * it within 10 minutes, getting a token of its own for the same identity. The code is ten symbols
 * of 32 (50 bits, about 1.1e15 codes); it is stored only as its SHA-256, works once, and the
 * link carries it in the URL's fragment, which the browser never sends to a server (the page
 * drops it from the address bar as it reads it). Guessing is bounded by the rate limit on the
 * link routes (plugins/rate-limits.ts): at 10 tries a minute an address makes 100 guesses in a
 * code's 10 minutes, a chance of about 1e-13 per live code.
 */
import { createHash, randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import { LINK_CODE_ALPHABET, LINK_CODE_LENGTH, type LinkAnswer, type PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import { newDevice } from './players.js';
import { after, type Pending } from './ports.js';
import type { IdentityStore, LinkRefusal } from './stores.js';

export const LINK_LIFETIME_MS = 10 * 60 * 1000;

const hashCode = (code: string): string => createHash('sha256').update(`link:${code}`).digest('hex');

function newCode(): string {
  return Array.from({ length: LINK_CODE_LENGTH }, () => LINK_CODE_ALPHABET[randomInt(LINK_CODE_ALPHABET.length)]).join('');
}

/** `ABCDE-FGHJK`: two halves are easier to read out and type. */
const shown = (code: string): string => `${code.slice(0, LINK_CODE_LENGTH / 2)}-${code.slice(LINK_CODE_LENGTH / 2)}`;

function refused(reason: LinkRefusal): Refusal {
  if (reason === 'expired') return new Refusal('link-expired', 'this device link has expired (links last 10 minutes): make a new one on your other device');
  if (reason === 'used') return new Refusal('link-used', 'this device link was used already (each works once): make a new one on your other device');
  return new Refusal('unknown-link', 'no device link has this code: check it, or make a new one on your other device');
}

export class DeviceLinks {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: Clock,
  ) {}

  /** A new link to the player's identity; `origin` is the site's (`https://lucie.example`). */
  async create(playerId: number, origin: string): Promise<LinkAnswer> {
    const code = newCode();
    const expiresAt = this.clock.now() + LINK_LIFETIME_MS;
    await this.store.createLink(hashCode(code), playerId, expiresAt);
    const url = `${origin}/link#${shown(code)}`;
    const qr = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { code: shown(code), url, expiresAt, qr };
  }

  /** Whose identity a code (normalised) hands over; refused as a claim would be. */
  owner(code: string): Pending<{ player: PlayerView; expiresAt: number }> {
    const at = this.clock.now();
    return after(this.store.linkOwner(hashCode(code), at), (owner) => {
      if (typeof owner === 'string') throw refused(owner);
      return owner;
    });
  }

  /** Claims the link for a new device named `deviceName`: its token, shown once. */
  claim(code: string, deviceName: string): Pending<{ player: PlayerView; token: string }> {
    const { token, device } = newDevice(deviceName);
    return after(this.store.claimLink(hashCode(code), device, this.clock.now()), (claimed) => {
      if (typeof claimed === 'string') throw refused(claimed);
      return { player: claimed.player, token };
    });
  }
}
