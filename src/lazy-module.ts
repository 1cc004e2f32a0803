/**
 * Loading a library at its first use instead of at start-up. An idle instance never signs anyone
 * in, reads no report and answers no MCP client, so the libraries for that (WebAuthn with its
 * ASN.1 stack, mammoth, web-push, the MCP SDK) would only hold memory (tens of MB of RSS) until
 * then. Each loader runs once; later calls get the same module.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** An async loader for an ES module (`() => import('x')`), memoised. */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((err) => {
      // a failed load (a missing file) is tried again next time, not cached
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
}

/**
 * A synchronous loader for a CommonJS package (for code that cannot await, such as a key made at
 * start-up on first boot only), memoised by Node's module cache.
 */
export function lazyRequire<T>(name: string): () => T {
  return () => require(name) as T;
}
