/**
 * What editors, sync tools and people leave beside a card file while editing it: swap files,
 * backups, lock links, vim's write probe, a save that empties the file before writing it, a byte
 * order mark or Windows line ends. None of the side files becomes a card or a load error, and the
 * card itself ends with the edit, its rows kept, never removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { MANIFEST_SETTLE_MS, WATCH_SETTLE_MS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'weight', label, writeable: { fromWebapp: true } } }, null, 2)}\n`;

let s: TestServer;
let file: string;
let events: CardEvent[];

beforeEach(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), text('Weight'));
    },
  });
  file = path.join(s.dataDir, 'weight.json');
  const rows = Array.from({ length: 5 }, (_, i) => ({ date: `2026-04-0${i + 1}`, kg: 80 + i }));
  expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
  events = [];
  s.inst.events.on('card', (e) => events.push(e));
});
afterEach(async () => {
  await s.close();
});

/** The card list: ids, error files and the weight card's label and row count. */
async function state() {
  const list = (await s.api('/api/manifests')).body;
  const w = (await s.api('/api/manifests/weight')).body;
  return {
    ids: (list.entries as { id: string }[]).map((e) => e.id),
    errors: (list.errors as { file: string; code: string }[]).map((e) => `${e.file} ${e.code}`),
    label: w?.meta?.label,
    rows: w?.data?.length,
  };
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 2000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await sleep(25);
  }
}

it("editors' side files never become cards or errors; the edit lands, rows kept", async () => {
  const side = [
    '.weight.json.swp', // vim swap
    '.weight.json.swx',
    'weight.json~', // vim / emacs backup
    '4913', // vim's probe that the folder is writable
    '#weight.json#', // emacs auto-save
    '.weight.json.kate-swp',
    'weight.json___jb_tmp___', // JetBrains safe write
    'weight.json___jb_old___',
    '._weight.json', // macOS resource fork on a foreign disk
    '.~lock.weight.json#', // LibreOffice lock
    'weight.json.bak',
    'weight.json.orig',
    '.goutputstream-ABC123', // gedit
  ];
  for (const name of side) fs.writeFileSync(path.join(s.dataDir, name), text('Side file'));
  // emacs' lock file is a dangling symbolic link
  fs.symlinkSync('user@host.1234:1700000000', path.join(s.dataDir, '.#weight.json'));
  fs.writeFileSync(file, text('Body weight'));
  await sleep(WATCH_SETTLE_MS + 300);
  for (const name of ['4913', '.weight.json.swp', '.weight.json.swx']) fs.rmSync(path.join(s.dataDir, name));
  const v = await until(state, (x) => x.label === 'Body weight');
  expect(v).toEqual({ ids: ['weight'], errors: [], label: 'Body weight', rows: 5 });
  await sleep(WATCH_SETTLE_MS + 200);
  expect(await state()).toEqual(v);
  expect(events.filter((e) => e.type !== 'card-changed')).toEqual([]);
});

it('a save that empties the file first, then writes it: no error is ever shown, the card stays', async () => {
  const errors = new Set<string>();
  const statuses = new Set<number>();
  fs.writeFileSync(file, '');
  const end = Date.now() + MANIFEST_SETTLE_MS + 600;
  let written = false;
  while (Date.now() < end) {
    const st = await state();
    for (const e of st.errors) errors.add(e);
    statuses.add((await s.api('/api/manifests/weight')).status);
    if (!written && Date.now() > end - MANIFEST_SETTLE_MS - 400) {
      fs.writeFileSync(file, text('Weight (kg)'));
      written = true;
    }
    await sleep(20);
  }
  expect([...errors]).toEqual([]);
  expect([...statuses]).toEqual([200]);
  expect(await until(state, (x) => x.label === 'Weight (kg)')).toMatchObject({
    label: 'Weight (kg)',
    rows: 5,
  });
  expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
});

it('a file saved with a byte order mark and Windows line ends loads like any other', async () => {
  fs.writeFileSync(file, `\ufeff${text('Gewicht').replace(/\n/g, '\r\n')}`);
  expect(await until(state, (x) => x.label === 'Gewicht')).toEqual({
    ids: ['weight'],
    errors: [],
    label: 'Gewicht',
    rows: 5,
  });
  // and the next change from the app writes the card without losing the edit
  const r = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { emoji: '⚖️' } } });
  expect(r.status, r.text).toBe(200);
  expect((await state()).label).toBe('Gewicht');
});

it('a sync conflict copy is named as a second file claiming the card, never taken over it', async () => {
  const copies = [
    'weight.sync-conflict-20260420-101010-ABCDEFG.json', // Syncthing
    'weight (conflicted copy 2026-04-20).json', // Dropbox
    'weight - Copy.json', // Windows Explorer
  ];
  for (const name of copies) fs.writeFileSync(path.join(s.dataDir, name), text('Old weight'));
  const v = await until(state, (x) => x.errors.length === copies.length);
  expect(v.ids).toEqual(['weight']);
  expect(v.label).toBe('Weight');
  expect(v.rows).toBe(5);
  expect(v.errors.sort()).toEqual(copies.map((n) => `${n} DUPLICATE_ID`).sort());
});

it('copies named after a card file not named by its id never take the card from it, running or at start-up', async () => {
  const own = path.join(s.dataDir, 'my-weight.json');
  fs.renameSync(file, own);
  expect(await until(state, (x) => x.ids.includes('weight') && x.errors.length === 0)).toMatchObject({
    label: 'Weight',
    rows: 5,
  });
  const copies = [
    'my-weight (conflicted copy 2026-04-20).json', // Dropbox
    "my-weight (Ann's conflicted copy 2026-04-20).json",
    'my-weight (conflicted copy 2026-04-20 101010).json', // Nextcloud
    'my-weight (1).json', // Google Drive, a browser download
    'my-weight 2.json', // iCloud Drive, Finder
    'my-weight copy.json', // Finder's Duplicate
    'my-weight - Copy.json', // Windows Explorer
    'my-weight-LAPTOP-7Q2.json', // OneDrive keeping both
    'my-weight.sync-conflict-20260420-101010-ABCDEFG.json', // Syncthing
  ];
  for (const name of copies) fs.writeFileSync(path.join(s.dataDir, name), text('Old weight'));
  const expected = copies.map((n) => `${n} DUPLICATE_ID`).sort();
  const v = await until(state, (x) => x.errors.length === copies.length);
  expect({ ...v, errors: [...v.errors].sort() }).toEqual({
    ids: ['weight'],
    errors: expected,
    label: 'Weight',
    rows: 5,
  });
  // the app keeps writing to the card's own file
  const r = await s.api('/api/manifests/weight', {
    method: 'PATCH',
    json: { meta: { label: 'Body weight' } },
  });
  expect(r.status, r.text).toBe(200);
  expect(JSON.parse(fs.readFileSync(own, 'utf8')).meta.label).toBe('Body weight');

  // the same at the next start (the restarted server's home is removed with it)
  const home = s.home;
  await s.close({ keepHome: true });
  const again = await startServer({ home });
  s = {
    ...again,
    close: async () => {
      await again.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
  const after = await state();
  expect({ ...after, errors: [...after.errors].sort() }).toEqual({
    ids: ['weight'],
    errors: expected,
    label: 'Body weight',
    rows: 5,
  });
});
