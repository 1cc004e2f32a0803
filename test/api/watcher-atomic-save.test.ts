/**
 * Editors that save by rename-and-replace (vim) or temp-file-and-rename ("safe write")
 * must be seen as one change of the card, never as a removal (which would lose its rows), and the
 * watch must survive them. Plus a real hand delete: the card goes, its rows stay for its return.
 * Real server, real watcher, real files; every "shows up" is a poll with a 1 s deadline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { startServer, type TestServer } from '../helpers/server.js';

const weight = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'weight',
    label: 'Weight',
    view: { enabled: true, component: 'list-card' },
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number', required: true }] },
  },
};
const rows = Array.from({ length: 30 }, (_, i) => ({
  date: `2026-04-${String(i + 1).padStart(2, '0')}`,
  kg: 80 + i / 10,
}));
const manifestText = (label: string) =>
  `${JSON.stringify({ ...weight, meta: { ...weight.meta, label } }, null, 2)}\n`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until `ok` holds or `ms` passed; returns the last value (the caller asserts on it). */
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 1000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(20);
  }
}

let s: TestServer;
let file: string;
let events: CardEvent[];
/** Every file name seen in `GET /api/manifests` (entries and errors) while the test ran. */
let seenFiles: Set<string>;

beforeEach(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), manifestText('Weight'));
    },
  });
  file = path.join(s.dataDir, 'weight.json');
  const stored = await s.api('/api/manifests/weight/data', { json: { data: rows } });
  expect(stored.status).toBe(200);
  events = [];
  seenFiles = new Set();
  s.inst.events.on('card', (e) => events.push(e));
});
afterEach(async () => {
  await s.close();
});

/** The weight card as served (label and row count), recording what the list shows on the way. */
async function weightNow(): Promise<{ label?: string; rows?: number; status: number }> {
  const list = await s.api('/api/manifests');
  for (const e of [...list.body.entries, ...list.body.errors]) seenFiles.add(path.basename(e.file));
  const r = await s.api('/api/manifests/weight');
  return { status: r.status, label: r.body?.meta?.label, rows: r.body?.data?.length };
}

const served = (label: string) => (v: { label?: string; rows?: number }) =>
  v.label === label && v.rows === 30;

describe('atomic-replace saves', () => {
  it('vim, safe-write and in-place saves each show up within 1 s as one change, rows kept, no removal', async () => {
    expect(await weightNow()).toEqual({ status: 200, label: 'Weight', rows: 30 });

    // save 1, vim style: the original moves away, a new file is written, the backup is deleted.
    // The pauses stand for the editor's own work between steps (longer than chokidar's 100 ms
    // atomic window, shorter than the watcher's settle window).
    fs.renameSync(file, `${file}~`);
    await sleep(150);
    fs.writeFileSync(file, manifestText('Body weight'));
    await sleep(20);
    fs.rmSync(`${file}~`);
    expect(await until(weightNow, served('Body weight'))).toEqual({
      status: 200,
      label: 'Body weight',
      rows: 30,
    });

    // save 2, safe-write style: a temp file renamed over the path
    const tmp = path.join(s.dataDir, '.weight.json.tmp-1');
    fs.writeFileSync(tmp, manifestText('Weight (kg)'));
    await sleep(20);
    fs.renameSync(tmp, file);
    expect(await until(weightNow, served('Weight (kg)'))).toEqual({
      status: 200,
      label: 'Weight (kg)',
      rows: 30,
    });

    // save 3, in place (truncate and write): proves the watch survived two replaces
    fs.writeFileSync(file, manifestText('Weight'));
    expect(await until(weightNow, served('Weight'))).toEqual({ status: 200, label: 'Weight', rows: 30 });

    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
    expect(events.filter((e) => e.type === 'card-changed').length).toBeGreaterThanOrEqual(3);
    expect([...seenFiles]).toEqual(['weight.json']);
    const files = fs.readdirSync(s.dataDir, { withFileTypes: true }).filter((d) => d.isFile());
    expect(files.map((d) => d.name)).toEqual(['weight.json']);
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);
  });

  it('a request while the file is renamed away (mid-save) neither drops the card nor emits a removal', async () => {
    fs.renameSync(file, `${file}~`);
    // the API re-reads a card whose file changed behind its back; a file missing for a moment is
    // left to the watcher's settle window, not taken as a delete
    expect(await weightNow()).toEqual({ status: 200, label: 'Weight', rows: 30 });
    fs.writeFileSync(file, manifestText('Body weight'));
    fs.rmSync(`${file}~`);
    expect(await until(weightNow, served('Body weight'))).toEqual({
      status: 200,
      label: 'Body weight',
      rows: 30,
    });
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
    expect([...seenFiles]).toEqual(['weight.json']);
  });
});

describe('a hand delete', () => {
  it('removes the card within 1 s but keeps its rows; the file coming back brings them back', async () => {
    fs.rmSync(file);
    const ids = async () =>
      (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id) as string[];
    expect(await until(ids, (v) => !v.includes('weight'))).toEqual([]);
    expect((await s.api('/api/manifests/weight')).status).toBe(404);
    expect(events).toContainEqual({ type: 'card-removed', id: 'weight', mayReturn: true });
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);

    fs.writeFileSync(file, manifestText('Weight'));
    expect(await until(weightNow, served('Weight'))).toEqual({ status: 200, label: 'Weight', rows: 30 });
    const back = (await s.api('/api/manifests')).body.entries.find((e: { id: string }) => e.id === 'weight');
    expect(back).toMatchObject({ rowCount: 30, hasData: true });
  });
});
