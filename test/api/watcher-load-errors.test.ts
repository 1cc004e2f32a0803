/**
 * Hand edits that break a card: a file edited into invalid JSON keeps its last good card on
 * screen and is reported until it is fixed; two files with one `meta.id` load the first by file
 * name (at startup and whichever the watcher saw first) and report the other until the first goes.
 * Real server, real watcher, real files; every "shows up" is a poll with a 1 s deadline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { startServer, type TestServer } from '../helpers/server.js';

const manifest = (id: string, label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label } }, null, 2)}\n`;

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

interface Listed {
  labels: Record<string, string>;
  errors: { file: string; code: string; id?: string }[];
}

let s: TestServer;
let events: CardEvent[];

async function start(files: Record<string, string>): Promise<void> {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dataDir, name), text);
    },
  });
  events = [];
  s.inst.events.on('card', (e) => events.push(e));
}
afterEach(async () => {
  await s.close();
});

/** `GET /api/manifests` reduced to label by id and the errors' file, code and id. */
async function listed(): Promise<Listed> {
  const r = await s.api('/api/manifests');
  const labels: Record<string, string> = {};
  for (const e of r.body.entries) labels[e.id] = e.meta.label;
  const errors = r.body.errors.map((e: Listed['errors'][number]) => ({
    file: e.file,
    code: e.code,
    id: e.id,
  }));
  return { labels, errors };
}
const write = (name: string, text: string) => fs.writeFileSync(path.join(s.dataDir, name), text);

describe('a file edited into invalid JSON', () => {
  it('keeps the last good card served with an INVALID_JSON error; fixing the file clears it', async () => {
    const good = manifest('weight', 'Weight');
    await start({ 'weight.json': good });
    const broken = good.slice(0, good.length / 2); // a half-saved file

    write('weight.json', broken);
    const bad = await until(listed, (l) => l.errors.length > 0);
    expect(bad).toEqual({
      labels: { weight: 'Weight' },
      errors: [{ file: 'weight.json', code: 'INVALID_JSON', id: 'weight' }],
    });
    const served = await s.api('/api/manifests/weight');
    expect({ status: served.status, label: served.body.meta.label }).toEqual({
      status: 200,
      label: 'Weight',
    });

    // fixed back to exactly the last good bytes: the error still clears
    write('weight.json', good);
    expect(await until(listed, (l) => l.errors.length === 0)).toEqual({
      labels: { weight: 'Weight' },
      errors: [],
    });

    // broken again, then fixed with a new label
    write('weight.json', broken);
    expect((await until(listed, (l) => l.errors.length > 0)).errors).toEqual([
      { file: 'weight.json', code: 'INVALID_JSON', id: 'weight' },
    ]);
    write('weight.json', manifest('weight', 'Body weight'));
    const fixed = await until(listed, (l) => l.errors.length === 0 && l.labels.weight === 'Body weight');
    expect(fixed).toEqual({ labels: { weight: 'Body weight' }, errors: [] });
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
  });
});

describe('two files with the same meta.id', () => {
  const dupError = { file: 'b-weight.json', code: 'DUPLICATE_ID', id: 'weight' };

  it('at startup: the first by file name wins; deleting it loads the second', async () => {
    await start({ 'a-weight.json': manifest('weight', 'A'), 'b-weight.json': manifest('weight', 'B') });
    expect(await listed()).toEqual({ labels: { weight: 'A' }, errors: [dupError] });

    fs.rmSync(path.join(s.dataDir, 'a-weight.json'));
    const after = await until(listed, (l) => l.labels.weight === 'B');
    expect(after).toEqual({ labels: { weight: 'B' }, errors: [] });
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
  });

  it('added by hand in reverse order: the first by file name still wins', async () => {
    await start({ 'mood.json': manifest('mood', 'Mood') });
    write('b-weight.json', manifest('weight', 'B'));
    expect(await until(listed, (l) => l.labels.weight === 'B')).toEqual({
      labels: { mood: 'Mood', weight: 'B' },
      errors: [],
    });

    write('a-weight.json', manifest('weight', 'A'));
    const both = await until(listed, (l) => l.labels.weight === 'A' && l.errors.length > 0);
    expect(both).toEqual({ labels: { mood: 'Mood', weight: 'A' }, errors: [dupError] });

    fs.rmSync(path.join(s.dataDir, 'a-weight.json'));
    const after = await until(listed, (l) => l.labels.weight === 'B');
    expect(after).toEqual({ labels: { mood: 'Mood', weight: 'B' }, errors: [] });
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
  });
});
