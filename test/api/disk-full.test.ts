/**
 * A full disk: every write that does not fit is 507 DISK_FULL ("the disk is full") and leaves the
 * old state whole (no card without its rows, no rows without a card, a delete either done or not
 * at all); reads keep answering 200 even when they carry bookkeeping (a session's last-seen
 * time); once space is back, writes go through again. And a shutdown on a full disk exits 0 with
 * a log line saying what stayed in the WAL, not with an uncaught exception.
 *
 * The home lives on a small tmpfs filled to the last byte. Where mounting is not permitted, the
 * same faults are injected in-process: ENOSPC from the file writes and SQLITE_FULL from SQLite
 * (its page count capped at the current size).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, codeOf, register } from '../auth/flows.js';
import { SoftAuthenticator } from '../auth/soft-authenticator.js';
import { killAllChildren, spawnServer, writeableCard } from '../helpers/child-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type SmallDisk, smallDisk } from '../helpers/small-disk.js';

const T = 'disk-token';
const clock = { now: Date.parse('2026-04-01T08:00:00Z') };
let disk: SmallDisk;
let s: TestServer;
let cookie: string;

/** Fills the disk (or, without a tmpfs, makes file writes fail with ENOSPC and caps SQLite's size). */
function fillDisk(): () => void {
  if (disk.mounted) {
    disk.fill();
    return () => disk.free();
  }
  const saved = { writeSync: fs.writeSync, writeFileSync: fs.writeFileSync };
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  fs.writeSync = (() => {
    throw enospc();
  }) as typeof fs.writeSync;
  fs.writeFileSync = (() => {
    throw enospc();
  }) as typeof fs.writeFileSync;
  const pages = s.inst.db.pragma('page_count', { simple: true }) as number;
  s.inst.db.pragma(`max_page_count = ${pages}`);
  return () => {
    Object.assign(fs, saved);
    s.inst.db.pragma('max_page_count = 4294967294');
  };
}

const agent = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

beforeAll(async () => {
  disk = smallDisk(24);
  if (!disk.mounted)
    console.log('[disk-full] tmpfs not permitted here: injecting ENOSPC/SQLITE_FULL in-process');
  s = await startServer({ home: disk.dir, env: { AGENT_API_TOKEN: T }, auth: { now: () => clock.now } });
  const reg = await register(s, new SoftAuthenticator(s.url), {
    code: codeOf(s.inst.auth.setupLink() as string),
  });
  cookie = reg.cookie as string;
  expect((await agent('/api/manifests', { json: writeableCard('weight') })).status).toBe(201);
  for (let i = 0; i < 20; i++) await agent('/api/manifests/weight/rows', { json: { value: { seq: i } } });
});
afterAll(async () => {
  await s?.close({ keepHome: true });
  await killAllChildren();
  disk?.remove();
});

const seqs = async () =>
  ((await agent('/api/manifests/weight/data')).body.data as { seq: number }[]).map((r) => r.seq);

describe('a full disk', () => {
  it('writes are 507 DISK_FULL and change nothing; reads (with bookkeeping) still answer', {
    timeout: 60_000,
  }, async () => {
    const release = fillDisk();
    try {
      // a new card needs a new file: it cannot fit
      const create = await agent('/api/manifests', { json: writeableCard('new-card') });
      expect(create.status, create.text).toBe(507);
      expect(create.body).toMatchObject({ code: 'DISK_FULL' });
      expect(create.body.error).toContain('the disk is full');
      expect((await agent('/api/manifests/new-card')).status).toBe(404);
      expect(fs.existsSync(path.join(s.dataDir, 'new-card.json'))).toBe(false);

      // appends fit while SQLite has room in its files; the first that does not is 507
      const acked: number[] = [];
      let refused: { status: number; text: string } | undefined;
      for (let seq = 100; seq < 20_100 && !refused; seq++) {
        const r = await agent('/api/manifests/weight/rows', {
          json: { value: { seq, pad: 'x'.repeat(2000) } },
        });
        if (r.status === 201) acked.push(seq);
        else refused = { status: r.status, text: r.text };
      }
      expect(refused?.status, refused?.text).toBe(507);

      // the session's last-seen time is due to be written: the read must not fail for it
      clock.now += 2 * 3600_000;
      const read = await s.api('/api/manifests', { headers: browser(s.url, cookie) });
      expect(read.status, read.text).toBe(200);

      const patch = await agent('/api/manifests/weight', {
        method: 'PATCH',
        json: { meta: { label: 'W'.repeat(50) } },
      });
      expect([200, 507]).toContain(patch.status);

      const del = await agent('/api/manifests/weight', { method: 'DELETE' });
      expect([200, 507]).toContain(del.status);
      const after = await agent('/api/manifests/weight/data');
      if (del.status === 507) {
        expect(after.status).toBe(200);
        expect(fs.existsSync(path.join(s.dataDir, 'weight.json'))).toBe(true);
        const got = await seqs();
        for (const seq of acked) expect(got).toContain(seq);
      } else {
        expect(after.status).toBe(404);
      }
    } finally {
      release();
    }
    // space is back: writes go through
    const again = await agent('/api/manifests', { json: writeableCard('after-full') });
    expect(again.status, again.text).toBe(201);
    const db = new Database(path.join(disk.dir, 'db/klebb.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('a shutdown on a full disk exits 0 and logs what stayed in the WAL', {
    timeout: 60_000,
  }, async (ctx) => {
    if (!disk.mounted) ctx.skip();
    await s.close({ keepHome: true });
    const child = await spawnServer({ home: disk.dir, token: T, env: { KLEBB_LOG_LEVEL: 'info' } });
    for (let i = 0; i < 50; i++)
      await child.api('/api/manifests/after-full/rows', { json: { value: { seq: i } } });
    disk.fill();
    try {
      const exit = await child.stop();
      expect(exit, child.output()).toEqual({ code: 0, signal: null, forced: false });
      expect(child.output()).not.toContain('Uncaught');
      expect(child.output()).not.toContain('failed to start');
      // the checkpoint either finished or the log says what stayed in the WAL
      const wal = path.join(disk.dir, 'db/klebb.sqlite-wal');
      const walLeft = fs.existsSync(wal) && fs.statSync(wal).size > 0;
      console.log(`[disk-full] shutdown on a full disk: WAL left ${walLeft}`);
      if (walLeft) expect(child.output()).toContain('could not be fully checkpointed');
    } finally {
      disk.free();
    }
    // nothing acknowledged was lost: the WAL is applied on the next start
    const next = await spawnServer({ home: disk.dir, token: T });
    const rows = (await next.api('/api/manifests/after-full/data')).body.data;
    expect(rows).toHaveLength(50);
    await next.stop();
  });
});
