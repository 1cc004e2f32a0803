/**
 * Constant-time secret comparison (after Hono's bearer auth): both sides are hashed to a fixed
 * length first, so neither the content nor the length of the secret leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** True when `given` equals `expected`, in time independent of where they differ. */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
