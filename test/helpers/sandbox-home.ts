/**
 * A temporary HEALTH_HOME for one test, removed afterwards. Tests never touch a real ~/klebb.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh empty folder under the OS temp dir; `remove()` deletes it and everything in it. */
export function sandboxHome(prefix = 'klebb-test-'): { home: string; dataDir: string; remove(): void } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    home,
    dataDir: path.join(home, 'data'),
    remove: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}

/** The repository root. */
export const repoRoot = path.resolve(new URL('../..', import.meta.url).pathname);
