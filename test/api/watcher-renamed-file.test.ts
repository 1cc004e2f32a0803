/**
 * A card file renamed (`mv`, `git mv`, a case-only rename, a sync tool putting a file under a new
 * name) is the same card under a new name. The watcher sees the new name appear and the old one
 * vanish, in either order; before the old one's vanishing was settled, the new file was refused as
 * a duplicate of its own old self (a problem flashing up in Settings), and the History got a
 * "Deleted" and a "Created" entry whose Undo would delete the card. Now the card moves to the new
 * file at once: no problem, no removal, no history entry unless the content changed too. A copy
 * (both files on the disk) is still refused as a duplicate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { WATCH_SETTLE_MS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const cardText = (id: string, label: string) =>
  `${JSON.stringify(
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id,
        label,
        view: { enabled: true, component: 'list-card' },
        writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number', required: true }] },
      },
    },
    null,
    2,
  )}\n`;
const manifestText = (label: string) => cardText('weight', label);
const rows = Array.from({ length: 30 }, (_, i) => ({
  date: `2026-04-${String(i + 1).padStart(2, '0')}`,
  kg: 80 + i / 10,
}));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let s: TestServer;
let events: CardEvent[];
/** Every load problem code seen in `GET /api/manifests` while the test ran. */
let problems: Set<string>;
/** Change sets in the History before the test's file operations (the rows stored at the start). */
let before: Set<number>;

beforeEach(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), manifestText('Weight'));
    },
  });
  expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
  events = [];
  problems = new Set();
  before = new Set((await s.api('/api/changes')).body.changeSets.map((c: { id: number }) => c.id));
  s.inst.events.on('card', (e) => events.push(e));
});
afterEach(async () => {
  await s.close();
});

/** The weight card's file and label as listed, noting every problem the list shows meanwhile. */
async function weightFile(): Promise<{ file?: string; label?: string }> {
  const list = await s.api('/api/manifests');
  for (const e of list.body.errors) problems.add(`${e.code} ${path.basename(e.file)}`);
  const entry = list.body.entries.find((e: { id: string }) => e.id === 'weight');
  return { file: entry && path.basename(entry.file), label: entry?.meta?.label };
}

/** Polls until the weight card is listed from `name`, for up to 2 s; returns what it saw last. */
async function movedTo(name: string): Promise<{ file?: string; label?: string }> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const v = await weightFile();
    if (v.file === name || Date.now() > deadline) return v;
    await sleep(20);
  }
}

/** Waits out the old name's settle window, still noting problems, then returns the new history entries. */
async function settledHistory(): Promise<{ id: number; summary: string }[]> {
  for (let i = 0; i < 4; i++) {
    await sleep(WATCH_SETTLE_MS);
    await weightFile();
  }
  const sets: { id: number; summary: string }[] = (await s.api('/api/changes')).body.changeSets;
  return sets.filter((c) => !before.has(c.id));
}

describe('a renamed card file', () => {
  it('case-only rename: the card moves, with its rows, and nothing is reported or recorded', async () => {
    fs.renameSync(path.join(s.dataDir, 'weight.json'), path.join(s.dataDir, 'Weight.json'));
    expect(await movedTo('Weight.json')).toEqual({ file: 'Weight.json', label: 'Weight' });
    expect(await settledHistory()).toEqual([]);
    expect([...problems]).toEqual([]);
    expect(events.filter((e) => e.type !== 'card-changed')).toEqual([]);
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);
    // later saves from the app go to the new name
    const edit = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { label: 'Kg' } } });
    expect(edit.status).toBe(200);
    expect(fs.readdirSync(s.dataDir).filter((n) => n.endsWith('.json'))).toEqual(['Weight.json']);
    expect(fs.readFileSync(path.join(s.dataDir, 'Weight.json'), 'utf8')).toContain('"Kg"');
  });

  it('renamed and edited at once (a git checkout): one change of the card, no deletion', async () => {
    fs.writeFileSync(path.join(s.dataDir, 'body-weight.json'), manifestText('Body weight'));
    fs.rmSync(path.join(s.dataDir, 'weight.json'));
    expect(await movedTo('body-weight.json')).toEqual({ file: 'body-weight.json', label: 'Body weight' });
    const history = await settledHistory();
    expect(history.map((c) => c.summary)).toHaveLength(1);
    expect(history[0].summary).not.toMatch(/^(Deleted|Created)/);
    expect([...problems]).toEqual([]);
    expect(events.filter((e) => e.type !== 'card-changed')).toEqual([]);
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);
  });

  it('a copy beside the original is still refused as a duplicate', async () => {
    fs.copyFileSync(path.join(s.dataDir, 'weight.json'), path.join(s.dataDir, 'weight-copy.json'));
    const deadline = Date.now() + 2000;
    while (!problems.has('DUPLICATE_ID weight-copy.json') && Date.now() < deadline) {
      await weightFile();
      await sleep(20);
    }
    expect([...problems]).toEqual(['DUPLICATE_ID weight-copy.json']);
    expect((await weightFile()).file).toBe('weight.json');
  });
});

