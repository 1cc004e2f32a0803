/**
 * The data folder refuses the server's writes: its volume remounted read-only (a failing disk the
 * kernel protects, a backup tool's snapshot mount), or the folder gone while the server runs
 * (moved away, being restored). Each card write is answered 503 NOT_SAVED saying why, and nothing
 * changes: the card file, its rows and History are as they were. Once the folder takes writes
 * again, they go through. Real server, real folders.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { canMountTmpfs, type SmallDisk, smallDisk } from '../helpers/small-disk.js';

const manifest = (id: string, label: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label, writeable: { fromWebapp: true } },
});
const text = (id: string, label: string) => `${JSON.stringify(manifest(id, label), null, 2)}\n`;

let s: TestServer | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  if (disk?.mounted) execFileSync('mount', ['-o', 'remount,rw', disk.dir]);
  await s?.close();
  disk?.remove();
  s = undefined;
  disk = undefined;
});

/** What the server holds: the cards listed, the weight card's rows and the number of change sets. */
async function held(server: TestServer) {
  const list = (await server.api('/api/manifests')).body;
  return {
    cards: (list.entries as { id: string; meta: { label: string } }[])
      .map((e) => `${e.id} ${e.meta.label}`)
      .sort(),
    rows: (await server.api('/api/manifests/weight/data')).body.data,
    sets: (await server.api('/api/changes')).body.changeSets.length,
  };
}

it.runIf(canMountTmpfs())(
  'a data folder on a read-only mount: card writes are 503 NOT_SAVED and change nothing',
  async () => {
    disk = smallDisk(2);
    const dataDir = path.join(disk.dir, 'data');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'weight.json'), text('weight', 'Weight'));
    fs.writeFileSync(path.join(dataDir, 'mood.json'), text('mood', 'Mood'));
    s = await startServer({ env: { HEALTH_DATA_DIR: dataDir } });
    const rows = [{ date: '2026-04-01', kg: 80 }];
    expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
    const before = await held(s);
    const fileBefore = fs.readFileSync(path.join(dataDir, 'weight.json'), 'utf8');

    execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
    const writes = [
      await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { label: 'Body weight' } } }),
      await s.api('/api/manifests', { json: manifest('sleep', 'Sleep') }),
      await s.api('/api/manifests/mood', { method: 'DELETE' }),
    ];
    for (const r of writes) {
      expect(r.status, r.text).toBe(503);
      expect(r.body.code).toBe('NOT_SAVED');
      expect(r.body.error).toContain('EROFS, the file system is read-only');
      expect(r.body.error).toContain(dataDir);
    }
    expect(await held(s)).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, 'weight.json'), 'utf8')).toBe(fileBefore);

    // writable again: the same write goes through
    execFileSync('mount', ['-o', 'remount,rw', disk.dir]);
    const again = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Body weight' } },
    });
    expect(again.status, again.text).toBe(200);
  },
);

it('the data folder gone while running (moved away, being restored): creating a card is 503 NOT_SAVED, nothing kept', async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), text('weight', 'Weight'));
    },
  });
  const away = `${s.dataDir}.away`;
  fs.renameSync(s.dataDir, away);
  const r = await s.api('/api/manifests', { json: manifest('sleep', 'Sleep') });
  expect(r.status, r.text).toBe(503);
  expect(r.body).toMatchObject({ code: 'NOT_SAVED' });
  expect(r.body.error).toContain(`the data folder ${s.dataDir} is missing`);
  // not made again behind the back of whatever is putting it back
  expect(fs.existsSync(s.dataDir)).toBe(false);
  const sets = (await s.api('/api/changes')).body.changeSets as { cards: string[] }[];
  expect(sets.filter((c) => c.cards.includes('sleep'))).toEqual([]);
  expect(s.inst.cards.store.state('sleep').version).toBe(0);

  fs.renameSync(away, s.dataDir);
  const created = await s.api('/api/manifests', { json: manifest('sleep', 'Sleep') });
  expect(created.status, created.text).toBe(201);
});
