/**
 * A report longer than read_report gives whole (MAX_REPORT_READ_BYTES) is cut between characters:
 * a long German lab report or a scan's text with emoji never ends in half a letter (U+FFFD) or a
 * lone surrogate that a strict gateway would refuse, and fits the limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_REPORT_READ_BYTES } from '../../src/limits.js';
import { type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;

/** `# title` then lines of `filler`, with `atCut` placed so that it straddles byte MAX_REPORT_READ_BYTES. */
function reportAround(filler: string, atCut: string): string {
  let text = '# Langer Befund\n\n';
  while (Buffer.byteLength(text) < MAX_REPORT_READ_BYTES - 200) text += filler;
  while (Buffer.byteLength(text) < MAX_REPORT_READ_BYTES - 1) text += 'x';
  return `${text}${atCut}${filler.repeat(50)}`;
}

const REPORTS: Record<string, string> = {
  umlaut: reportAround('Hämoglobin über Größe; ', 'ü'),
  euro: reportAround('Kosten 12 € ', '€€'),
  emoji: reportAround('Laufen 🏃 ok; ', '🏃'),
  family: reportAround('Familie ', '👨‍👩‍👧‍👦'),
};

beforeAll(async () => {
  t = await toolEnv({
    before: (home) => {
      const dir = path.join(home, 'reports');
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(REPORTS))
        fs.writeFileSync(path.join(dir, `${name}.md`), text);
    },
  });
});
afterAll(async () => {
  await t.close();
});

it.each(Object.keys(REPORTS))('%s: cut between characters, within the limit', async (name) => {
  const r = await t.call('read_report', { name });
  expect(r.ok).toBe(true);
  const content = r.json.content as string;
  expect(r.json.truncated).toBe(true);
  expect(content).not.toContain('\uFFFD');
  expect(content.isWellFormed()).toBe(true);
  expect(Buffer.byteLength(content)).toBeLessThanOrEqual(MAX_REPORT_READ_BYTES);
  expect(Buffer.byteLength(content)).toBeGreaterThan(MAX_REPORT_READ_BYTES - 30);
  expect(REPORTS[name].startsWith(content)).toBe(true);
});
