/**
 * A snapshot whose files were damaged after it was taken (a disk fault, a copy cut short, a file
 * overwritten by hand): the backups list says so, a restore or roll back from it is refused with
 * 422 SNAPSHOT_DAMAGED naming what is wrong and nothing changes, and damage found only while
 * applying ends the job as IMPORT_FAILED with a sentence for people, never SQLite's own code.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import { dailyDue } from '../../src/data/backups.js';
import { importJobEnd, serverWithSnapshot } from '../helpers/import-job.js';
import type { TestServer } from '../helpers/server.js';

const T = 'damaged-snapshot-token';
let s: TestServer;
let snapshot: string;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const dbOf = (name: string) => path.join(s.home, 'backups', name, 'db.sqlite');
const ids = async () =>
  (await api('/api/manifests')).body.entries.map((e: { id: string }) => e.id).sort() as string[];

beforeEach(async () => {
  ({ s, snapshot } = await serverWithSnapshot(T));
});
afterEach(async () => {
  await s.close();
});

/** Ways a snapshot's files get damaged, and what the list and the refusal say. */
const damages: { what: string; damage: (dir: string) => void; says: RegExp }[] = [
  {
    what: 'a database file overwritten with other bytes',
    damage: (dir) => fs.writeFileSync(path.join(dir, 'db.sqlite'), Buffer.alloc(8192, 0x41)),
    says: /not a SQLite database/,
  },
  {
    what: 'a database file cut short',
    damage: (dir) => {
      const f = path.join(dir, 'db.sqlite');
      fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2));
    },
    says: /cut short/,
  },
  {
    what: 'an empty database file',
    damage: (dir) => fs.writeFileSync(path.join(dir, 'db.sqlite'), ''),
    says: /empty|not a SQLite database/,
  },
  {
    what: 'a missing database file',
    damage: (dir) => fs.rmSync(path.join(dir, 'db.sqlite')),
    says: /missing/,
  },
  {
    what: 'a missing cards folder',
    damage: (dir) => fs.rmSync(path.join(dir, 'cards'), { recursive: true }),
    says: /cards/,
  },
  {
    what: 'an unreadable snapshot.json',
    damage: (dir) => fs.writeFileSync(path.join(dir, 'snapshot.json'), '{"kind": "man'),
    says: /snapshot\.json/,
  },
  {
    what: 'a snapshot.json holding a list',
    damage: (dir) => fs.writeFileSync(path.join(dir, 'snapshot.json'), '[]'),
    says: /snapshot\.json/,
  },
  {
    what: 'a snapshot.json whose fields are of the wrong kind',
    damage: (dir) =>
      fs.writeFileSync(
        path.join(dir, 'snapshot.json'),
        '{"kind": 5, "takenAt": "yesterday", "cards": "x", "rows": -3, "bytes": 1e400}',
      ),
    says: /snapshot\.json/,
  },
  {
    what: 'a snapshot.json with a time that is no instant',
    damage: (dir) => {
      const f = path.join(dir, 'snapshot.json');
      fs.writeFileSync(
        f,
        JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), takenAt: 'yesterday' }),
      );
    },
    says: /snapshot\.json/,
  },
];

