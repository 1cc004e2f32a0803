/**
 * A card file dropped in with its data while the data folder's disk is nearly full: room for the
 * copy kept of the original, none for the file rewritten without its data. The import must fail
 * whole: the card keeps its rows, no copy is left, the file stays as dropped, and the message says
 * the disk is full. Rows replaced under a file that still held its data would be replaced by that
 * data again at its next load, over every row written since. Once there is space, saving the file
 * again imports it once.
 *
 * The data folder lives on a small tmpfs (HEALTH_DATA_DIR; the database stays on the ordinary
 * disk), filled to the last page but for a few kept free by a placeholder file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { canMountTmpfs, type SmallDisk, smallDisk } from '../helpers/small-disk.js';

const PAGE = 4096;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const manifest = (extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } }, ...extra }, null, 2)}\n`;

let s: TestServer | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await s?.close();
  disk?.remove();
  s = undefined;
  disk = undefined;
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await sleep(25);
  }
}

it.runIf(canMountTmpfs())(
  'a full disk fails the import whole: rows, file and folder as they were; saved again later, it is imported once',
  async () => {
    disk = smallDisk(2);
    const dataDir = path.join(disk.dir, 'data');
    fs.mkdirSync(dataDir);
    const file = path.join(dataDir, 'weight.json');
    fs.writeFileSync(file, manifest());
    s = await startServer({ env: { HEALTH_DATA_DIR: dataDir } });
    const mine = [{ date: '2026-05-01', kg: 81 }];
    expect((await s.api('/api/manifests/weight/data', { json: { data: mine } })).status).toBe(200);

    const rows = Array.from({ length: 200 }, (_, i) => ({
      date: '2026-01-01',
      kg: 70 + i / 10,
      note: 'x'.repeat(20),
    }));
    const dropped = manifest({ data: rows });
    const pages = Math.ceil(dropped.length / PAGE);
    // the file to drop waits under a dot-name (the watcher passes over it); a placeholder keeps
    // free all but one of the pages its copy needs: the page of the file it replaces makes up
    // the rest, and nothing is left for the file rewritten without its data
    const waiting = path.join(dataDir, '.weight.drop');
    fs.writeFileSync(waiting, dropped);
    const placeholder = path.join(disk.dir, '.placeholder');
    fs.writeFileSync(placeholder, Buffer.alloc((pages - 1) * PAGE, 0x61));
    disk.fill();
    fs.rmSync(placeholder);
    fs.renameSync(waiting, file);

    const listed = async () => {
      const body = (await s?.api('/api/manifests'))?.body;
      return (body.errors as { file: string; code: string; message: string }[]).map(
        (e) => `${e.code} ${e.message}`,
      );
    };
    const errors = await until(listed, (e) => e.length > 0);
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(mine);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^IMPORT_FAILED the disk is full: its data was not imported and nothing changed/,
    );
    expect(fs.readdirSync(dataDir).filter((n) => n !== '_meta')).toEqual(['weight.json']);
    expect(fs.readFileSync(file, 'utf8')).toBe(dropped);
    const server = s;
    const imports = async () =>
      ((await server.api('/api/changes')).body.changeSets as { summary: string }[]).filter((c) =>
        c.summary.startsWith('Imported'),
      );
    expect(await imports()).toEqual([]);

    // space again, and the file saved again: imported once, rewritten without its data
    disk.free();
    fs.writeFileSync(file, dropped);
    const data = await until(
      async () => (await s?.api('/api/manifests/weight/data'))?.body.data as unknown[],
      (d) => d.length === rows.length,
    );
    expect(data).toEqual(rows);
    expect(await until(listed, (e) => e.length === 0)).toEqual([]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).not.toHaveProperty('data');
    expect(fs.readdirSync(dataDir).filter((n) => n.startsWith('weight.json.'))).toHaveLength(1);
    expect(await imports()).toHaveLength(1);
  },
);
