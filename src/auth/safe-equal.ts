/**
 * Constant-time secret comparison (after Hono's bearer auth): both sides are hashed to a fixed
 * length first, so neither the content nor the length of the secret leaks through timing.
 */
import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Digests of recent `expected` secrets: they are the server's own (the agent token, an admin
 * token), the same on every request, so hashing them once saves half the work of each check.
 * Bounded: emptied when full.
 */
const expectedDigests = new Map<string, Buffer>();
const MAX_KEPT = 64;

/** SHA-256 of the UTF-8 text (one-shot: no Hash object per check). */
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** True when `given` equals `expected`, in time independent of where they differ. */
export function safeEqual(given: string, expected: string): boolean {
  let b = expectedDigests.get(expected);
  if (b === undefined) {
    b = sha256(expected);
    if (expectedDigests.size >= MAX_KEPT) expectedDigests.clear();
    expectedDigests.set(expected, b);
  }
  return timingSafeEqual(sha256(given), b);
}
