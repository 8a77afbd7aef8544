// A software authenticator for the server's passkey tests: it makes a P-256 credential and
// answers WebAuthn ceremonies the way a browser and a platform authenticator would (attestation
// `none`), so the server's checks (challenge, origin, RP id, signature) are met or broken on purpose.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** User present, user verified; `attested` adds the attested credential data flag. */
const flags = (attested: boolean): number => 0x01 | 0x04 | (attested ? 0x40 : 0);

export class Authenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: { x: Buffer; y: Buffer };
  private counter = 0;

  constructor(private readonly rpId: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    this.publicKey = { x: Buffer.from(jwk.x!, 'base64url'), y: Buffer.from(jwk.y!, 'base64url') };
  }

  /** A registration answering `challenge` for a page at `origin`. */
  register(challenge: string, origin: string): object {
    const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, this.publicKey.x], [-3, this.publicKey.y]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([this.header(true), Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: this.clientData('webauthn.create', challenge, origin), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** An authentication answering `challenge` for a page at `origin`; `forge` signs something else. */
  authenticate(challenge: string, origin: string, forge = false): object {
    const authData = this.header(false);
    const clientDataJSON = this.clientData('webauthn.get', challenge, origin);
    const signed = Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]);
    const signature = sign('sha256', forge ? Buffer.concat([signed, Buffer.from('x')]) : signed, this.privateKey);
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64(authData), signature: b64(signature) },
      clientExtensionResults: {},
    };
  }

  private header(attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags(attested)]), counter]);
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return b64(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }
}
