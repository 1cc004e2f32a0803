/**
 * A WebAuthn client for API tests: what a browser plus a platform authenticator would send,
 * made with Node's crypto (ES256 keys, `none` attestation, CBOR through SimpleWebAuthn's own
 * helpers). It lets the API tests register passkeys and sign in against the real server without
 * a browser; the Chromium tests (test/e2e/auth-*.test.ts) cover the real browser path with the
 * DevTools virtual authenticator.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
  /** A synced passkey (backup eligible and backed up, flags BE and BS), as password managers make. */
  synced: boolean;
}

const b64 = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** One authenticator (one "device"): it keeps the private keys of the passkeys it made. */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /**
   * @param origin the page origin the browser would put in `clientDataJSON`.
   * @param synced whether its passkeys are synced ones (flags BE and BS set).
   */
  constructor(
    public origin: string,
    readonly synced = false,
  ) {}

  /** The flags byte of authenticator data: user present and verified, plus `extra`. */
  private flags(extra: number): Buffer {
    return Buffer.from([0x01 | 0x04 | extra | (this.synced ? 0x08 | 0x10 : 0)]);
  }

  /** Answers `navigator.credentials.create()` for these options (user verified, `none` attestation). */
  create(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]);
    const id = randomBytes(16);
    const credIdLen = Buffer.alloc(2);
    credIdLen.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      this.flags(0x40), // user present, user verified, attested credential data
      u32(0),
      Buffer.alloc(16), // AAGUID
      credIdLen,
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    this.credentials.push({
      id,
      privateKey,
      rpId,
      userHandle: options.user.id,
      counter: 0,
      synced: this.synced,
    });
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(Buffer.from(clientDataJSON)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers `navigator.credentials.get()` with its newest (or the given) passkey. */
  get(options: PublicKeyCredentialRequestOptionsJSON, which?: string): AuthenticationResponseJSON {
    const cred = which
      ? this.credentials.find((c) => b64(c.id) === which)
      : this.credentials[this.credentials.length - 1];
    if (!cred) throw new Error('this authenticator holds no such passkey');
    cred.counter += 1;
    const authData = Buffer.concat([sha256(cred.rpId), this.flags(0), u32(cred.counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: b64(cred.id),
      rawId: b64(cred.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: cred.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
