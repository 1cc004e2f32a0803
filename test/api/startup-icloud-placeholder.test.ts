/**
 * iCloud Drive, freeing space, may have replaced a card file by its hidden placeholder
 * (`weight.json` became `.weight.json.icloud`) while Klebb was stopped. Nobody deleted the card:
 * at the next start it is listed as before, from the newest manifest Klebb recorded for that
 * file, with its rows and the FILE_IN_CLOUD note; rows can be added; the file's return takes the
 * note away and History shows no deletion or creation. A card Klebb has no record of (dropped in
 * by hand, never changed in Klebb) cannot be shown, but it is not silently missing: the note names
 * its file, and the card comes back with every row once the file is downloaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { cardText, placeholderBytes, rows } from '../helpers/icloud-placeholder.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';

const box = sandboxHome('klebb-icloud-start-');
let s: TestServer | undefined;
afterEach(async () => {
  await s?.close({ keepHome: true });
  s = undefined;
  box.remove();
});

/** Resolves with the next card event about `id` that `pick` accepts. */
function nextEvent(srv: TestServer, id: string, pick: (e: CardEvent) => boolean): Promise<CardEvent> {
  return new Promise((resolve) => {
    const on = (e: CardEvent) => {
      if (e.id === id && pick(e)) {
        srv.inst.events.off('card', on);
        resolve(e);
      }
    };
    srv.inst.events.on('card', on);
  });
}

/** Runs Klebb on the home with the card and its rows, `edit` done through the API, then stops it. */
async function firstRun(edit: (srv: TestServer) => Promise<void>): Promise<Set<number>> {
  const srv = await startServer({
    home: box.home,
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), cardText);
    },
  });
  expect((await srv.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
  await edit(srv);
  const sets = new Set<number>(
    (await srv.api('/api/changes')).body.changeSets.map((c: { id: number }) => c.id),
  );
  await srv.close({ keepHome: true });
  return sets;
}

/** While Klebb is stopped, iCloud moves the file to the cloud; returns the bytes it had. */
function evict(): Buffer {
  const file = path.join(box.dataDir, 'weight.json');
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(path.join(box.dataDir, '.weight.json.icloud'), placeholderBytes);
  fs.rmSync(file);
  return bytes;
}

/** The file is downloaded again: its bytes come back, the stub goes. */
async function download(srv: TestServer, bytes: Buffer): Promise<void> {
  const back = nextEvent(srv, 'weight', (e) => e.type === 'card-changed');
  fs.writeFileSync(path.join(srv.dataDir, 'weight.json'), bytes);
  fs.rmSync(path.join(srv.dataDir, '.weight.json.icloud'));
  await back;
}

describe('a card file that is only an iCloud placeholder when Klebb starts', () => {
  it('keeps its card, as last recorded, with its rows and a note', { timeout: 30_000 }, async () => {
    const before = await firstRun(async (srv) => {
      const r = await srv.api('/api/manifests/weight', {
        method: 'PATCH',
        json: { meta: { label: 'Body weight' } },
      });
      expect(r.status, r.text).toBe(200);
    });
    const bytes = evict();
    s = await startServer({ home: box.home, watch: true });

    const list = (await s.api('/api/manifests')).body;
    const entry = list.entries.find((e: { id: string }) => e.id === 'weight');
    expect(entry?.label ?? entry?.meta?.label).toBe('Body weight');
    const note = list.errors.find((e: { code: string }) => e.code === 'FILE_IN_CLOUD');
    expect(note).toMatchObject({ file: 'weight.json', id: 'weight' });
    expect(note.message).toContain('.weight.json.icloud');
    expect((await s.api('/api/manifests/weight')).body.data).toHaveLength(12);
    const add = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: '2026-04-20', kg: 90 } },
    });
    expect(add.status, add.text).toBe(201);

    await download(s, bytes);
    const after = (await s.api('/api/manifests')).body;
    expect(after.errors.filter((e: { code: string }) => e.code === 'FILE_IN_CLOUD')).toEqual([]);
    expect((await s.api('/api/manifests/weight')).body.data).toHaveLength(13);
    const sets: { id: number; summary: string }[] = (await s.api('/api/changes')).body.changeSets;
    const fresh = sets.filter((c) => !before.has(c.id)).map((c) => c.summary);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).not.toMatch(/Deleted|Created/);
  });

  it('names the file in the cloud when Klebb has no record of its card', { timeout: 30_000 }, async () => {
    await firstRun(async () => {});
    const bytes = evict();
    s = await startServer({ home: box.home, watch: true });

    const list = (await s.api('/api/manifests')).body;
    expect(list.entries.map((e: { id: string }) => e.id)).not.toContain('weight');
    const note = list.errors.find((e: { code: string }) => e.code === 'FILE_IN_CLOUD');
    expect(note).toMatchObject({ file: 'weight.json' });
    expect(note.message).toContain('.weight.json.icloud');

    await download(s, bytes);
    const after = (await s.api('/api/manifests')).body;
    expect(after.entries.map((e: { id: string }) => e.id)).toContain('weight');
    expect(after.errors.filter((e: { code: string }) => e.code === 'FILE_IN_CLOUD')).toEqual([]);
    expect((await s.api('/api/manifests/weight')).body.data).toHaveLength(12);
  });
});
