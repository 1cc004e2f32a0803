/**
 * Which change set a mutation belongs to. A change set groups the mutations of one chat turn,
 * one REST request, one Health Auto Export push, one import or one hand edit picked up by the
 * watcher: whoever starts that unit of work runs it inside `inChangeSet`, and every change the
 * store records meanwhile (across awaits too: the scope lives in an AsyncLocalStorage) joins the
 * same set. A mutation made outside any scope gets a set of its own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The scope of one unit of work. Sets are created lazily, at the first recorded change. */
export interface ChangeScope {
  /** Actor recorded for changes that name none (manifest writes), e.g. `web`, `chat:<turn>`. */
  actor?: string;
  /** Set when the unit of work is the undo of that change set. */
  undoOf?: number;
  /** The set id opened in each change log (one per database). */
  readonly sets: WeakMap<object, number>;
}

const storage = new AsyncLocalStorage<ChangeScope>();

/**
 * Runs `fn` inside a change scope. Inside an existing scope it joins that scope (a helper such
 * as createCard called by a chat tool belongs to the turn's set), unless `fresh` asks for a new
 * one (a new request or turn). Works for sync and async `fn` alike.
 */
export function inChangeSet<T>(opts: { actor?: string; undoOf?: number; fresh?: boolean }, fn: () => T): T {
  if (!opts.fresh && storage.getStore()) return fn();
  return storage.run({ actor: opts.actor, undoOf: opts.undoOf, sets: new WeakMap() }, fn);
}

/** The scope of the running unit of work, if any. */
export function currentChangeScope(): ChangeScope | undefined {
  return storage.getStore();
}
