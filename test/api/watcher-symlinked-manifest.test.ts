/**
 * A manifest kept outside the data folder and linked in (a dotfiles or synced folder): the
 * server's own writes (a rename in the web app, a reorder) go to the linked file and the
 * link stays a link. A rename over the link would turn it into a plain file, leave the linked
 * file stale and cut the card off from later edits made where the file really lives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until `ok` holds or `ms` passed; returns the last value (the caller asserts on it). */
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(50);
  }
}

let s: TestServer;
let link: string;
let real: string;
beforeEach(async () => {
  s = await startServer({
    before: (home, dataDir) => {
      const elsewhere = path.join(home, 'dotfiles');
      fs.mkdirSync(elsewhere, { recursive: true });
      fs.mkdirSync(dataDir, { recursive: true });
      real = path.join(elsewhere, 'weight.json');
      link = path.join(dataDir, 'weight.json');
      fs.writeFileSync(real, manifestText('weight', 'Weight'));
      fs.symlinkSync(real, link);
      fs.writeFileSync(path.join(dataDir, 'mood.json'), manifestText('mood', 'Mood'));
    },
  });
});
afterEach(async () => {
  await s.close();
});

const labelOnDisk = () => JSON.parse(fs.readFileSync(real, 'utf8')).meta.label as string;
const label = async () => (await s.api('/api/manifests/weight')).body?.meta?.label as string | undefined;

describe('a symlinked manifest', () => {
  it('PATCH and reorder write the linked file; the link stays; later edits there are seen', async () => {
    const patched = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Body weight' } },
    });
    expect(patched.status).toBe(200);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(labelOnDisk()).toBe('Body weight');

    const order = await s.api('/api/manifests/reorder', { json: { order: ['mood', 'weight'] } });
    expect(order.status).toBe(200);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8')).meta.order).toBe(200);

    // no temp or aside file was left beside the link or beside the linked file
    const dots = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith('.'));
    expect(dots(s.dataDir)).toEqual([]);
    expect(dots(path.dirname(real))).toEqual([]);

    // an edit where the file really lives is a hand edit of the card
    fs.writeFileSync(real, manifestText('weight', 'Weight (kg)'));
    expect(await until(label, (v) => v === 'Weight (kg)')).toBe('Weight (kg)');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  });
});
