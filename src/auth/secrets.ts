/**
 * Random secrets and their stored form. Every secret Klebb hands out (session cookie, invite
 * code, setup code, agent token) is 256 bits from the OS generator and is kept only as its
 * SHA-256 hex digest; a presented secret is hashed and compared with
 * the stored digests by the constant-time checker (src/auth/safe-equal.ts).
 */
import { createHash, randomBytes } from 'node:crypto';

/** Bytes of randomness in every secret (256 bits). */
export const SECRET_BYTES = 32;

/** A new random secret, base64url (43 characters). */
export function newSecret(bytes = SECRET_BYTES): string {
  return randomBytes(bytes).toString('base64url');
}

/** A short random public id (for listing and deleting a stored record without its secret), hex. */
export function newId(bytes = 9): string {
  return randomBytes(bytes).toString('hex');
}

/** The stored form of a secret: its SHA-256 digest, lower-case hex (64 characters). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A constant-time string comparison, `(given, expected) => equal` (safeEqual, or a spy around it in tests). */
export type SecretEqual = (given: string, expected: string) => boolean;
