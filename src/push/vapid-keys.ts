/**
 * The instance's VAPID key pair (RFC 8292): made on first start (node:crypto) and kept in
 * `HEALTH_HOME/keys/vapid.json` (mode 0600, written atomically). `keyId` (first 8 hex of the
 * SHA-256 of the public key) lets a browser notice a new key and subscribe again: deleting the
 * file and restarting is how the key is rotated.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { readSecretJson, writeSecretJson } from '../auth/secret-file.js';

/** A stored VAPID key pair; keys are base64url (public: 65-byte uncompressed P-256 point). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  createdAt: string;
  /** First 8 hex characters of SHA-256(publicKey text). */
  keyId: string;
}

/** Where the key pair lives in a home. */
export function vapidKeyFile(home: string): string {
  return path.join(home, 'keys', 'vapid.json');
}

function isStored(v: unknown): v is Omit<VapidKeys, 'keyId'> {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.publicKey === 'string' &&
    Buffer.from(o.publicKey, 'base64url').length === 65 &&
    typeof o.privateKey === 'string' &&
    Buffer.from(o.privateKey, 'base64url').length === 32
  );
}

/** The key id of a public key (first 8 hex of its SHA-256). */
export function keyIdOf(publicKey: string): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 8);
}

/**
 * Reads the key pair, creating it when the file is absent.
 * @throws Error when the file exists but is not a key pair: a silent new key would unsubscribe
 * every phone, so the operator must move the file aside on purpose.
 */
export function loadOrCreateVapidKeys(home: string, now = new Date()): VapidKeys {
  const file = vapidKeyFile(home);
  const read = readSecretJson(file, isStored);
  if (read.state === 'ok') {
    const { publicKey, privateKey, createdAt } = read.value;
    return { publicKey, privateKey, createdAt: String(createdAt ?? ''), keyId: keyIdOf(publicKey) };
  }
  if (read.state === 'broken') {
    throw new Error(`${file} is not a VAPID key pair (${read.reason}); move it aside to make a new one`);
  }
  const made = newVapidKeys();
  const stored = { publicKey: made.publicKey, privateKey: made.privateKey, createdAt: now.toISOString() };
  writeSecretJson(file, stored);
  return { ...stored, keyId: keyIdOf(stored.publicKey) };
}

/**
 * A new P-256 key pair in the form web-push and browsers take: the public key as the 65-byte
 * uncompressed point, the private key as the 32-byte scalar, both base64url (what
 * `webpush.generateVAPIDKeys()` makes, without loading web-push at start-up).
 */
function newVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(pub.x as string, 'base64url'),
    Buffer.from(pub.y as string, 'base64url'),
  ]);
  return { publicKey: point.toString('base64url'), privateKey: priv.d as string };
}
