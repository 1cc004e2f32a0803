/**
 * The server's own manifest writes must not make the watcher reload in a loop (they are
 * recognised by content, not by a time window), so a hand edit landing just after an own write
 * still wins; and an own write right after a hand edit the watcher has not delivered yet must not
 * clobber it. Real server, real watcher, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { WATCH_DEBOUNCE_MS } from '../../src/cards/card-watcher.js';
import { WATCH_SETTLE_MS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const manifest = (id: string, label: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label, emoji: '⚖️', ...extra } }, null, 2)}\n`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for any watcher timer started by a write so far to have fired. */
const WATCHER_QUIET_MS = WATCH_SETTLE_MS + WATCH_DEBOUNCE_MS + 200;

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
let events: CardEvent[];
const fileOf = (id: string) => path.join(s.dataDir, `${id}.json`);
/** mtime (ns) and bytes of a manifest file. */
const snap = (id: string) => ({
  mtime: fs.statSync(fileOf(id), { bigint: true }).mtimeNs,
  text: fs.readFileSync(fileOf(id), 'utf8'),
});
const labelOf = async (id: string) =>
  (await s.api(`/api/manifests/${id}`)).body?.meta?.label as string | undefined;

beforeEach(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), manifest('weight', 'Weight'));
      fs.writeFileSync(path.join(dataDir, 'mood.json'), manifest('mood', 'Mood'));
    },
  });
  events = [];
  s.inst.events.on('card', (e) => events.push(e));
});
afterEach(async () => {
  await s.close();
});

describe('own writes', () => {
  it('one PATCH changes the mtime once and brings one card-changed; nothing follows for 2 s', async () => {
    const before = snap('weight');
    const r = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Weight A' } },
    });
    expect(r.body).toEqual({ ok: true, id: 'weight', changed: true, etag: expect.any(String) });
    const written = snap('weight');
    expect(written.mtime).not.toBe(before.mtime);
    expect(JSON.parse(written.text).meta.label).toBe('Weight A');

    const samples: bigint[] = [];
    for (let i = 0; i < 20; i++) {
      await sleep(100);
      samples.push(snap('weight').mtime);
    }
    expect(samples.filter((m) => m !== written.mtime)).toEqual([]);
    expect(snap('weight').text).toBe(written.text);
    expect(events).toEqual([{ type: 'card-changed', id: 'weight' }]);
    expect(await labelOf('weight')).toBe('Weight A');
  });

  it('the same reorder posted twice: the second leaves every manifest file untouched', async () => {
    const first = await s.api('/api/manifests/reorder', { json: { order: ['weight', 'mood'] } });
    expect(first.status).toBe(200);
    expect(first.body.updated.sort()).toEqual(['mood', 'weight']);
    const after1 = { weight: snap('weight'), mood: snap('mood') };

    const second = await s.api('/api/manifests/reorder', { json: { order: ['weight', 'mood'] } });
    expect(second.body).toEqual({ ok: true, updated: [], etag: first.body.etag });
    // watch for 1 s that neither the second request nor the watcher (reacting to the first) writes
    for (let i = 0; i < 10; i++) {
      await sleep(100);
      expect({ weight: snap('weight'), mood: snap('mood') }).toEqual(after1);
    }
    expect(events.filter((e) => e.type === 'card-changed')).toHaveLength(2);
    const ids = (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    expect(ids).toEqual(['weight', 'mood']);
  });

  it('a hand edit 50 ms after an own PATCH wins: the label ends as "Weight C"', async () => {
    const r = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Weight B' } },
    });
    expect(r.status).toBe(200);
    await sleep(50);
    const edited = JSON.parse(fs.readFileSync(fileOf('weight'), 'utf8'));
    edited.meta.label = 'Weight C';
    const tmp = path.join(s.dataDir, '.t');
    fs.writeFileSync(tmp, `${JSON.stringify(edited, null, 2)}\n`);
    fs.renameSync(tmp, fileOf('weight'));

    expect(
      await until(
        () => labelOf('weight'),
        (l) => l === 'Weight C',
      ),
    ).toBe('Weight C');
    await sleep(WATCHER_QUIET_MS);
    expect(await labelOf('weight')).toBe('Weight C');
    expect(JSON.parse(fs.readFileSync(fileOf('weight'), 'utf8')).meta.label).toBe('Weight C');
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
  });

  it('a PATCH right after a hand edit the watcher has not delivered keeps the hand edit', async () => {
    // in place (truncate and write), then at once an own write of another field
    fs.writeFileSync(fileOf('weight'), manifest('weight', 'Weight', { emoji: '🏋️' }));
    const r = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Body weight' } },
    });
    expect(r.status).toBe(200);
    const expectBoth = async () => {
      const got = (await s.api('/api/manifests/weight')).body.meta;
      expect({ label: got.label, emoji: got.emoji }).toEqual({ label: 'Body weight', emoji: '🏋️' });
      const disk = JSON.parse(fs.readFileSync(fileOf('weight'), 'utf8')).meta;
      expect({ label: disk.label, emoji: disk.emoji }).toEqual({ label: 'Body weight', emoji: '🏋️' });
    };
    await expectBoth();
    // and once the watcher has delivered both writes, nothing changes back
    await sleep(WATCHER_QUIET_MS);
    await expectBoth();
  });
});
