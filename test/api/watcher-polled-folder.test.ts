/**
 * A data folder whose changes send no notice to this machine: a network share or a host's shared
 * folder edited from the other side. Here it is an overlay mount whose lower folder is edited
 * directly (the kernel sends no notice for that through the mount, as a file server sends none
 * for an edit made on another machine). With HEALTH_WATCH_POLL on, the server looks at the files
 * itself and the edits show up; the automatic choice by file system is unit-tested in
 * src/cards/watch-mode.test.ts. Real server, real mount.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (id: string, label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label, writeable: { fromWebapp: true } } }, null, 2)}\n`;

/** A merged overlay folder over `lower` (edited "elsewhere"); undefined where mounting is not permitted. */
function overlay(): { root: string; lower: string; merged: string; remove(): void } | undefined {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-overlay-'));
  const [lower, upper, work, merged] = ['lower', 'upper', 'work', 'merged'].map((n) => {
    fs.mkdirSync(path.join(root, n));
    return path.join(root, n);
  });
  try {
    execFileSync(
      'mount',
      ['-t', 'overlay', 'overlay', '-o', `lowerdir=${lower},upperdir=${upper},workdir=${work}`, merged],
      {
        stdio: 'ignore',
      },
    );
  } catch {
    fs.rmSync(root, { recursive: true, force: true });
    return undefined;
  }
  return {
    root,
    lower,
    merged,
    remove() {
      try {
        execFileSync('umount', ['-l', merged], { stdio: 'ignore' });
      } catch {
        // already gone
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

const canMount = (() => {
  const o = overlay();
  o?.remove();
  return o !== undefined;
})();

let s: TestServer | undefined;
let folder: ReturnType<typeof overlay>;
afterEach(async () => {
  await s?.close();
  folder?.remove();
  s = undefined;
  folder = undefined;
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await sleep(50);
  }
}

it.runIf(canMount)('HEALTH_WATCH_POLL on: edits made where no notice comes show up, rows kept', async () => {
  folder = overlay();
  if (!folder) throw new Error('overlay mount failed');
  const { lower, merged } = folder;
  fs.writeFileSync(path.join(lower, 'weight.json'), text('weight', 'Weight'));
  s = await startServer({ env: { HEALTH_DATA_DIR: merged, HEALTH_WATCH_POLL: 'on' } });
  const rows = [{ date: '2026-04-01', kg: 80 }];
  // rows live in the database, outside the shared folder
  expect((await s.api('/api/manifests/weight/data', { json: { data: rows } })).status).toBe(200);

  const server = s;
  const cards = async () =>
    ((await server.api('/api/manifests')).body.entries as { id: string; meta: { label: string } }[])
      .map((e) => `${e.id} ${e.meta.label}`)
      .sort();
  // an edit made "on the other machine", and a card file added there
  await sleep(50);
  fs.writeFileSync(path.join(lower, 'weight.json'), text('weight', 'Body weight'));
  fs.writeFileSync(path.join(lower, 'mood.json'), text('mood', 'Mood'));
  expect(await until(cards, (v) => v.join() === 'mood Mood,weight Body weight')).toEqual([
    'mood Mood',
    'weight Body weight',
  ]);
  expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(rows);
  // (a file removed from the lower folder may still be seen through the mount, which caches
  // what it has looked up: this stand-in cannot show a removal made elsewhere)
});
