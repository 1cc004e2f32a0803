/**
 * The Python script of docs/API.md ("Tokens for scripts and agents") logs weights through the
 * API: one row per date, the last write wins (test/helpers/python-agent.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pythonAgentSuite } from '../helpers/python-agent.js';
import { repoRoot } from '../helpers/sandbox-home.js';
import { readTemplate } from '../helpers/templates.js';

/** The ```python block of docs/API.md that defines `log_weight`. */
function scriptOfApiDoc(): string {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs', 'API.md'), 'utf8');
  const block = [...doc.matchAll(/^```python\n([\s\S]*?)^```$/gm)].find((m) =>
    m[1].includes('def log_weight'),
  );
  if (!block) throw new Error('docs/API.md has no ```python block defining log_weight');
  return block[1];
}

pythonAgentSuite('docs/API.md: the Python script that logs a weight', scriptOfApiDoc, () =>
  readTemplate('weight'),
);
