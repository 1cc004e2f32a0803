/**
 * `npm run import -- FILE.zip --apply --target DIR` and `npm run backups -- --restore NAME
 * --target DIR` on a disk that is full: the command says so in words (DISK_FULL, no stack trace)
 * and leaves the target as it was (a folder it made is gone, an empty folder stays empty), so the
 * same command works once space is freed. Before, it printed SQLite's stack trace and left an
 * empty database file behind, and the next run failed on it with 'no such table: card_state'.
 * `npm run backups -- --take` and `npm run export` on a full disk say so in words too (before: a
 * stack trace, and the system's message naming a temporary file) and leave nothing behind.
 * Real server for the source home, real tmpfs for the full disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import { main as exportMain } from '../../scripts/export.js';
import { main as importMain } from '../../scripts/import.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type SmallDisk, smallDisk } from '../helpers/small-disk.js';

/** Whether a tmpfs can be mounted here (the tests run as root in CI). */
const canMount = (() => {
  const probe = smallDisk(1, 'klebb-probe-');
  probe.remove();
  return probe.mounted;
})();

let s: TestServer;
let disk: SmallDisk;
let scratch: string;

beforeAll(async () => {
  s = await startServer({});
  disk = smallDisk(2, 'klebb-full-target-');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-full-target-src-'));
});
afterAll(async () => {
  await s.close();
  disk.remove();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    text: () => out.join('') + err.join(''),
    io: { out: (x: string) => out.push(x), err: (x: string) => err.push(x) },
  };
}

it.runIf(canMount)(
  'an import or a restore into a full disk says DISK_FULL, leaves the target as it was, and works once there is room',
  async () => {
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
      data: [{ date: '2026-04-20', kg: 72.4 }],
    };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    const zip = path.join(scratch, 'home.zip');
    expect(await exportMain(['--home', s.home, '--out', zip], capture().io)).toBe(0);
    const snap = await s.api('/api/backups', { method: 'POST' });
    expect(snap.status).toBe(201);
    const name = snap.body.snapshot.name as string;

    const made = path.join(disk.dir, 'klebb2'); // does not exist: the command would make it
    const empty = path.join(disk.dir, 'empty'); // an empty folder made by hand
    fs.mkdirSync(empty);
    disk.fill();

    for (const target of [made, empty]) {
      const c = capture();
      expect(await importMain([zip, '--apply', '--target', target], c.io)).toBe(1);
      expect(c.text()).toContain('DISK_FULL');
      expect(c.text()).not.toMatch(/SqliteError|\n\s+at /);
    }
    const r = capture();
    expect(await backupsMain(['--home', s.home, '--restore', name, '--target', made], r.io)).toBe(1);
    expect(r.text()).toContain('DISK_FULL');
    expect(r.text()).not.toMatch(/SqliteError|\n\s+at /);
    expect(fs.existsSync(made)).toBe(false);
    expect(fs.readdirSync(empty)).toEqual([]);

    disk.free();
    expect(await importMain([zip, '--apply', '--target', made], capture().io)).toBe(0);
    expect(await backupsMain(['--home', s.home, '--restore', name, '--target', empty], capture().io)).toBe(0);
    for (const home of [made, empty]) {
      expect(JSON.parse(fs.readFileSync(path.join(home, 'data', 'weight.json'), 'utf8')).meta.label).toBe(
        'Weight',
      );
    }
  },
);

it.runIf(canMount)(
  'backups --take and export on a full disk say so in words and leave nothing behind',
  async () => {
    const zip = path.join(scratch, 'second.zip');
    expect(await exportMain(['--home', s.home, '--out', zip], capture().io)).toBe(0);
    const home = path.join(disk.dir, 'klebb3'); // a home on the small disk
    expect(await importMain([zip, '--apply', '--target', home], capture().io)).toBe(0);
    disk.fill();
    try {
      const take = capture();
      expect(await backupsMain(['--home', home, '--take'], take.io)).toBe(1);
      // SQLite may already fail to grow its shared-memory file there (an I/O error it names)
      expect(take.text()).toMatch(/^refused \((DISK_FULL|NOT_SAVED)\): the disk (is full|refused the write)/);
      expect(take.text()).not.toMatch(/ENOSPC|\n\s+at /);
      const backups = path.join(home, 'backups');
      expect(fs.existsSync(backups) ? fs.readdirSync(backups) : []).toEqual([]);

      const out = path.join(disk.dir, 'export.zip');
      const exported = capture();
      expect(await exportMain(['--home', s.home, '--out', out], exported.io)).toBe(1);
      expect(exported.text()).toContain('export failed: DISK_FULL: the disk is full');
      expect(exported.text()).not.toMatch(/ENOSPC|\.part/);
      expect(fs.readdirSync(disk.dir).filter((n) => n.startsWith('export'))).toEqual([]);
    } finally {
      disk.free();
    }
  },
);
