// POST /api/conversations/search: a snippet cut out of a long line never cuts a character in
// two. Lines of emoji, flags, accented letters written with combining marks or family emoji
// (several code points joined) around the match are cut between whole characters: no lone
// surrogate (shown as �), no skin tone or flag half torn off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitGraphemes } from '../../src/common/graphemes.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ watch: false });
});
afterAll(async () => {
  await s.close();
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every piece of `snippet` (without its … ends) is made of whole characters of `line`. */
function wholeCharacters(snippet: string, line: string, unit: string): void {
  expect(snippet).not.toMatch(LONE_SURROGATE);
  const inner = snippet.replace(/^…/, '').replace(/…$/, '');
  const whole = new Set(splitGraphemes(line));
  for (const c of splitGraphemes(inner)) expect(whole.has(c), `${c} is part of a character`).toBe(true);
  expect(line.includes(inner.trim())).toBe(true);
  expect(unit.length).toBeGreaterThan(1);
}

describe('snippets of long lines', () => {
  it.each([
    ['an emoji outside the basic plane', '🏃'],
    ['a flag', '🇩🇪'],
    ['an emoji with a skin tone', '👍🏽'],
    ['a family joined with zero-width joiners', '👨‍👩‍👧'],
    ['a letter with a combining mark (no precomposed form)', 'q\u0301'],
  ])('%s', async (_what, unit) => {
    for (const [pre, before, after] of [
      [0, 91, 97],
      [1, 92, 95],
      [1, 101, 301],
      [2, 133, 7],
      [1, 17, 160],
    ]) {
      const line = `${'x'.repeat(pre)}${unit.repeat(before)}needle${unit.repeat(after)}`;
      const c = await s.api('/api/conversations', {
        json: { messages: [{ role: 'user', content: `intro\n${line}\nend` }] },
      });
      expect(c.status, c.text).toBe(201);
      const r = await s.api('/api/conversations/search', { json: { q: 'NEEDLE' } });
      expect(r.status, r.text).toBe(200);
      const hit = r.body.conversations.find((h: { id: string }) => h.id === c.body.conversation.id);
      expect(hit?.snippet).toContain('needle');
      wholeCharacters(hit.snippet, line, unit);
      await s.api(`/api/conversations/${c.body.conversation.id}`, { method: 'DELETE' });
    }
  });
});