describe('a damaged snapshot', () => {
  for (const d of damages) {
    it(`${d.what}: listed as damaged, its restore refused with 422 and nothing changed`, async () => {
      d.damage(path.join(s.home, 'backups', snapshot));
      const list = await api('/api/backups');
      expect(list.status).toBe(200);
      const entry = list.body.snapshots.find((x: { name: string }) => x.name === snapshot);
      expect(entry, 'the damaged snapshot is still listed').toBeDefined();
      expect(entry.damaged).toMatch(d.says);
      expect(entry.kind).toBe('manual');
      // what the list says of it is what its folder name says, with numbers as numbers
      expect(entry.takenAt.slice(0, 10).replace(/-/g, '')).toBe(snapshot.split('-')[1]);
      for (const k of ['cards', 'rows', 'bytes']) expect(Number.isSafeInteger(entry[k]), k).toBe(true);

      await api('/api/manifests/w', { method: 'DELETE' });
      const r = await api(`/api/backups/${snapshot}/restore`, { json: { confirm: 'REPLACE' } });
      expect(r.status, r.text).toBe(422);
      expect(r.body.code).toBe('SNAPSHOT_DAMAGED');
      expect(r.body.error).toContain(snapshot);
      expect(r.body.error).toMatch(d.says);
      expect(r.text).not.toMatch(/SQLITE_/);
      // no job was started and the home is as it was
      expect((await api('/api/import/status')).body.state).toBe('idle');
      expect(await ids()).toEqual(['welcome']);
      // a sound snapshot next to it is not flagged
      const other = await api('/api/backups', { method: 'POST' });
      const listed = (await api('/api/backups')).body.snapshots.find(
        (x: { name: string }) => x.name === other.body.snapshot.name,
      );
      expect(listed.damaged).toBeUndefined();
    });
  }

  it('a daily snapshot whose snapshot.json gives no real time does not stop the daily snapshots', async () => {
    // taken two days ago, by its name; the time in its snapshot.json reads as no instant
    const stamp = new Date(Date.now() - 2 * 86_400_000).toISOString().replace(/[-:]/g, '').replace('T', '-');
    const daily = `daily-${stamp.slice(0, 15)}`;
    const dir = path.join(s.home, 'backups', daily);
    fs.cpSync(path.join(s.home, 'backups', snapshot), dir, { recursive: true });
    const f = path.join(dir, 'snapshot.json');
    fs.writeFileSync(
      f,
      JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), kind: 'daily', takenAt: 'zzz' }),
    );
    expect(dailyDue(s.home)).toBe(true);
    const names = (await api('/api/backups')).body.snapshots.map((x: { name: string }) => x.name);
    expect(names).toEqual([snapshot, daily]);
  });

  it('a roll back to a damaged pre-import snapshot is refused with 422', async () => {
    const go = await api(`/api/backups/${snapshot}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status, go.text).toBe(202);
    const done = await importJobEnd(s, T);
    expect(done.state).toBe('done');
    fs.writeFileSync(dbOf(done.snapshot), 'not a database at all');
    const r = await api('/api/import/rollback', { method: 'POST' });
    expect(r.status, r.text).toBe(422);
    expect(r.body.code).toBe('SNAPSHOT_DAMAGED');
    expect(await ids()).toEqual(['w', 'welcome']);
  });

  it('damage found only while applying fails the job with IMPORT_FAILED and a sentence, nothing changed', async () => {
    // the header and the table list are intact, the page holding the card rows is not
    const file = dbOf(snapshot);
    const db = new Database(file, { readonly: true });
    const root = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'card_rows'")
      .pluck()
      .get() as number;
    db.close();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    bytes.fill(0xff, (root - 1) * pageSize, root * pageSize);
    fs.writeFileSync(file, bytes);
    await api('/api/manifests/w', { method: 'DELETE' });
    const go = await api(`/api/backups/${snapshot}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status, go.text).toBe(202);
    const done = await importJobEnd(s, T);
    expect(done.state).toBe('failed');
    expect(done.error.code).toBe('IMPORT_FAILED');
    expect(done.error.message).toMatch(/^the restore stopped: the snapshot's database is damaged/);
    expect(done.error.message).toMatch(/nothing was changed$/);
    expect(done.error.message).not.toMatch(/SQLITE_/);
    expect(await ids()).toEqual(['welcome']);
  });

  it('npm run backups marks it and refuses to restore it with the reason', async () => {
    fs.writeFileSync(dbOf(snapshot), Buffer.alloc(4096, 0x42));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (x: string) => out.push(x), err: (x: string) => err.push(x) };
    expect(await backupsMain(['--home', s.home], io)).toBe(0);
    expect(JSON.parse(out.join('')).snapshots[0].damaged).toMatch(/not a SQLite database/);
    expect(err.join('')).toMatch(/damaged/);
    const target = path.join(s.home, '..', `${path.basename(s.home)}-restored`);
    err.length = 0;
    try {
      expect(await backupsMain(['--home', s.home, '--restore', snapshot, '--target', target], io)).toBe(1);
      expect(err.join('')).toMatch(/refused \(SNAPSHOT_DAMAGED\)/);
      expect(err.join('')).not.toMatch(/SQLITE_|at .*\.ts/);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});
