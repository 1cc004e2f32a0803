/**
 * The folder of this project's package.json (where README.md and docs/ live), found by walking
 * up from this file, so it is the same whether the code runs from src/ (tests) or dist/src/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Absolute path of the project root. @throws if no package.json named "klebb" is above this file. */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'klebb') {
      cached = dir;
      return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the klebb project root');
    dir = up;
  }
}