describe('two card files that swap ids (a git checkout, a restore, a script renaming them)', () => {
  /** Two cards, each with rows: a in a.json, b in b.json. */
  async function twoCards(): Promise<void> {
    fs.writeFileSync(path.join(s.dataDir, 'a.json'), cardText('a', 'Card A'));
    fs.writeFileSync(path.join(s.dataDir, 'b.json'), cardText('b', 'Card B'));
    const listed = async () => (await s.api('/api/manifests')).body.entries.length;
    const deadline = Date.now() + 2000;
    while ((await listed()) < 3 && Date.now() < deadline) await sleep(20);
    for (const id of ['a', 'b']) {
      const r = await s.api(`/api/manifests/${id}/data`, {
        json: { data: [{ date: '2026-04-01', kg: id === 'a' ? 1 : 2 }] },
      });
      expect(r.status, r.text).toBe(200);
    }
    before = new Set((await s.api('/api/changes')).body.changeSets.map((c: { id: number }) => c.id));
    events = [];
  }

  /** The a and b cards as listed (file, label, rows) and every problem, once both have moved. */
  async function swapped(): Promise<{ cards: string[]; errors: string[] }> {
    const read = async () => {
      const list = (await s.api('/api/manifests')).body;
      const cards = (
        list.entries as { id: string; file: string; meta: { label: string }; rowCount: number }[]
      )
        .filter((e) => e.id !== 'weight')
        .map((e) => `${e.id} ${path.basename(e.file)} ${e.meta.label} ${e.rowCount}`)
        .sort();
      return {
        cards,
        errors: (list.errors as { file: string; code: string }[]).map((e) => `${e.file} ${e.code}`),
      };
    };
    const deadline = Date.now() + 3000;
    for (;;) {
      const v = await read();
      if (
        (v.cards.join() === 'a b.json Card A 1,b a.json Card B 1' && v.errors.length === 0) ||
        Date.now() > deadline
      )
        return v;
      await sleep(25);
    }
  }

  /** `judgedAlone`: one file was judged while the other still held its id (a duplicate then). */
  const expectSwapped = async (judgedAlone = false) => {
    expect(await swapped()).toEqual({ cards: ['a b.json Card A 1', 'b a.json Card B 1'], errors: [] });
    // the same cards in other files: nothing to record, nothing removed
    expect(await settledHistory()).toEqual([]);
    const told = events.filter((e) => e.type !== 'card-changed' && !(judgedAlone && e.type === 'file-error'));
    expect(told).toEqual([]);
    // and the app writes each card to its new file
    const r = await s.api('/api/manifests/a', { method: 'PATCH', json: { meta: { label: 'Card A2' } } });
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(s.dataDir, 'b.json'), 'utf8')).meta).toMatchObject({
      id: 'a',
      label: 'Card A2',
    });
  };

  it('rewritten in place in one burst', async () => {
    await twoCards();
    fs.writeFileSync(path.join(s.dataDir, 'a.json'), cardText('b', 'Card B'));
    fs.writeFileSync(path.join(s.dataDir, 'b.json'), cardText('a', 'Card A'));
    await expectSwapped();
  });

  it('one rewritten a moment before the other', async () => {
    await twoCards();
    fs.writeFileSync(path.join(s.dataDir, 'b.json'), cardText('a', 'Card A'));
    // long enough for b.json to be judged alone: for that moment it is a copy of a
    await sleep(300);
    fs.writeFileSync(path.join(s.dataDir, 'a.json'), cardText('b', 'Card B'));
    await expectSwapped(true);
  });

  it('renamed through a third name', async () => {
    await twoCards();
    const p = (n: string) => path.join(s.dataDir, n);
    fs.renameSync(p('a.json'), p('swap.tmp'));
    fs.renameSync(p('b.json'), p('a.json'));
    fs.renameSync(p('swap.tmp'), p('b.json'));
    await expectSwapped();
  });
});

describe('a card file that comes back after its removal settled (a sync tool deleting, then downloading)', () => {
  /** Deletes weight.json and waits until the card has left the list (its deletion recorded). */
  async function goneForAWhile(): Promise<void> {
    fs.rmSync(path.join(s.dataDir, 'weight.json'));
    const deadline = Date.now() + 2000;
    while ((await weightFile()).file !== undefined && Date.now() < deadline) await sleep(20);
    expect(await weightFile()).toEqual({});
    const sets: { summary: string }[] = (await s.api('/api/changes')).body.changeSets;
    expect(sets[0].summary).toBe('Deleted Weight');
  }

  it('back under a new name as it was: one entry, the file moved, and the card with its rows', async () => {
    await goneForAWhile();
    fs.writeFileSync(path.join(s.dataDir, 'body-weight.json'), manifestText('Weight'));
    expect(await movedTo('body-weight.json')).toEqual({ file: 'body-weight.json', label: 'Weight' });
    expect((await settledHistory()).map((c) => c.summary)).toEqual(['Moved the file of Weight']);
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);
    expect([...problems]).toEqual([]);
  });

  it('back under its own name, edited meanwhile: one entry, the edit', async () => {
    await goneForAWhile();
    fs.writeFileSync(path.join(s.dataDir, 'weight.json'), manifestText('Body weight'));
    expect(await movedTo('weight.json')).toEqual({ file: 'weight.json', label: 'Body weight' });
    const history = await settledHistory();
    expect(history.map((c) => c.summary)).toEqual(['Edited Body weight']);
    // undoing it puts the card back as it was before it went
    const undo = await s.api(`/api/changes/${history[0].id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await weightFile()).toEqual({ file: 'weight.json', label: 'Weight' });
    expect(s.inst.cards.store.state('weight').rowCount).toBe(30);
  });

  it('a file of another card that arrives meanwhile is a new card, as before', async () => {
    await goneForAWhile();
    fs.writeFileSync(path.join(s.dataDir, 'mood.json'), cardText('mood', 'Mood'));
    const deadline = Date.now() + 2000;
    let sets: { summary: string }[] = [];
    while (Date.now() < deadline) {
      sets = (await s.api('/api/changes')).body.changeSets;
      if (sets[0].summary === 'Created Mood') break;
      await sleep(20);
    }
    expect(sets.slice(0, 2).map((c) => c.summary)).toEqual(['Created Mood', 'Deleted Weight']);
  });
});
