/**
 * The data folder itself replaced while the server runs: renamed away and a new folder put in
 * its place (a restore from a backup, a sync tool, a `git checkout`), a symlinked data folder
 * pointed at another folder, or the very same folder moved away and brought back. A watch stays on the folder it was set on, so without care every
 * later hand edit would go unnoticed. Real server, real watcher, real folders; every "shows up"
 * is a poll with a deadline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const manifestText = (id: string, label: string) =>
  `${JSON.stringify(
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id,
        label,
        view: { enabled: true, component: 'list-card' },
        writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number' }] },
      },
    },
    null,
    2,
  )}\n`;
const rows = [
  { date: '2026-04-01', kg: 80.1 },
  { date: '2026-04-02', kg: 80.2 },
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until `ok` holds or `ms` passed; returns the last value (the caller asserts on it). */
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(50);
  }
}

let s: TestServer;
/**
 * Starts the server on a data folder holding weight (with rows) and mood; with `linked` the data
 * folder is a symlink to `data-a` beside it (as a sync tool or a dotfiles setup makes it).
 */
async function boot(linked: boolean): Promise<void> {
  s = await startServer({
    before: (home, dataDir) => {
      const dir = linked ? path.join(home, 'data-a') : dataDir;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'weight.json'), manifestText('weight', 'Weight'));
      fs.writeFileSync(path.join(dir, 'mood.json'), manifestText('mood', 'Mood'));
      if (linked) {
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.symlinkSync(dir, dataDir);
      }
    },
  });
  expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);
}
afterEach(async () => {
  await s.close();
});

const ids = async () =>
  ((await s.api('/api/manifests')).body.entries as { id: string }[]).map((e) => e.id).sort();
const label = async (id: string) =>
  (await s.api(`/api/manifests/${id}`)).body?.meta?.label as string | undefined;

describe('a replaced data folder', () => {
  it('a folder renamed away and a new one put in its place: its files are read and later edits seen', async () => {
    await boot(false);
    const realDir = s.dataDir;
    const moved = path.join(s.home, 'data.old');
    fs.renameSync(realDir, moved);
    fs.mkdirSync(realDir);
    fs.writeFileSync(path.join(realDir, 'weight.json'), manifestText('weight', 'Body weight'));
    fs.writeFileSync(path.join(realDir, 'sleep.json'), manifestText('sleep', 'Sleep'));

    // the new folder's files are the cards: mood (not in it) goes, sleep comes, weight changes
    expect(await until(ids, (v) => v.join() === 'sleep,weight')).toEqual(['sleep', 'weight']);
    expect(
      await until(
        () => label('weight'),
        (v) => v === 'Body weight',
      ),
    ).toBe('Body weight');
    // rows live in the database, not in the folder: the card keeps them
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(rows);

    // a hand edit in the new folder, and one in the old folder (which is no longer the data)
    fs.writeFileSync(path.join(realDir, 'weight.json'), manifestText('weight', 'Weight (kg)'));
    fs.writeFileSync(path.join(moved, 'mood.json'), manifestText('mood', 'Old mood'));
    expect(
      await until(
        () => label('weight'),
        (v) => v === 'Weight (kg)',
      ),
    ).toBe('Weight (kg)');
    expect(await ids()).toEqual(['sleep', 'weight']);

    // the server's own write lands in the new folder, over the hand edit it has seen
    const patched = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Weight' } },
    });
    expect(patched.status).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(realDir, 'weight.json'), 'utf8')).meta.label).toBe('Weight');
  });

  it('a symlinked data folder pointed at another folder is followed', async () => {
    await boot(true);
    const other = path.join(s.home, 'data-b');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'weight.json'), manifestText('weight', 'Weight B'));
    const link = `${s.dataDir}.new`;
    fs.symlinkSync(other, link);
    fs.renameSync(link, s.dataDir);

    expect(await until(ids, (v) => v.join() === 'weight')).toEqual(['weight']);
    expect(
      await until(
        () => label('weight'),
        (v) => v === 'Weight B',
      ),
    ).toBe('Weight B');
    fs.writeFileSync(path.join(other, 'steps.json'), manifestText('steps', 'Steps'));
    expect(await until(ids, (v) => v.join() === 'steps,weight')).toEqual(['steps', 'weight']);
  });

  it('the same folder moved away and straight back: later edits are still seen', async () => {
    await boot(false);
    const away = path.join(s.home, 'data.away');
    fs.renameSync(s.dataDir, away);
    await sleep(100);
    fs.renameSync(away, s.dataDir);
    fs.writeFileSync(path.join(s.dataDir, 'weight.json'), manifestText('weight', 'Body weight'));
    expect(
      await until(
        () => label('weight'),
        (v) => v === 'Body weight',
      ),
    ).toBe('Body weight');
    fs.writeFileSync(path.join(s.dataDir, 'steps.json'), manifestText('steps', 'Steps'));
    expect(await until(ids, (v) => v.join() === 'mood,steps,weight')).toEqual(['mood', 'steps', 'weight']);
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(rows);
  });

  it('the same folder away for a while (a backup tool, an unmounted volume): its cards come back with their rows', async () => {
    await boot(false);
    const away = path.join(s.home, 'data.away');
    fs.renameSync(s.dataDir, away);
    // while it is away its cards go (their files are gone), their rows are kept
    expect(await until(ids, (v) => v.length === 0)).toEqual([]);
    fs.renameSync(away, s.dataDir);
    expect(await until(ids, (v) => v.join() === 'mood,weight')).toEqual(['mood', 'weight']);
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(rows);
    // the same cards back: History says their files moved, not that they were deleted and created
    const summaries = ((await s.api('/api/changes')).body.changeSets as { actor: string; summary: string }[])
      .filter((c) => c.actor === 'file')
      .map((c) => c.summary)
      .sort();
    expect(summaries).toEqual(['Moved the file of Mood', 'Moved the file of Weight']);
    fs.writeFileSync(path.join(s.dataDir, 'mood.json'), manifestText('mood', 'Mood today'));
    expect(
      await until(
        () => label('mood'),
        (v) => v === 'Mood today',
      ),
    ).toBe('Mood today');
  });
});
