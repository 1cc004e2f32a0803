/**
 * An export unpacked and packed again by the person's own computer imports as the export did.
 * Safari unpacks a download by itself and Windows' "Extract all" makes a folder; packing that
 * folder again puts every file under the folder's name, and macOS's Compress adds `__MACOSX/`
 * with a `._` file beside every file and `.DS_Store`; Windows PowerShell's Compress-Archive
 * writes `\` between folder and file. The files themselves are the export's, so their checksums
 * hold. Real server: an export made by one server, repacked here, uploaded to a fresh one through
 * Settings › Data's routes; a repacked archive holding a file of its own, or a name climbing out
 * written with `\`, is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobEnd } from '../helpers/import-job.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildZip, readZip, type ZipEntryBytes } from '../helpers/zip.js';

const T = 'repack-token';
const FOLDER = 'klebb-export-2026-12-07';
let src: TestServer;
let exported: ZipEntryBytes[];

const card = (id: string, data: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id.toUpperCase(), writeable: { fromWebapp: true } },
  data,
});

beforeAll(async () => {
  src = await startServer({ env: { AGENT_API_TOKEN: T } });
  await src.api('/api/manifests', {
    token: T,
    json: card('weight', [
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-02', kg: 79.5 },
    ]),
  });
  const res = await fetch(`${src.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  expect(res.status).toBe(200);
  exported = await readZip(Buffer.from(await res.arrayBuffer()));
});
afterAll(async () => {
  await src?.close();
});

/** The folders of the export's files, each once, as a zip tool lists them. */
const foldersOf = (names: string[]) => [
  ...new Set(
    names.flatMap((n) =>
      n
        .split('/')
        .slice(0, -1)
        .map((_, i, p) => `${p.slice(0, i + 1).join('/')}/`),
    ),
  ),
];

/** The export as Finder's Compress packs the folder Safari unpacked it into. */
function finderRepack(): { name: string; data: Buffer | string }[] {
  const names = exported.map((e) => `${FOLDER}/${e.name}`);
  return [
    ...foldersOf(names).map((name) => ({ name, data: '' })),
    ...exported.map((e) => ({ name: `${FOLDER}/${e.name}`, data: e.data })),
    { name: `${FOLDER}/.DS_Store`, data: Buffer.from('\0\0\0\x01Bud1') },
    { name: '__MACOSX/', data: '' },
    ...exported.map((e) => {
      const parts = `${FOLDER}/${e.name}`.split('/');
      parts[parts.length - 1] = `._${parts[parts.length - 1]}`;
      return { name: `__MACOSX/${parts.join('/')}`, data: Buffer.from('\0\x05\x16\x07\0\x02\0\0Mac OS X') };
    }),
  ];
}

/** Replaces each name in the archive's bytes (local headers and directory) by one of the same length. */
function renameEntries(zip: Buffer, renames: [string, string][]): Buffer {
  const out = Buffer.from(zip);
  for (const [from, to] of renames) {
    expect(to.length).toBe(from.length);
    let i = out.indexOf(from);
    expect(i).toBeGreaterThanOrEqual(0);
    while (i !== -1) {
      out.write(to, i, 'latin1');
      i = out.indexOf(from, i + from.length);
    }
  }
  return out;
}

/** The export as Windows PowerShell's Compress-Archive packs its folder: `\` between the parts. */
async function powershellRepack(): Promise<Buffer> {
  const files = exported.map((e) => ({ name: `${FOLDER}/${e.name}`, data: e.data }));
  const zip = await buildZip(files);
  return renameEntries(
    zip,
    files.map((f) => [f.name, f.name.replace(/\//g, '\\')]),
  );
}

/** Uploads `zip` to a fresh server, imports it whole, and returns the weight card's rows. */
async function importInto(
  zip: Buffer,
): Promise<{ start: { status: number; body: Record<string, unknown> }; rows?: unknown }> {
  const s = await startServer({ env: { AGENT_API_TOKEN: T } });
  try {
    const up = await s.api('/api/import/upload', {
      token: T,
      body: zip,
      headers: { 'content-type': 'application/zip' },
    });
    expect(up.status, up.text).toBe(200);
    const start = await s.api('/api/import/start', { token: T, method: 'POST' });
    if (start.status !== 200) return { start };
    const go = await s.api('/api/import/apply', { token: T, json: { nonce: start.body.nonce } });
    expect(go.status, go.text).toBe(202);
    expect(await importJobEnd(s, T)).toMatchObject({ state: 'done' });
    const weight = await s.api('/api/manifests/weight', { token: T });
    return { start, rows: weight.body.data };
  } finally {
    await s.close();
  }
}

const ROWS = [
  { date: '2026-04-01', kg: 80 },
  { date: '2026-04-02', kg: 79.5 },
];

describe('an export packed again by the computer it was downloaded to', () => {
  it('imports after macOS unpacked it and Compress packed the folder (__MACOSX, ._ files, .DS_Store)', async () => {
    const { start, rows } = await importInto(await buildZip(finderRepack()));
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const preview = (start.body.summary as { cards: { id: string; rows: number }[] }).cards;
    expect(preview.map((c) => [c.id, c.rows])).toEqual([
      ['weight', 2],
      ['welcome', 1],
    ]);
    expect(rows).toEqual(ROWS);
  });

  it('imports after Windows PowerShell packed the folder with \\ between folder and file', async () => {
    const { start, rows } = await importInto(await powershellRepack());
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(rows).toEqual(ROWS);
  });

  it('still refuses a repacked archive holding a file the export did not list', async () => {
    const files = [...finderRepack(), { name: `${FOLDER}/notes.txt`, data: 'mine' }];
    const { start } = await importInto(await buildZip(files));
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('IMPORT_INVENTORY_MISMATCH');
    expect(String(start.body.error)).toContain('notes.txt');
  });

  it('still refuses a name that climbs out of the archive written with \\', async () => {
    const zip = await buildZip([
      ...exported.map((e) => ({ name: e.name, data: e.data })),
      { name: 'xx/evil.txt', data: 'x' },
    ]);
    const { start } = await importInto(renameEntries(zip, [['xx/evil.txt', '..\\evil.txt']]));
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('ZIP_UNSAFE_NAME');
  });
});
