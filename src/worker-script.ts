/**
 * Where a worker thread's script is. Built, it sits beside the module that starts it (the
 * production bundle puts each worker's own bundle beside the server's chunks). Run from the
 * TypeScript sources (the tests), Node cannot load a `.ts` worker, so the built copy in dist/ is
 * used (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The URL of worker script `name` (e.g. `./import-worker.js`) relative to the module at `base`
 * (its `import.meta.url`).
 * @throws Error naming the missing built file when run from the sources before a build.
 */
export function workerScriptUrl(name: string, base: string): URL {
  const here = new URL(name, base);
  if (!base.endsWith('.ts')) return here;
  const src = fileURLToPath(here);
  const marker = `${path.sep}src${path.sep}`;
  const at = src.lastIndexOf(marker);
  const built = `${src.slice(0, at)}${path.sep}dist${src.slice(at)}`;
  if (!fs.existsSync(built)) throw new Error(`${built} is missing: build first with \`npm run build\``);
  return new URL(`file://${built}`);
}
