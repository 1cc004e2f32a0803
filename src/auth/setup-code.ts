/**
 * The first-run setup code: while no passkey exists, the first one can be
 * registered only with a one-time link printed in the server log, not by whoever reaches the page
 * first. The code lives in memory only (a restart prints a new one), is compared in constant
 * time, and stops working once any passkey exists. With KLEBB_CLOUD=1 or KLEBB_DEMO=1 there is
 * none: the first passkey comes from an admin invite.
 */
import { newSecret, type SecretEqual } from './secrets.js';

/** The current setup code of one process. */
export class SetupCode {
  private code: string | null = null;

  constructor(private readonly equal: SecretEqual) {}

  /** Makes a new code (replacing any previous one) and returns it. */
  issue(): string {
    this.code = newSecret();
    return this.code;
  }

  /** The code, while one is open (tests and the start-up log). */
  current(): string | null {
    return this.code;
  }

  /** True when `given` is the open code (constant-time). */
  matches(given: string): boolean {
    return this.code !== null && this.equal(given, this.code);
  }

  /** Closes it (the first passkey exists). */
  close(): void {
    this.code = null;
  }
}
