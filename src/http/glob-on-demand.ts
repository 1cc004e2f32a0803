/**
 * Stands in for the `glob` package inside the server bundle (server.rolldown.config.ts aliases
 * `glob` to this file). @fastify/static requires glob as it loads, but calls it only to declare
 * one route per file when it serves a folder itself; this server has it send files only
 * (`serve: false`, src/http/static-files.ts), so glob is never called. Bundled, its 100 KB of
 * source would stay on an idle server's heap for nothing; here the package is loaded from
 * node_modules by the first call, should one ever come.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** glob's `glob(pattern, options)`: a promise of the matching paths, the package loaded at the call. */
export function glob(...args: unknown[]): Promise<string[]> {
  const real = require('glob') as { glob: (...a: unknown[]) => Promise<string[]> };
  return real.glob(...args);
}
