/**
 * The WebAuthn relying party (`@simplewebauthn/server` 14): options for
 * registering and using passkeys, and verification of what the browser sends back.
 * `attestationType: 'none'`, `residentKey: 'preferred'`, `userVerification: 'required'` for both
 * ceremonies; an account's existing passkeys are excluded when it registers another. The library
 * (and its ASN.1 stack) is loaded at the first ceremony, not at start-up.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { clipGraphemes } from '../common/graphemes.js';
import { KlebbError } from '../errors.js';
import { lazyImport } from '../lazy-module.js';
import { CHALLENGE_TTL_MS } from './auth-limits.js';
import { countsAlone, type StoredPasskey } from './passkey-store.js';

const webauthn = lazyImport(() => import('@simplewebauthn/server'));

/** The relying party's identity (HEALTH_RP_NAME, HEALTH_RP_ID). */
export interface RelyingParty {
  name: string;
  id: string;
}

/** 400 VERIFICATION_FAILED: the browser's answer did not check out (the message says why). */
function verificationFailed(err: unknown): KlebbError {
  const why = err instanceof Error ? clipGraphemes(err.message, 300) : 'the response is not valid';
  return new KlebbError(400, 'VERIFICATION_FAILED', `The passkey could not be verified: ${why}`);
}

/** Options for `navigator.credentials.create()` for account `label` (user handle `userId`, base64url). */
export async function registrationOptions(
  rp: RelyingParty,
  label: string,
  userId: string,
  existing: StoredPasskey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: label,
    userDisplayName: label,
    userID: new Uint8Array(Buffer.from(userId, 'base64url')),
    attestationType: 'none',
    timeout: CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

/**
 * Verifies a registration response against its challenge and the accepted origins.
 * @returns the passkey to store (nickname and times filled by the caller).
 * @throws 400 VERIFICATION_FAILED when the response is malformed or does not verify.
 */
export async function verifyRegistration(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  origins: string[],
): Promise<Omit<StoredPasskey, 'nickname' | 'registeredAt' | 'lastUsedAt'>> {
  const { verifyRegistrationResponse: verify } = await webauthn();
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verify({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (err) {
    throw verificationFailed(err);
  }
  if (!result.verified) throw verificationFailed(undefined);
  const info = result.registrationInfo;
  return {
    id: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  };
}

/** Options for `navigator.credentials.get()` listing every registered passkey. */
export async function authenticationOptions(
  rp: RelyingParty,
  passkeys: StoredPasskey[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CHALLENGE_TTL_MS,
    userVerification: 'required',
    allowCredentials: passkeys.map((c) => ({ id: c.id, transports: c.transports })),
  });
}

/**
 * Verifies a sign-in response made with `passkey`.
 * @returns the authenticator's new signature counter.
 * @throws 400 VERIFICATION_FAILED when it does not verify (bad signature, wrong origin or RP,
 *   no user verification, a counter that went backwards on a passkey bound to one device).
 */
export async function verifyAuthentication(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  origins: string[],
  passkey: StoredPasskey,
): Promise<number> {
  const { verifyAuthenticationResponse: verify } = await webauthn();
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verify({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        // a synced passkey's counter is not checked (countsAlone): 0 makes the library skip it
        counter: countsAlone(passkey) ? passkey.counter : 0,
        transports: passkey.transports,
      },
    });
  } catch (err) {
    throw verificationFailed(err);
  }
  if (!result.verified) throw verificationFailed(undefined);
  return result.authenticationInfo.newCounter;
}
