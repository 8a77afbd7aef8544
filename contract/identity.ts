/**
 * The shapes of an identity's ways in: its devices (each with a token of its own), one-time
 * device links, and passkeys (WebAuthn). The passkey ceremonies' own objects are WebAuthn's
 * JSON forms, checked here for their outline only: @simplewebauthn/server reads them in full.
 */
import { z } from 'zod';
import { playerView } from './views.js';

/** The symbols of a link code: digits and capitals, without I, L, O and U (read as 1, 1, 0 and V when typed). */
export const LINK_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Ten symbols of 32: 50 bits, shown as `ABCDE-FGHJK`. */
export const LINK_CODE_LENGTH = 10;

/** A link code as typed: any case, with or without its hyphen or spaces; ambiguous letters read as what they look like. */
export function normalizeLinkCode(text: string): string {
  return text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
    .replace(/U/g, 'V');
}

export const linkCodeParams = z.strictObject({
  code: z
    .string()
    .transform(normalizeLinkCode)
    .refine((code) => code.length === LINK_CODE_LENGTH && [...code].every((symbol) => LINK_CODE_ALPHABET.includes(symbol)), {
      message: `a link code is ${LINK_CODE_LENGTH} letters and digits`,
      params: { rule: 'link-code', min: LINK_CODE_LENGTH, max: LINK_CODE_LENGTH },
    }),
});

const idParam = (what: string) => z.strictObject({ id: z.string().regex(/^[1-9]\d{0,14}$/, `${what} id is a positive integer`).transform(Number) });
export const deviceIdParams = idParam('a device');
export const passkeyIdParams = idParam('a passkey');

export const deviceView = z.object({
  id: z.number().int(),
  /** Browser and system read from the device's user agent (`Firefox, Linux`); empty when unknown. */
  name: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
  /** The device that asked. */
  current: z.boolean(),
});
export const devicesAnswer = z.object({ devices: z.array(deviceView) });
export const signedOutAnswer = z.object({ device: z.number().int() });

export const linkAnswer = z.object({
  /** Ten symbols, `ABCDE-FGHJK`: typed on the other device, or read from the link or the QR code. */
  code: z.string(),
  /** The page that claims it; the code rides in its fragment, which browsers never send to a server. */
  url: z.string(),
  expiresAt: z.number().int(),
  /** The link as a QR code, an SVG document drawn on the server (the page's bundle stays small). */
  qr: z.string(),
});
/** Whose identity a link hands over, for "Continue as NAME?". */
export const linkOwnerAnswer = z.object({ player: playerView, expiresAt: z.number().int() });

/** An identity and a token of a device of its own, shown once. */
export const signedInAnswer = z.object({ player: playerView, token: z.string() });

export const passkeyView = z.object({
  id: z.number().int(),
  /** The device it was made on, as for a device. */
  name: z.string(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
});
export const passkeysAnswer = z.object({ passkeys: z.array(passkeyView) });
export const passkeyAnswer = z.object({ passkey: passkeyView });
export const passkeyRemovedAnswer = z.object({ passkey: z.number().int() });

/** A ceremony's options (WebAuthn's JSON form), handed to the browser as they are. */
export const passkeyOptionsAnswer = z.looseObject({ challenge: z.string() });
/** What the browser's authenticator answered (a registration's or an authentication's JSON form). */
export const passkeyCeremonyBody = z.strictObject({
  response: z.looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: z.string().min(1).max(4096) }),
  }),
});

export type DeviceView = z.infer<typeof deviceView>;
export type PasskeyView = z.infer<typeof passkeyView>;
export type LinkAnswer = z.infer<typeof linkAnswer>;
export type PasskeyCeremonyBody = z.input<typeof passkeyCeremonyBody>;
