#!/usr/bin/env node
// Runs the cases suite (test/cases/) when the real-world cases folder is present; says so and
// exits 0 when it is not, since a clone on someone else's machine has nothing beside it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.env.KLEBB_CASES_DIR ?? path.join(root, '..', 'shared', 'cases'));
if (!fs.existsSync(dir)) {
  console.log(`test:cases: ${dir} is absent, so there are no real-world cases to run here (0 run).`);
  process.exit(0);
}
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', 'vitest.cases.config.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, KLEBB_CASES_DIR: dir },
  },
);
process.exit(run.status ?? 1);
