/**
 * Card files saved in the encodings editors write: UTF-16 from Windows editors (Notepad's
 * "Unicode" and "Unicode big endian", Windows PowerShell's `>` and Out-File), with a byte order
 * mark or without one, read as the same card as its UTF-8 text, at start-up and while the server
 * runs, and a dropped-in file with data is imported. Bytes that are text in no encoding are
 * still refused, naming the place. Real server, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const manifest = (id: string, label: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label, writeable: { fromWebapp: true } }, ...extra }, null, 2)}\r\n`;

const utf16le = (text: string, mark = true) =>
  Buffer.concat([Buffer.from(mark ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string, mark = true) =>
  Buffer.concat([Buffer.from(mark ? [0xfe, 0xff] : []), Buffer.from(text, 'utf16le').swap16()]);

let s: TestServer;
afterEach(async () => {
  await s.close();
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await sleep(25);
  }
}

/** Labels of the listed cards by id, and the load problems by file. */
async function listed(): Promise<{ labels: Record<string, string>; errors: string[] }> {
  const body = (await s.api('/api/manifests')).body;
  const labels: Record<string, string> = {};
  for (const e of body.entries as { id: string; meta: { label: string } }[]) labels[e.id] = e.meta.label;
  return {
    labels,
    errors: (body.errors as { file: string; code: string }[]).map((e) => `${e.file} ${e.code}`),
  };
}

it('UTF-16 card files load at start-up and while running, in either byte order, with or without a mark', async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), utf16le(manifest('weight', 'Gewicht ⚖️')));
    },
  });
  expect(await listed()).toEqual({ labels: { weight: 'Gewicht ⚖️' }, errors: [] });

  fs.writeFileSync(path.join(s.dataDir, 'mood.json'), utf16be(manifest('mood', 'Stimmung')));
  fs.writeFileSync(path.join(s.dataDir, 'sleep.json'), utf16le(manifest('sleep', 'Schlaf'), false));
  fs.writeFileSync(path.join(s.dataDir, 'steps.json'), utf16be(manifest('steps', 'Schritte'), false));
  const v = await until(listed, (x) => Object.keys(x.labels).length === 4);
  expect(v).toEqual({
    labels: { weight: 'Gewicht ⚖️', mood: 'Stimmung', sleep: 'Schlaf', steps: 'Schritte' },
    errors: [],
  });

  // the app's next save of the card writes it back as UTF-8, keeping the hand edit
  const r = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { emoji: '⚖️' } } });
  expect(r.status, r.text).toBe(200);
  const saved = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'weight.json'), 'utf8'));
  expect(saved.meta).toMatchObject({ label: 'Gewicht ⚖️', emoji: '⚖️' });
});

it('a UTF-16 file dropped in with data is imported; its original is kept as it was', async () => {
  s = await startServer();
  const rows = [
    { date: '2026-04-01', kg: 80.5, note: 'nach dem Frühstück' },
    { date: '2026-04-02', kg: 80.1 },
  ];
  const bytes = utf16le(manifest('weight', 'Gewicht', { data: rows }));
  fs.writeFileSync(path.join(s.dataDir, 'weight.json'), bytes);
  const v = await until(listed, (x) => x.labels.weight === 'Gewicht');
  expect(v.errors).toEqual([]);
  expect(
    await until(
      async () => (await s.api('/api/manifests/weight/data')).body.data,
      (d) => Array.isArray(d) && d.length === 2,
    ),
  ).toEqual(rows);
  const backups = fs.readdirSync(s.dataDir).filter((n) => n.startsWith('weight.json.'));
  expect(backups).toHaveLength(1);
  expect(fs.readFileSync(path.join(s.dataDir, backups[0]))).toEqual(bytes);
});

it('a UTF-16 file cut in the middle of a character is refused, naming the place; the card stays', async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), manifest('weight', 'Weight'));
    },
  });
  // a lone high surrogate (half an emoji) inside the label
  const text = manifest('weight', 'Gewicht @').replace('@', '\ud83d');
  fs.writeFileSync(path.join(s.dataDir, 'weight.json'), utf16le(text));
  const v = await until(listed, (x) => x.errors.length > 0);
  expect(v).toEqual({ labels: { weight: 'Weight' }, errors: ['weight.json INVALID_UTF8'] });
  const problem = (await s.api('/api/manifests')).body.errors[0];
  expect(problem).toMatchObject({ path: 'meta.label' });
  expect(problem.message).toContain('not UTF-16 text');
});
