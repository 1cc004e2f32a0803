/**
 * Report upload names on the real server: spaces and invisible characters around a name are
 * trimmed, a name with nothing visible before its extension is refused naming the header, and a
 * refusal names the extension as it was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { entry, inbox, settled, upload } from './report-support.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const text = () => Buffer.from('LDL 2.9 mmol/L\n');

describe('report upload names', () => {
  it.each([
    ['a trailing space', 'lab results.txt ', 'lab results.txt'],
    ['a leading space and a trailing no-break space', ' lab results.txt\u00a0', 'lab results.txt'],
    ['a zero-width space and a byte order mark around it', '\u200blab results.txt\ufeff', 'lab results.txt'],
  ])('%s is trimmed, not refused', async (what, sent, kept) => {
    // a file of its own each time: the same file under the same name would be the report it is
    const res = await upload(s, sent, Buffer.from(`LDL 2.9 mmol/L (${what})\n`));
    expect(res.status, res.text).toBe(202);
    expect(res.body.filename).toMatch(/^\d{4}-\d{2}-\d{2}-lab-results(-\d+)?$/);
    await settled(s);
    expect((await entry(s, res.body.filename)).sourceFile).toBe(kept);
  });

  it.each([
    ['a zero-width space', '\u200b.txt'],
    ['spaces', '   .txt'],
    ['spaces and zero-width spaces', ' \u200b \u2060.txt'],
    ['dots and a zero-width space', '.\u200b..txt'],
    // characters drawn as nothing though they are no zero-width space
    ['a zero-width joiner', '\u200d.txt'],
    ['a variation selector', '\ufe0f.txt'],
    ['a soft hyphen', '\u00ad.txt'],
    ['a Hangul filler', '\u3164.txt'],
    ['a half-width Hangul filler and a combining grapheme joiner', '\uffa0\u034f.txt'],
    ['a blank braille pattern', '\u2800.txt'],
  ])(
    'nothing visible before the extension (%s) is 400 BAD_FILENAME naming the header',
    async (_what, name) => {
      const res = await upload(s, name, text());
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('BAD_FILENAME');
      expect(res.body.details[0].path).toBe('headers.x-klebb-filename');
      expect(res.body.error).toContain('no name before its extension ".txt"');
      expect(inbox(s)).toEqual([]);
    },
  );

  it.each([
    ['an emoji', '\u2764\ufe0f.txt'],
    ['a keycap emoji', '1\ufe0f\u20e3.txt'],
    ['Korean letters', '\ud63c\uc561.txt'],
  ])('a name that shows something (%s) is taken', async (_what, name) => {
    const res = await upload(s, name, text());
    expect(res.status, res.text).toBe(202);
    await settled(s);
  });

  it.each([
    ['a name ending in a dot', 'a.txt.', 'the file name "a.txt." ends in a dot, so it has no extension'],
    ['a name without an extension', 'results', 'the file name "results" has no extension'],
    ['an extension in capitals', 'tool.EXE', '".EXE" files cannot be read'],
    ['an extension with a space after its dot', 'scan. pdf', '". pdf" files cannot be read'],
  ])('%s is 400 UNSUPPORTED_FILE_TYPE naming the extension as written', async (_what, name, says) => {
    const res = await upload(s, name, text());
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(res.body.details[0].path).toBe('headers.x-klebb-filename');
    expect(res.body.error.startsWith(says)).toBe(true);
    expect(inbox(s)).toEqual([]);
  });
});
