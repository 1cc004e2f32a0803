/**
 * The minimum viable Python agent of the real-world agent contract (the `seed` folder beside the
 * cases folder, its CHAT-AGENT.md, under "Writing a new agent integration"), run against the real server (test/helpers/python-agent.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pythonAgentSuite } from '../helpers/python-agent.js';
import { CASES_DIR, casePath } from './cases-dir.js';

const contractFile = path.resolve(CASES_DIR, '..', 'seed', 'CHAT-AGENT.md');

/**
 * The Python code under "Writing a new agent integration". It is a ```python fence in the original
 * markdown; the copy beside the cases folder is a rendered page where the fence markers are gone, so without a fence the
 * block is the run of lines from `import requests` that are blank, indented or Python top-level
 * statements (it ends at the first prose line).
 */
function extractSeedAgent(markdown: string): string {
  const start = markdown.search(/^#*\s*3\.\s+Writing a new agent integration\s*$/m);
  if (start < 0) throw new Error(`"Writing a new agent integration" not found in ${contractFile}`);
  const next = markdown.slice(start + 1).search(/^#*\s*4\.\s+\S/m);
  const section = next < 0 ? markdown.slice(start) : markdown.slice(start, start + 1 + next);
  const fenced = /^```python[^\n]*\n([\s\S]*?)^```\s*$/m.exec(section);
  if (fenced) return fenced[1];
  const lines = section.split('\n');
  const first = lines.findIndex((l) => /^import requests\s*$/.test(l));
  if (first < 0)
    throw new Error('"Writing a new agent integration" has no ```python block and no "import requests" line');
  const code: string[] = [];
  const topLevel = /^(import |from |def |class |if |for |while |with |try:|@|#|[A-Za-z_][A-Za-z0-9_]* = )/;
  for (const l of lines.slice(first)) {
    if (l.trim() === '' || /^\s/.test(l) || topLevel.test(l)) code.push(l);
    else break;
  }
  while (code.length && code[code.length - 1].trim() === '') code.pop();
  return `${code.join('\n')}\n`;
}

pythonAgentSuite(
  'the agent contract: the minimum viable Python agent',
  () => extractSeedAgent(fs.readFileSync(contractFile, 'utf8')),
  () => JSON.parse(fs.readFileSync(casePath('manifests', 'examples', 'weight.example.json'), 'utf8')),
);
