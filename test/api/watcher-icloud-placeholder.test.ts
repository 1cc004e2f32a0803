/**
 * iCloud Drive, freeing space, replaces a card file by a hidden placeholder
 * (`weight.json` becomes `.weight.json.icloud`). Nobody deleted the card: it stays listed with its
 * rows, a note says where its file went, nothing is recorded in History, and rows can still be
 * added; when the file is downloaded again the note goes. A placeholder that goes without the file
 * coming back (the file deleted in iCloud), and a card file deleted without a placeholder, are
 * deletions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { cardText, placeholderBytes, rows } from '../helpers/icloud-placeholder.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let before: Set<number>;
beforeEach(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), cardText);
    },
  });
  expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
  before = new Set((await s.api('/api/changes')).body.changeSets.map((c: { id: number }) => c.id));
});
afterEach(async () => s.close());

/** Resolves with the next card event about `id` that `pick` accepts. */
function nextEvent(id: string, pick: (e: CardEvent) => boolean): Promise<CardEvent> {
  return new Promise((resolve) => {
    const on = (e: CardEvent) => {
      if (e.id === id && pick(e)) {
        s.inst.events.off('card', on);
        resolve(e);
      }
    };
    s.inst.events.on('card', on);
  });
}

async function newHistory(): Promise<string[]> {
  const sets: { id: number; summary: string }[] = (await s.api('/api/changes')).body.changeSets;
  return sets.filter((c) => !before.has(c.id)).map((c) => c.summary);
}

describe('a card file iCloud replaced by a placeholder', () => {
  it('keeps the card and its rows, records no deletion, and drops the note when the file is back', {
    timeout: 20_000,
  }, async () => {
    const file = path.join(s.dataDir, 'weight.json');
    const judged = nextEvent('weight', () => true);
    // the eviction: the stub appears and the file goes
    fs.writeFileSync(path.join(s.dataDir, '.weight.json.icloud'), placeholderBytes);
    fs.rmSync(file);
    expect((await judged).type).toBe('card-changed');

    const list = (await s.api('/api/manifests')).body;
    expect(list.entries.map((e: { id: string }) => e.id)).toContain('weight');
    const note = list.errors.find((e: { code: string }) => e.code === 'FILE_IN_CLOUD');
    expect(note).toMatchObject({ file: 'weight.json', id: 'weight' });
    expect(note.message).toContain('.weight.json.icloud');
    expect((await s.api('/api/manifests/weight')).body.data).toHaveLength(12);
    expect(await newHistory()).toEqual([]);
    // rows live in the store: the card still takes them
    const add = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: '2026-04-20', kg: 90 } },
    });
    expect(add.status, add.text).toBe(201);

    // downloaded again: the same bytes come back, the stub goes
    const back = nextEvent('weight', (e) => e.type === 'card-changed');
    fs.writeFileSync(file, cardText);
    fs.rmSync(path.join(s.dataDir, '.weight.json.icloud'));
    await back;
    const after = (await s.api('/api/manifests')).body;
    expect(after.errors.filter((e: { code: string }) => e.code === 'FILE_IN_CLOUD')).toEqual([]);
    expect((await s.api('/api/manifests/weight')).body.data).toHaveLength(13);
    // the one change is the row added: no deletion, no creation
    const history = await newHistory();
    expect(history).toHaveLength(1);
    expect(history[0]).not.toMatch(/Deleted|Created/);
  });

  it('a placeholder deleted in iCloud without the file coming back is a deletion', {
    timeout: 20_000,
  }, async () => {
    const inCloud = nextEvent('weight', () => true);
    fs.writeFileSync(path.join(s.dataDir, '.weight.json.icloud'), placeholderBytes);
    fs.rmSync(path.join(s.dataDir, 'weight.json'));
    await inCloud;
    // the file deleted in iCloud (on another Mac): the stub goes and the file never comes back
    const gone = nextEvent('weight', (e) => e.type === 'card-removed');
    fs.rmSync(path.join(s.dataDir, '.weight.json.icloud'));
    await gone;
    const list = (await s.api('/api/manifests')).body;
    expect(list.entries.map((e: { id: string }) => e.id)).not.toContain('weight');
    expect(list.errors.filter((e: { code: string }) => e.code === 'FILE_IN_CLOUD')).toEqual([]);
    expect((await newHistory()).some((h) => /Deleted/.test(h))).toBe(true);
  });

  it('a card file deleted with no placeholder is still a deletion', { timeout: 20_000 }, async () => {
    const gone = nextEvent('weight', (e) => e.type === 'card-removed');
    fs.rmSync(path.join(s.dataDir, 'weight.json'));
    await gone;
    const list = (await s.api('/api/manifests')).body;
    expect(list.entries.map((e: { id: string }) => e.id)).not.toContain('weight');
  });
});
