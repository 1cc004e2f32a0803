/**
 * A card file with a hand-editing mistake (a comment, a comma before `}`, single quotes, a name
 * without quotes, a missing comma, a file cut short) is reported with its file, the line and
 * column of the mistake and what it is, in any line-ending style and with a byte order mark; the
 * other cards load, and fixing the file brings its card. Real server, real watcher.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const good = '{\n  "$schema": "klebb.datafile.v1",\n  "meta": { "id": "good", "label": "Good" }\n}\n';

const BROKEN: Record<string, { text: string; line: number; column: number; says: RegExp }> = {
  'comment.json': {
    text: '{\n  "$schema": "klebb.datafile.v1",\n  // my weight card\n  "meta": { "id": "comment", "label": "C" }\n}\n',
    line: 3,
    column: 3,
    says: /a comment: JSON has no comments/,
  },
  'trailing-comma.json': {
    text: '\ufeff{\r\n  "$schema": "klebb.datafile.v1",\r\n  "meta": { "id": "trailing-comma", "label": "T" },\r\n}\r\n',
    line: 3,
    column: 51,
    says: /a comma before the closing }: remove it/,
  },
  'single-quotes.json': {
    text: "{\n  '$schema': 'klebb.datafile.v1'\n}\n",
    line: 2,
    column: 3,
    says: /text in single quotes/,
  },
  'bare-name.json': {
    text: '{\n  "$schema": "klebb.datafile.v1",\n  meta: { "id": "bare-name", "label": "B" }\n}\n',
    line: 3,
    column: 3,
    says: /the name meta needs double quotes/,
  },
  'missing-comma.json': {
    text: '{\n  "$schema": "klebb.datafile.v1"\n  "meta": { "id": "missing-comma", "label": "M" }\n}\n',
    line: 3,
    column: 3,
    says: /a comma is missing before this/,
  },
  'cut-short.json': {
    text: '{\n  "$schema": "klebb.datafile.v1",\n  "meta": { "id": "cut-short", "label": "S" ',
    line: 3,
    column: 45,
    says: /the file ends early/,
  },
};

let s: TestServer;
beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'good.json'), good);
      for (const [name, b] of Object.entries(BROKEN)) fs.writeFileSync(path.join(dataDir, name), b.text);
    },
  });
});
afterAll(async () => {
  await s?.close();
});

interface Reported {
  file: string;
  code: string;
  message: string;
  line?: number;
}

describe('a card file that is not JSON', () => {
  it('is reported with its file, line, column and the mistake; the other cards load', async () => {
    const r = await s.api('/api/manifests');
    expect(r.body.entries.map((e: { id: string }) => e.id)).toEqual(['good']);
    const byFile = new Map<string, Reported>(r.body.errors.map((e: Reported) => [e.file, e]));
    for (const [name, b] of Object.entries(BROKEN)) {
      const e = byFile.get(name);
      expect(e, name).toMatchObject({ code: 'INVALID_JSON', line: b.line });
      expect(e?.message, name).toMatch(
        new RegExp(`^not valid JSON at line ${b.line}, column ${b.column}: ${b.says.source}`),
      );
    }
  });

  it('comes in as a card once the mistake is fixed', async () => {
    fs.writeFileSync(
      path.join(s.dataDir, 'comment.json'),
      '{\n  "$schema": "klebb.datafile.v1",\n  "meta": { "id": "comment", "label": "C" }\n}\n',
    );
    const deadline = Date.now() + 2000;
    let r = await s.api('/api/manifests');
    while (!r.body.entries.some((e: { id: string }) => e.id === 'comment') && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 25));
      r = await s.api('/api/manifests');
    }
    expect(r.body.entries.map((e: { id: string }) => e.id).sort()).toEqual(['comment', 'good']);
    expect(r.body.errors.map((e: Reported) => e.file)).not.toContain('comment.json');
  });
});
