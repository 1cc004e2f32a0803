/**
 * The registered passkeys, `credentials/webauthn.json`: per account label
 * a WebAuthn user handle and its credentials. Only public keys are stored (a passkey's private
 * key never leaves the authenticator), but the file still says who may sign in, so it is written
 * atomically with mode 0600, and an unreadable file never counts as "no passkeys": that would
 * reopen first-run registration to whoever comes first.
 */
import path from 'node:path';
import { conflict, notFound, unavailable } from '../errors.js';
import { readSecretJson, writeSecretJson } from './secret-file.js';

/** One registered passkey. Ids and keys are base64url; times are ISO 8601 UTC. */
export interface StoredPasskey {
  /** The credential id the authenticator chose. */
  id: string;
  /** The credential's COSE public key. */
  publicKey: string;
  /** The authenticator's signature counter (0 for authenticators that do not count). */
  counter: number;
  transports?: string[];
  /** `multiDevice` for a synced passkey, `singleDevice` for one bound to its hardware. */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  /** A name the person gave the device, or null. */
  nickname: string | null;
  registeredAt: string;
  lastUsedAt: string | null;
}

/**
 * Whether the passkey's signature counter is one counter that only goes up: true for a passkey
 * bound to one authenticator. A synced passkey (multiDevice or backed up) is used from several
 * devices or password-manager clients that each count on their own, so a lower number from one
 * of them is no sign of a copied key; refusing it would lock its owner out. (A replayed answer
 * fails anyway: every challenge is used once.)
 */
export function countsAlone(passkey: Pick<StoredPasskey, 'deviceType' | 'backedUp'>): boolean {
  return passkey.deviceType !== 'multiDevice' && passkey.backedUp !== true;
}

/** One account: its WebAuthn user handle (base64url) and passkeys. */
export interface PasskeyUser {
  userId: string;
  credentials: StoredPasskey[];
}

interface PasskeyFile {
  version: 1;
  users: Record<string, PasskeyUser>;
}

function isPasskeyFile(v: unknown): v is PasskeyFile {
  if (!v || typeof v !== 'object') return false;
  const users = (v as { users?: unknown }).users;
  if (!users || typeof users !== 'object' || Array.isArray(users)) return false;
  return Object.values(users).every(
    (u) =>
      u &&
      typeof u === 'object' &&
      typeof (u as PasskeyUser).userId === 'string' &&
      Array.isArray((u as PasskeyUser).credentials) &&
      (u as PasskeyUser).credentials.every(
        (c) =>
          c && typeof c.id === 'string' && typeof c.publicKey === 'string' && typeof c.counter === 'number',
      ),
  );
}

/** The passkey file of one instance, kept in memory and written through on every change. */
export class PasskeyStore {
  readonly file: string;
  private data: PasskeyFile = { version: 1, users: {} };
  /** Why the file could not be read, or null. While set, nobody can register the first passkey. */
  readonly brokenReason: string | null = null;

  /** Loads `<credentialsDir>/webauthn.json` (absent: no passkeys yet). */
  constructor(credentialsDir: string) {
    this.file = path.join(credentialsDir, 'webauthn.json');
    const r = readSecretJson(this.file, isPasskeyFile);
    if (r.state === 'ok') this.data = { version: 1, users: r.value.users };
    else if (r.state === 'broken') this.brokenReason = r.reason;
  }

  /** Number of registered passkeys, all accounts together. */
  count(): number {
    return Object.values(this.data.users).reduce((n, u) => n + u.credentials.length, 0);
  }

  /**
   * True once any passkey exists, or when the file is unreadable (fail closed: first-run
   * registration and the loopback allowance stay shut).
   */
  any(): boolean {
    return this.brokenReason !== null || this.count() > 0;
  }

  /** The account `label`, or undefined. */
  user(label: string): PasskeyUser | undefined {
    return Object.hasOwn(this.data.users, label) ? this.data.users[label] : undefined;
  }

  /** Every account label with its passkeys (admin listing). */
  users(): { label: string; credentials: StoredPasskey[] }[] {
    return Object.entries(this.data.users).map(([label, u]) => ({ label, credentials: u.credentials }));
  }

  /** Every passkey, for the sign-in options (`allowCredentials`). */
  all(): StoredPasskey[] {
    return Object.values(this.data.users).flatMap((u) => u.credentials);
  }

  /** The passkey with this credential id and its account, or undefined. */
  find(credentialId: string): { label: string; passkey: StoredPasskey } | undefined {
    for (const [label, u] of Object.entries(this.data.users)) {
      const passkey = u.credentials.find((c) => c.id === credentialId);
      if (passkey) return { label, passkey };
    }
    return undefined;
  }

  /**
   * Adds a passkey to account `label` (created with `userId` when new) and writes the file.
   * @throws 409 PASSKEY_EXISTS when the credential id is already registered.
   */
  add(label: string, userId: string, passkey: StoredPasskey): void {
    if (this.find(passkey.id)) throw conflict('this passkey is already registered', 'PASSKEY_EXISTS');
    const next = structuredClone(this.data);
    const user = Object.hasOwn(next.users, label) ? next.users[label] : { userId, credentials: [] };
    user.credentials.push(passkey);
    next.users[label] = user;
    this.save(next);
  }

  /**
   * Records a successful sign-in: the new signature counter and the time. Writes the file.
   * Compare-and-set on the counter: two sign-ins verified at once against the same stored counter
   * must not leave the lower one stored (it would let a cloned passkey's replay through), so a
   * counter that is not above the one stored now is refused, unless the authenticator keeps no
   * counter (0 on both sides) or is a synced passkey (see countsAlone), whose stored counter
   * only goes up.
   * @returns false (nothing written) when the stored counter has moved to or past `counter`.
   */
  touch(credentialId: string, counter: number, at: string): boolean {
    const next = structuredClone(this.data);
    for (const u of Object.values(next.users)) {
      const c = u.credentials.find((x) => x.id === credentialId);
      if (c) {
        if (countsAlone(c)) {
          if (c.counter > 0 && counter <= c.counter) return false;
          c.counter = counter;
        } else c.counter = Math.max(c.counter, counter);
        c.lastUsedAt = at;
      }
    }
    this.save(next);
    return true;
  }

  /**
   * Removes one passkey of account `label`.
   * @throws 404 NOT_FOUND when the account has no such passkey; 409 LAST_PASSKEY when it is the
   *   account's only one ("Cannot remove your only passkey").
   */
  remove(label: string, credentialId: string): StoredPasskey {
    const user = this.user(label);
    const passkey = user?.credentials.find((c) => c.id === credentialId);
    if (!user || !passkey) throw notFound(`no passkey ${credentialId}`);
    if (user.credentials.length <= 1) {
      throw conflict('Cannot remove your only passkey: add another device first', 'LAST_PASSKEY');
    }
    const next = structuredClone(this.data);
    next.users[label].credentials = next.users[label].credentials.filter((c) => c.id !== credentialId);
    this.save(next);
    return passkey;
  }

  /** Writes `next` (atomically, 0600), then makes it current: memory follows the disk. */
  private save(next: PasskeyFile): void {
    if (this.brokenReason !== null) {
      // never overwrite a file we could not read: it may hold the only way in
      throw unavailable(
        `the passkey file ${this.file} cannot be read (${this.brokenReason}); fix or move it, then restart`,
        'PASSKEYS_UNREADABLE',
      );
    }
    writeSecretJson(this.file, next);
    this.data = next;
  }
}
