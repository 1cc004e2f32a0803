/**
 * The welcome card hides itself when the first card arrives as a file, as it does for
 * `POST /api/manifests`: a file dropped into data/ while the server runs, or found at start-up
 * beside a welcome card that is still on. Once only (not after the person switched it back on),
 * never for the welcome file itself, never for a file that fails to load.
 * Real server, real watcher, real files; every "shows up" is a poll with a deadline.
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
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(20);
  }
}

let s: TestServer | undefined;
let events: CardEvent[];

async function start(opts: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  s = await startServer(opts);
  events = [];
  s.inst.events.on('card', (e) => events.push(e));
  return s;
}
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** The ids of the loaded cards and the files that failed to load. */
async function listed(srv: TestServer): Promise<{ ids: string[]; errors: string[] }> {
  const r = await srv.api('/api/manifests');
  return {
    ids: r.body.entries.map((e: { id: string }) => e.id).sort(),
    errors: r.body.errors.map((e: { file: string }) => e.file),
  };
}

/** The welcome card's `meta.enabled` and `meta.welcome` as the API serves them. */
async function welcome(srv: TestServer): Promise<{ enabled: unknown; welcome: unknown }> {
  const meta = (await srv.api('/api/manifests/welcome')).body.meta;
  return { enabled: meta.enabled, welcome: meta.welcome };
}

/** The welcome card's switches once it reads as switched off (or after 2 s, as they are then). */
const untilHidden = (srv: TestServer) =>
  until(
    () => welcome(srv),
    (w) => w.enabled === false,
  );

const write = (srv: TestServer, name: string, text: string) =>
  fs.writeFileSync(path.join(srv.dataDir, name), text);

const HIDDEN = { enabled: false, welcome: { autoHideApplied: true } };

describe('the welcome card and cards that arrive as files', { timeout: 30_000 }, () => {
  it('a first card dropped into data/ hides the welcome card once, and open pages hear of it', async () => {
    const srv = await start();
    expect(await welcome(srv)).toEqual({ enabled: undefined, welcome: undefined });

    write(srv, 'weight.json', manifest('weight', 'Weight'));
    expect(await untilHidden(srv)).toEqual(HIDDEN);
    expect(events).toContainEqual({ type: 'card-changed', id: 'welcome' });
    const settings = (await srv.api('/api/settings/cards')).body.cards;
    expect(settings.find((c: { id: string }) => c.id === 'welcome').enabled).toBe(false);
    // the file on disk says so too (it survives a restart)
    const onDisk = JSON.parse(fs.readFileSync(path.join(srv.dataDir, 'welcome.json'), 'utf8'));
    expect(onDisk.meta).toMatchObject(HIDDEN);
    // and the API's answer for a later card agrees: it has been done already
    const next = await srv.api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'mood', label: 'Mood' } },
    });
    expect(next.body.welcomeAutoHidden).toBe(false);
  });

  it('after the person switched it back on, a later dropped card leaves it on', async () => {
    const srv = await start();
    write(srv, 'weight.json', manifest('weight', 'Weight'));
    expect(await untilHidden(srv)).toEqual(HIDDEN);

    expect((await srv.api('/api/settings/cards/welcome/enable', { method: 'POST' })).status).toBe(200);
    write(srv, 'mood.json', manifest('mood', 'Mood'));
    const l = await until(
      () => listed(srv),
      (v) => v.ids.includes('mood'),
    );
    expect(l.ids).toEqual(['mood', 'weight', 'welcome']);
    expect((await welcome(srv)).enabled).not.toBe(false);
  });

  it('a file that fails to load does not hide it; the same file fixed does', async () => {
    const srv = await start();
    write(srv, 'broken.json', '{"$schema": "klebb.datafile.v1", "meta": {"id": "broken", "lab');
    // a file without meta.label loads (titled after its id); one without an id does not
    write(srv, 'noid.json', JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { label: 'No id' } }));
    const l = await until(
      () => listed(srv),
      (v) => v.errors.length === 2,
    );
    expect({ ids: l.ids, errors: l.errors.sort() }).toEqual({
      ids: ['welcome'],
      errors: ['broken.json', 'noid.json'],
    });
    expect(await welcome(srv)).toEqual({ enabled: undefined, welcome: undefined });
    expect(events).not.toContainEqual({ type: 'card-changed', id: 'welcome' });

    write(srv, 'broken.json', manifest('broken', 'Broken no more'));
    expect(await untilHidden(srv)).toEqual(HIDDEN);
  });

  it('a welcome file dropped in does not hide itself', async () => {
    // a home that is not new (it has a card), so no welcome card is made at start
    const srv = await start({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'weight.json'), manifest('weight', 'Weight'));
      },
    });
    write(srv, 'welcome.json', manifest('welcome', 'Welcome'));
    const l = await until(
      () => listed(srv),
      (v) => v.ids.includes('welcome'),
    );
    expect(l.ids).toEqual(['weight', 'welcome']);
    expect(await welcome(srv)).toEqual({ enabled: undefined, welcome: undefined });
  });

  it('a card dropped in while the server was stopped hides it at the next start', async () => {
    const first = await start();
    const home = first.home;
    await first.close({ keepHome: true });
    s = undefined;
    fs.writeFileSync(path.join(home, 'data', 'weight.json'), manifest('weight', 'Weight'));
    try {
      const srv = await start({ home });
      expect((await listed(srv)).ids).toEqual(['weight', 'welcome']);
      expect(await welcome(srv)).toEqual(HIDDEN);
      // switched back on, it stays on across a restart
      await srv.api('/api/settings/cards/welcome/enable', { method: 'POST' });
      await srv.close({ keepHome: true });
      s = undefined;
      const again = await start({ home });
      expect((await welcome(again)).enabled).not.toBe(false);
    } finally {
      // start() keeps the server it opens in `s`, which the control flow above cannot see
      await (s as TestServer | undefined)?.close({ keepHome: true });
      s = undefined;
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
  it('files a new home starts with (welcome among them) are its starting set: nothing hides, now or after a restart', async () => {
    const first = await start({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        // both carry data, as the shipped examples do: imported, so the database knows both
        const withData = (id: string, label: string, data: unknown) =>
          JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label }, data });
        fs.writeFileSync(
          path.join(dataDir, 'welcome.json'),
          withData('welcome', 'Welcome', { markdown: 'Hi' }),
        );
        fs.writeFileSync(
          path.join(dataDir, 'weight.json'),
          withData('weight', 'Weight', [{ date: '2026-11-01', kg: 80 }]),
        );
      },
    });
    const home = first.home;
    try {
      expect(await welcome(first)).toEqual({ enabled: undefined, welcome: undefined });
      await first.close({ keepHome: true });
      s = undefined;
      const again = await start({ home });
      expect((await listed(again)).ids).toEqual(['weight', 'welcome']);
      expect(await welcome(again)).toEqual({ enabled: undefined, welcome: undefined });
    } finally {
      await s?.close({ keepHome: true });
      s = undefined;
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
