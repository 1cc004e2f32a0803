/**
 * A card file dropped in with its rows is imported in steps: a copy of it is kept, its rows are
 * stored, then it is rewritten without them. A power cut between the copy and the rows leaves the
 * file as dropped, its copy, and no rows. The next start imports the rows, once, and keeps that
 * copy as the copy of the import: one copy of the dropped bytes, not a second one beside it. The
 * same for a file of more than a megabyte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const dropped = (rows: number) =>
  `${JSON.stringify({
    $schema: 'klebb.datafile.v1',
    meta: { id: 'drop', label: 'Drop', writeable: { fromWebapp: true } },
    data: Array.from({ length: rows }, (_, i) => ({
      date: new Date(Date.UTC(1950, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      kg: 80 + (i % 10) / 10,
    })),
  })}\n`;

describe('a dropped-in file whose import a power cut stopped after its copy was kept', () => {
  for (const [what, rows] of [
    ['a small file', 2],
    ['a file over a megabyte', 40_000],
  ] as const) {
    it(`${what}: imported once at the next start, with the one copy`, { timeout: 60_000 }, async () => {
      const text = dropped(rows);
      if (rows > 2) expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024);
      s = await startServer({
        before: (_home, dataDir) => {
          fs.mkdirSync(dataDir, { recursive: true });
          fs.writeFileSync(path.join(dataDir, 'drop.json'), text);
          // the copy the stopped import kept (its name: the file's, a UTC stamp, .json)
          fs.writeFileSync(path.join(dataDir, 'drop.json.20260401T101010Z.json'), text);
        },
      });
      const card = await s.api('/api/manifests/drop');
      expect(card.status, card.text).toBe(200);
      expect(card.body.data).toHaveLength(rows);
      const copies = fs.readdirSync(s.dataDir).filter((n) => /^drop\.json\..+\.json$/.test(n));
      expect(copies).toEqual(['drop.json.20260401T101010Z.json']);
      expect(fs.readFileSync(path.join(s.dataDir, copies[0]), 'utf8')).toBe(text);
      expect(JSON.parse(fs.readFileSync(path.join(s.dataDir, 'drop.json'), 'utf8'))).not.toHaveProperty(
        'data',
      );
    });
  }
});
