/**
 * Single-use, expiring invites to register a passkey,
 * `credentials/invites.json`. The code (`<label>-<256-bit random>`) is shown once, in the
 * answer that creates it; the file keeps its SHA-256 digest. An invite is spent when a passkey
 * is registered with it, not when registration starts, so an abandoned attempt does not burn it.
 */
import path from 'node:path';
import { KlebbError } from '../errors.js';
import { INVITE_KEEP_AFTER_EXPIRY_MS, MAX_INVITES } from './auth-limits.js';
import { readSecretJson, writeSecretJson } from './secret-file.js';
import { hashSecret, newId, newSecret, type SecretEqual } from './secrets.js';

/** One invite. Times are ms since the epoch. */
export interface StoredInvite {
  id: string;
  hash: string;
  /** The account the new passkey joins. */
  label: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** Who made it: `session:<label>` or `admin`. */
  createdBy: string;
}

/** What a presented code turned out to be. */
export type InviteCheck =
  | { status: 'valid'; invite: StoredInvite }
  | { status: 'expired' | 'used'; invite: StoredInvite }
  | { status: 'unknown' };

interface InviteFile {
  version: 1;
  invites: StoredInvite[];
}

function isInviteFile(v: unknown): v is InviteFile {
  const list = (v as { invites?: unknown } | null)?.invites;
  return (
    Array.isArray(list) &&
    list.every(
      (i) => i && typeof i.id === 'string' && typeof i.hash === 'string' && typeof i.label === 'string',
    )
  );
}

/** 403 with a code a page can explain: INVITE_UNKNOWN, INVITE_EXPIRED or INVITE_USED. */
export function inviteRefused(status: 'unknown' | 'expired' | 'used'): KlebbError {
  const message = {
    unknown: 'This invite link is not valid. Ask for a new one.',
    expired: 'This invite link has expired. Ask for a new one.',
    used: 'This invite link has already been used. Ask for a new one.',
  }[status];
  const code = ({ unknown: 'INVITE_UNKNOWN', expired: 'INVITE_EXPIRED', used: 'INVITE_USED' } as const)[
    status
  ];
  return new KlebbError(403, code, message);
}

/** The invites of one instance, in memory and written through. */
export class InviteStore {
  readonly file: string;
  private invites: StoredInvite[] = [];

  /** Loads `<credentialsDir>/invites.json` (absent or unreadable: no invites). */
  constructor(
    credentialsDir: string,
    private readonly now: () => number,
    private readonly equal: SecretEqual,
  ) {
    this.file = path.join(credentialsDir, 'invites.json');
    const r = readSecretJson(this.file, isInviteFile);
    if (r.state === 'ok') this.invites = r.value.invites;
  }

  /** Makes an invite for `label` valid for `days` days; returns the code (never stored) and the record. */
  create(label: string, days: number, createdBy: string): { code: string; invite: StoredInvite } {
    const code = `${label}-${newSecret()}`;
    const t = this.now();
    const invite: StoredInvite = {
      id: newId(),
      hash: hashSecret(code),
      label,
      createdAt: t,
      expiresAt: t + days * 24 * 3600_000,
      usedAt: null,
      createdBy,
    };
    const kept = this.invites.filter((i) => i.expiresAt + INVITE_KEEP_AFTER_EXPIRY_MS > t);
    this.save([...kept.slice(Math.max(0, kept.length - (MAX_INVITES - 1))), invite]);
    return { code, invite };
  }

  /** Looks a code up (constant-time compare against every stored digest). */
  check(code: string): InviteCheck {
    const given = hashSecret(code);
    let hit: StoredInvite | undefined;
    for (const i of this.invites) if (this.equal(given, i.hash) && !hit) hit = i;
    if (!hit) return { status: 'unknown' };
    if (hit.usedAt !== null) return { status: 'used', invite: hit };
    if (hit.expiresAt <= this.now()) return { status: 'expired', invite: hit };
    return { status: 'valid', invite: hit };
  }

  /**
   * Checks that invite `id` can still be spent.
   * @throws 403 INVITE_USED / INVITE_EXPIRED / INVITE_UNKNOWN.
   */
  assertSpendable(id: string): void {
    const inv = this.invites.find((i) => i.id === id);
    if (!inv) throw inviteRefused('unknown');
    if (inv.usedAt !== null) throw inviteRefused('used');
    if (inv.expiresAt <= this.now()) throw inviteRefused('expired');
  }

  /**
   * Spends invite `id`.
   * @throws 403 INVITE_USED / INVITE_EXPIRED / INVITE_UNKNOWN when it can no longer be spent.
   */
  consume(id: string): void {
    this.assertSpendable(id);
    const t = this.now();
    this.save(this.invites.map((i) => (i.id === id ? { ...i, usedAt: t } : i)));
  }

  private save(next: StoredInvite[]): void {
    writeSecretJson(this.file, { version: 1, invites: next } satisfies InviteFile);
    this.invites = next;
  }
}
