/**
 * A fault of the server's own while an archive is staged (here the disk fills up as its rows are
 * copied into the staging database) is answered as what it is, 507 DISK_FULL, not as 422
 * ZIP_CORRUPT blaming a sound archive; the home is as it was and nothing staged is left behind.
 * Once space is back the same archive stages. The home lives on a small tmpfs; where mounting is
 * not permitted the test is skipped (there is no other way to fill a disk for real).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as importCommand } from '../../scripts/import.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type SmallDisk, smallDisk } from '../helpers/small-disk.js';

const T = 'fault-token';
let disk: SmallDisk;
let s: TestServer;
let archive: Buffer;

const api = (x: TestServer, p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  x.api(p, { token: T, ...init });
const card = (id: string, data: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true } },
  data,
});

/** Leaves about `bytes` free on the disk (one filler file). */
function leaveFree(bytes: number): () => void {
  const st = fs.statfsSync(disk.dir);
  const free = st.bavail * st.bsize;
  const file = path.join(disk.dir, '.filler');
  fs.writeFileSync(file, Buffer.alloc(Math.max(0, free - bytes)));
  return () => fs.rmSync(file, { force: true });
}

beforeAll(async () => {
  disk = smallDisk(32);
  if (!disk.mounted) return;
  // an archive whose rows take about 8 MB once unpacked (random text: it barely compresses)
  const src = await startServer({ env: { AGENT_API_TOKEN: T, KLEBB_BODY_LIMIT_BYTES: String(64 << 20) } });
  try {
    const rows = Array.from({ length: 8000 }, (_, i) => ({
      date: '2026-03-01',
      n: i,
      note: randomBytes(500).toString('hex'),
    }));
    expect((await api(src, '/api/manifests', { json: card('big', rows) })).status).toBe(201);
    const res = await fetch(`${src.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
    expect(res.status).toBe(200);
    archive = Buffer.from(await res.arrayBuffer());
  } finally {
    await src.close();
  }
  s = await startServer({ home: disk.dir, env: { AGENT_API_TOKEN: T } });
  expect(
    (await api(s, '/api/manifests', { json: card('mine', [{ date: '2026-04-01', kg: 80 }]) })).status,
  ).toBe(201);
});
afterAll(async () => {
  await s?.close({ keepHome: true });
  disk?.remove();
});

describe('import staging on a disk that fills up', () => {
  it('is 507 DISK_FULL, not ZIP_CORRUPT; the home is unchanged and nothing staged is left', async (ctx) => {
    if (!disk.mounted) ctx.skip();
    const before = (await api(s, '/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    const up = await api(s, '/api/import/upload', {
      body: archive,
      headers: { 'content-type': 'application/zip' },
    });
    expect(up.status, up.text).toBe(200);
    // room for the staging database to open and the card's file, not for its 8 MB of rows
    const release = leaveFree(2 << 20);
    let start: Awaited<ReturnType<typeof api>>;
    try {
      start = await api(s, '/api/import/start', { method: 'POST' });
    } finally {
      release();
    }
    expect(start.status, start.text).toBe(507);
    expect(start.body.code).toBe('DISK_FULL');
    const ids = (await api(s, '/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    expect(ids).toEqual(before);
    expect(ids).toContain('mine');
    expect((await api(s, '/api/manifests/mine/data')).body.data).toEqual([{ date: '2026-04-01', kg: 80 }]);
    const importDir = path.join(s.home, 'import');
    const left = fs.existsSync(importDir)
      ? fs.readdirSync(importDir).filter((f) => f.startsWith('staged-'))
      : [];
    expect(left).toEqual([]);
    // with space back, the same archive stages
    expect(
      (await api(s, '/api/import/upload', { body: archive, headers: { 'content-type': 'application/zip' } }))
        .status,
    ).toBe(200);
    const again = await api(s, '/api/import/start', { method: 'POST' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.summary.cards).toContainEqual(expect.objectContaining({ id: 'big', rows: 8000 }));
    await api(s, '/api/import/abort', { method: 'POST' });
  });
});

describe('npm run import on a disk that fills up', () => {
  it('says DISK_FULL, not ZIP_CORRUPT, and writes nothing into the target', async (ctx) => {
    if (!disk.mounted) ctx.skip();
    const file = path.join(s.home, '..', `klebb-fault-${process.pid}.zip`);
    fs.writeFileSync(file, archive);
    const target = path.join(disk.dir, 'fresh-home');
    const tmp = process.env.TMPDIR;
    // the command stages into the system's temporary folder: put that on the small disk
    process.env.TMPDIR = disk.dir;
    const release = leaveFree(2 << 20);
    const out: string[] = [];
    let code: number;
    try {
      code = await importCommand([file, '--apply', '--target', target], {
        out: (t) => out.push(t),
        err: () => {},
      });
    } finally {
      release();
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      fs.rmSync(file, { force: true });
    }
    expect(code).toBe(1);
    expect(JSON.parse(out.join(''))).toMatchObject({ ok: false, code: 'DISK_FULL' });
    expect(fs.readdirSync(disk.dir).filter((f) => f.startsWith('klebb-import-'))).toEqual([]);
    expect(fs.existsSync(path.join(target, 'data'))).toBe(false);
  });
});
