/**
 * Automatic snapshots on a real home: the daily one is taken when none is younger than a day,
 * its folder is a complete staged home (database with the rows, manifests, snapshot.json), and
 * retention keeps the newest of each of the last 7 days and 4 weeks (pre-import: the newest 3;
 * manual ones always).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import {
  dailyDue,
  listSnapshots,
  pruneSnapshots,
  type SnapshotInfo,
  snapshotsToPrune,
} from '../../src/data/backups.js';
import { SnapshotTimer } from '../../src/data/snapshot-timer.js';
import { startServer, type TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);
let s: TestServer;
const T = 'snap-token';

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W' },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
});
afterAll(async () => {
  await s.close();
});

describe('the daily snapshot', () => {
  it('is taken when due, holds the home, and is not taken twice in a day', async () => {
    const src = {
      db: s.inst.db,
      home: s.home,
      cards: () => s.inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
      reportsDir: s.inst.layout.reportsDir,
      metaDir: s.inst.layout.metaDir,
    };
    const logs: string[] = [];
    const timer = new SnapshotTimer(src, { daily: 7, weekly: 4 }, (m) => logs.push(m));
    const day1 = new Date('2026-04-20T03:00:00Z');
    expect(dailyDue(s.home, day1)).toBe(true);
    await timer.check(day1);
    await timer.check(new Date('2026-04-20T15:00:00Z'));
    const snaps = listSnapshots(s.home);
    expect(snaps.map((x) => x.kind)).toEqual(['daily']);
    expect(snaps[0]).toMatchObject({ cards: 2, rows: 2, takenAt: day1.toISOString() });
    const dir = path.join(s.home, 'backups', snaps[0].name);
    expect(fs.readdirSync(path.join(dir, 'cards')).sort()).toEqual(['w.json', 'welcome.json']);
    const db = new Database(path.join(dir, 'db.sqlite'), { readonly: true });
    expect(db.prepare("SELECT body FROM card_rows WHERE card_id = 'w'").pluck().all()).toEqual([
      '{"date":"2026-04-01","kg":80}',
    ]);
    db.close();
    expect(dailyDue(s.home, new Date('2026-04-21T03:00:00Z'))).toBe(true);
    expect(logs).toEqual(['daily snapshot taken']);
  });
});

describe('a snapshot’s database', () => {
  it('is one rollback-journal file: another user reads it read-only from a folder it cannot write', async () => {
    // a row still in the live database's write-ahead log when the snapshot is taken
    const made = await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'bp', label: 'BP' },
        data: [
          { date: '2026-04-01', sys: 120 },
          { date: '2026-04-02', sys: 118 },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    onTestFinished(async () => {
      await s.api('/api/manifests/bp', { token: T, method: 'DELETE' });
    });
    const r = await s.api('/api/backups', { token: T, method: 'POST' });
    expect(r.status).toBe(201);
    const dir = path.join(s.home, 'backups', r.body.snapshot.name);
    const file = path.join(dir, 'db.sqlite');
    // bytes 18 and 19 of the header: 1 is a rollback journal, 2 is WAL
    expect([...fs.readFileSync(file).subarray(18, 20)]).toEqual([1, 1]);
    expect(fs.readdirSync(dir).filter((n) => /-(wal|shm|journal)$/.test(n))).toEqual([]);

    // copied where the reader may read but not write (a mounted backup, another user's folder)
    const shelf = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-shelf-'));
    try {
      fs.copyFileSync(file, path.join(shelf, 'db.sqlite'));
      fs.chmodSync(path.join(shelf, 'db.sqlite'), 0o444);
      fs.chmodSync(shelf, 0o555);
      const query = "SELECT body FROM card_rows WHERE card_id = 'bp' ORDER BY body";
      const reader = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});
        const db=new D(${JSON.stringify(path.join(shelf, 'db.sqlite'))},{readonly:true,fileMustExist:true});
        process.stdout.write(JSON.stringify(db.prepare(${JSON.stringify(query)}).pluck().all()));`;
      // root may write anywhere: read as the unprivileged user nobody instead
      const argv =
        process.getuid?.() === 0
          ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', reader]
          : [process.execPath, '-e', reader];
      const out = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
      expect(out.stderr).toBe('');
      expect(JSON.parse(out.stdout)).toEqual([
        '{"date":"2026-04-01","sys":120}',
        '{"date":"2026-04-02","sys":118}',
      ]);
      expect(fs.readdirSync(shelf)).toEqual(['db.sqlite']);
    } finally {
      fs.chmodSync(shelf, 0o755);
      fs.rmSync(shelf, { recursive: true, force: true });
    }
  });
});

describe('npm run backups', () => {
  it('lists, takes and restores into a fresh home', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (x: string) => out.push(x), err: (x: string) => err.push(x) };
    expect(await backupsMain(['--home', s.home, '--take'], io)).toBe(0);
    const taken = JSON.parse(out.join('')).snapshot.name as string;
    out.length = 0;
    expect(await backupsMain(['--home', s.home], io)).toBe(0);
    const listed = JSON.parse(out.join('')).snapshots.map((x: SnapshotInfo) => x.name);
    expect(listed).toContain(taken);
    // the listing for people counts in words: one card is '1 card', not '1 cards'
    const line = err.find((l) => l.startsWith(taken)) ?? '';
    const { cards, rows } = JSON.parse(out.join('')).snapshots.find((x: SnapshotInfo) => x.name === taken);
    expect(line).toContain(`${cards} card${cards === 1 ? '' : 's'}, ${rows} row${rows === 1 ? '' : 's'},`);
    expect(line).not.toMatch(/\b1 (cards|rows)\b/);
    const target = path.join(s.home, '..', `${path.basename(s.home)}-restored`);
    try {
      expect(await backupsMain(['--home', s.home, '--restore', taken, '--target', target], io)).toBe(0);
      expect(
        fs
          .readdirSync(path.join(target, 'data'))
          .filter((n) => n.endsWith('.json'))
          .sort(),
      ).toEqual(['w.json', 'welcome.json']);
      const db = new Database(path.join(target, 'db', 'klebb.sqlite'), { readonly: true });
      expect(db.prepare("SELECT count(*) FROM card_rows WHERE card_id = 'w'").pluck().get()).toBe(1);
      db.close();
      // a populated home is refused
      expect(await backupsMain(['--home', s.home, '--restore', taken, '--target', s.home], io)).toBe(1);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('retention', () => {
  const snap = (kind: SnapshotInfo['kind'], takenAt: string): SnapshotInfo => ({
    name: `${kind}-${takenAt}`,
    kind,
    takenAt,
    cards: 1,
    rows: 1,
    bytes: 1,
  });

  it('keeps 7 daily and 4 weekly, the 3 newest pre-import and every manual one', () => {
    // one daily snapshot a day for 60 days (newest first), two on the newest day
    const all: SnapshotInfo[] = [snap('daily', '2026-04-30T20:00:00.000Z')];
    for (let i = 0; i < 60; i++)
      all.push(snap('daily', new Date(Date.UTC(2026, 3, 30 - i, 3)).toISOString()));
    for (let i = 0; i < 5; i++)
      all.push(snap('pre-import', new Date(Date.UTC(2026, 3, 29 - i, 12)).toISOString()));
    all.push(snap('manual', '2025-01-01T00:00:00.000Z'));
    all.sort((a, b) => (a.takenAt < b.takenAt ? 1 : -1));
    const gone = new Set(snapshotsToPrune(all, { daily: 7, weekly: 4 }));
    const kept = all.filter((x) => !gone.has(x.name));
    const dailies = kept.filter((x) => x.kind === 'daily').map((x) => x.takenAt.slice(0, 10));
    // 30 April (the newest of that day) back to 24 April; the 4 newest ISO weeks are 27 April,
    // 20 April (already kept), 13 April (its newest: the 19th) and 6 April (the 12th)
    expect(dailies).toEqual([
      '2026-04-30',
      '2026-04-29',
      '2026-04-28',
      '2026-04-27',
      '2026-04-26',
      '2026-04-25',
      '2026-04-24',
      '2026-04-19',
      '2026-04-12',
    ]);
    expect(kept.find((x) => x.kind === 'daily')?.takenAt).toBe('2026-04-30T20:00:00.000Z');
    expect(kept.filter((x) => x.kind === 'pre-import')).toHaveLength(3);
    expect(kept.filter((x) => x.kind === 'manual')).toHaveLength(1);
  });

  it('counts the person’s days: a Los Angeles evening and the next morning are two days', async () => {
    // three dailies on a real home; in Los Angeles (UTC−7 in April): 29 April 11:00, 29 April
    // 22:00, 30 April 13:00; in UTC the 22:00 one is already 30 April
    const home = s.home;
    const takes = ['2026-04-29T18:00:00.000Z', '2026-04-30T05:00:00.000Z', '2026-04-30T20:00:00.000Z'];
    const name = (t: string) =>
      `daily-${t.slice(0, 10).replaceAll('-', '')}-${t.slice(11, 19).replaceAll(':', '')}`;
    const root = path.join(home, 'backups');
    fs.rmSync(root, { recursive: true, force: true });
    for (const t of takes) {
      fs.mkdirSync(path.join(root, name(t)), { recursive: true });
      fs.writeFileSync(
        path.join(root, name(t), 'snapshot.json'),
        JSON.stringify({ kind: 'daily', takenAt: t, cards: 1, rows: 1, bytes: 1 }),
      );
    }
    expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
    expect(pruneSnapshots(home, { daily: 2, weekly: 0 }, s.inst.user.timeZone()).removed).toEqual([
      name(takes[0]),
    ]);
    expect(listSnapshots(home).map((x) => x.takenAt)).toEqual([takes[2], takes[1]]);
    // by UTC days the evening's snapshot would have gone instead
    const utc = snapshotsToPrune(
      [...takes]
        .reverse()
        .map((t) => ({ name: name(t), kind: 'daily' as const, takenAt: t, cards: 1, rows: 1, bytes: 1 })),
      { daily: 2, weekly: 0 },
      'UTC',
    );
    expect(utc).toEqual([name(takes[1])]);
    // the listing for people says one card and one row in the singular
    const err: string[] = [];
    expect(await backupsMain(['--home', home], { out: () => {}, err: (x: string) => err.push(x) })).toBe(0);
    expect(err.find((l) => l.startsWith(name(takes[2])))).toContain('1 card, 1 row,');
    fs.rmSync(root, { recursive: true, force: true });
  });
});
