/**
 * WebAuthn ceremonies in progress (challenges kept in memory for 120 s).
 * Each options answer carries a fresh random challenge; the browser signs it and sends it back
 * inside `clientDataJSON`. The verify step looks the challenge up here and spends it, so a
 * challenge works once, only for the purpose it was made for, and only within its lifetime.
 * Several sign-ins may be in progress at once (no single shared slot).
 */
import { CHALLENGE_TTL_MS, MAX_PENDING_CHALLENGES } from './auth-limits.js';

/** What a registration was allowed for, decided when its options were made. */
export type RegistrationGrant =
  | { via: 'setup'; label: string }
  | { via: 'invite'; label: string; inviteId: string }
  | { via: 'add-device'; label: string; sessionId: string | null };

/** A ceremony being opened: a registration (with what it may do, and the user handle) or a sign-in. */
export type CeremonyStart =
  | { kind: 'register'; grant: RegistrationGrant; userId: string }
  | { kind: 'login' };

/** A pending ceremony: its start plus when its challenge expires, ms since the epoch. */
export type Ceremony = CeremonyStart & { expiresAt: number };

/** The challenge a WebAuthn response answers, read from its `clientDataJSON` (base64url JSON). */
export function challengeOf(response: unknown): string | undefined {
  const b64 = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
  if (typeof b64 !== 'string' || b64.length > 16_384) return undefined;
  try {
    const data = JSON.parse(Buffer.from(b64, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** The ceremonies of one instance. */
export class Ceremonies {
  private readonly pending = new Map<string, Ceremony>();

  constructor(private readonly now: () => number) {}

  /** Remembers `challenge` for CHALLENGE_TTL_MS. */
  open(challenge: string, c: CeremonyStart): void {
    const t = this.now();
    for (const [k, v] of this.pending) if (v.expiresAt <= t) this.pending.delete(k);
    while (this.pending.size >= MAX_PENDING_CHALLENGES) {
      const oldest = this.pending.keys().next().value as string;
      this.pending.delete(oldest);
    }
    this.pending.set(challenge, { ...c, expiresAt: t + CHALLENGE_TTL_MS });
  }

  /** Spends `challenge` when it is pending, live and of `kind`; undefined otherwise. */
  take<K extends Ceremony['kind']>(
    challenge: string | undefined,
    kind: K,
  ): Extract<Ceremony, { kind: K }> | undefined {
    if (challenge === undefined) return undefined;
    const c = this.pending.get(challenge);
    if (!c || c.kind !== kind) return undefined;
    this.pending.delete(challenge);
    return c.expiresAt > this.now() ? (c as Extract<Ceremony, { kind: K }>) : undefined;
  }
}
