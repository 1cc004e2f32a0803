/**
 * Rolldown config for the production server: the JavaScript tsc compiled into dist/src, bundled
 * and minified into dist/server (`npm start` runs dist/server/main.js; dist/src stays for the
 * tests, the scripts and the benchmarks). Run as `rolldown -c server.rolldown.config.ts`
 * (npm run build:server, after tsc).
 *
 * Why: an idle server keeps the source text of every module it loaded (V8 needs it to compile a
 * function on its first call) plus a module record per file. Unbundled that is some 500 ES
 * modules and as many CommonJS files, about 5 MB of source on the heap, much of it UTF-16
 * because one character outside Latin-1 in a comment makes V8 store the whole file at two
 * bytes a character. One minified, ASCII-only bundle keeps about 1.4 MB; measured with
 * bench/idle-memory.ts's procedure, an idle instance's RSS drops by about 4 MB and start-up
 * costs less CPU.
 *
 * What stays outside the bundle, loaded from node_modules as before:
 * - better-sqlite3: a native addon found through its package folder;
 * - the libraries loaded only at first use (sign-in, reading a report, the MCP endpoint, the
 *   OpenAPI document; see src/lazy-module.ts): they cost nothing at idle, and their own files
 *   keep their behaviour exactly;
 * - glob, which @fastify/static requires as it loads but never calls here: the bundle holds a
 *   stand-in that would load it on a call (src/http/glob-on-demand.ts).
 * The dynamic imports of the sources stay dynamic (chunks beside main.js), so what an idle
 * server loads is what it loaded before. The Apple Health import worker and the workers that read
 * large card files and commit their rows are each their own self-contained bundle: a worker then
 * loads none of the server's chunks.
 */
import path from 'node:path';
import { defineConfig } from 'rolldown';

const external = [
  /^node:/,
  'better-sqlite3',
  'mammoth',
  /^@simplewebauthn\/server(\/|$)/,
  /^@modelcontextprotocol\/sdk(\/|$)/,
  '@fastify/swagger',
];

// glob: only a stand-in that loads it if ever called (src/http/glob-on-demand.ts says why)
const resolve = { alias: { glob: path.resolve('dist/src/http/glob-on-demand.js') } };

const output = {
  dir: 'dist/server',
  format: 'esm',
  minify: true,
  // escaped, so every chunk's text is Latin-1 and V8 keeps it at one byte a character
  charset: 'ascii',
  sourcemap: true,
} as const;

export default defineConfig([
  {
    input: { main: 'dist/src/main.js' },
    platform: 'node',
    external,
    resolve,
    output,
  },
  {
    input: { 'import-worker': 'dist/src/ingest/apple-health/import-worker.js' },
    platform: 'node',
    external,
    output: { ...output, codeSplitting: false },
  },
  {
    input: { 'manifest-read-worker': 'dist/src/cards/manifest-read-worker.js' },
    platform: 'node',
    external,
    output: { ...output, codeSplitting: false },
  },
  {
    input: { 'staged-commit-worker': 'dist/src/store/staged-commit-worker.js' },
    platform: 'node',
    external,
    output: { ...output, codeSplitting: false },
  },
]);
