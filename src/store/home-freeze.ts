/**
 * The home's freeze while an import, a restore or a roll back is applied: between its pre-import
 * snapshot and its last file, a write made for a client (an API request, an MCP call, a chat
 * turn or an upload a request started) would land in the snapshot or not, and be kept or wiped
 * by the restore, depending on a few milliseconds. So every write transaction made for a client
 * is refused meanwhile with 503 IMPORT_FROZEN and a Retry-After, whichever way it came and even
 * when its request began before the freeze. Work the server does on its own (the job itself, the
 * card loader finishing a large file the job waits for) goes on.
 *
 * "For a client" is carried along async calls (node:async_hooks) from where the request began,
 * so a chat turn that outlives its request is still a client's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { RetryLaterError } from '../errors.js';
import { IMPORT_FROZEN_RETRY_AFTER_S } from '../limits.js';

const clientWork = new AsyncLocalStorage<true>();

/** Runs `fn` (and all it starts) as work for a client. */
export function asClientWork<T>(fn: () => T): T {
  return clientWork.run(true, fn);
}

/** Runs `fn` (and all it starts) as the server's own work, even when called for a client. */
export function asServerWork<T>(fn: () => T): T {
  return clientWork.exit(fn);
}

/** 503 IMPORT_FROZEN with Retry-After: the home is being replaced; nothing was changed. */
export const importFrozen = () =>
  new RetryLaterError(
    503,
    'IMPORT_FROZEN',
    `an import or restore is being applied: nothing was changed; try again in ${IMPORT_FROZEN_RETRY_AFTER_S} s`,
    IMPORT_FROZEN_RETRY_AFTER_S,
  );

/** One home's freeze; `check` is the write gate of its database connections. */
export class HomeFreeze {
  private frozenNow: () => boolean = () => false;

  /** Says where the freeze state comes from (the import jobs of the home). */
  follow(frozen: () => boolean): void {
    this.frozenNow = frozen;
  }

  /** Whether the home is frozen now. */
  get frozen(): boolean {
    return this.frozenNow();
  }

  /** @throws 503 IMPORT_FROZEN when the home is frozen and the caller works for a client. */
  readonly check = (): void => {
    if (clientWork.getStore() && this.frozenNow()) throw importFrozen();
  };
}
