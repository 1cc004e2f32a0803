/**
 * Retention removes old snapshots after a restore, an import or the daily snapshot. One it
 * cannot remove (a folder mounted inside it, another user's files, a busy network share) is
 * left and named in the log; the others still go, and the work that ran the prune is reported
 * as what it was. Before, the removal's error ended the job: a restore that had replaced the
 * home said "failed", and the daily snapshot just taken was logged as a failure. Real server,
 * real SQLite, a real tmpfs mounted inside the snapshot (the tests run as root in CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSnapshots } from '../../src/data/backups.js';
import { SnapshotTimer } from '../../src/data/snapshot-timer.js';
import { importJobEnd, serverWithSnapshot } from '../helpers/import-job.js';
import type { TestServer } from '../helpers/server.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';

const T = 'prune-not-removable-token';
let s: TestServer | undefined;

afterEach(async () => {
  unmountAll();
  await s?.close();
  s = undefined;
});

/** Writes an old snapshot of `kind` taken at `takenAt` into the home's backups folder; its name. */
function oldSnapshot(home: string, kind: 'daily' | 'pre-import', takenAt: string): string {
  const name = `${kind}-${takenAt.slice(0, 10).replaceAll('-', '')}-${takenAt.slice(11, 19).replaceAll(':', '')}`;
  const dir = path.join(home, 'backups', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'snapshot.json'),
    JSON.stringify({ kind, takenAt, cards: 1, rows: 1, bytes: 1 }),
  );
  return name;
}

/** Mounts a tmpfs inside the snapshot `name`: removing the snapshot then fails (EBUSY). */
function holdOpen(home: string, name: string): void {
  const inside = path.join(home, 'backups', name, 'held');
  fs.mkdirSync(inside);
  mountTmpfs(inside);
}

describe('an old snapshot retention cannot remove', { skip: !canMountTmpfs() }, () => {
  it('leaves a restore done, and the other old snapshots still go', async () => {
    const started = await serverWithSnapshot(T);
    s = started.s;
    const home = s.home;
    // five older pre-import snapshots; the restore's own makes six, of which the newest 3 stay
    const old = ['01', '02', '03', '04', '05'].map((d) =>
      oldSnapshot(home, 'pre-import', `2026-01-${d}T08:00:00.000Z`),
    );
    holdOpen(home, old[0]);

    const r = await s.api(`/api/backups/${started.snapshot}/restore`, {
      token: T,
      json: { confirm: 'REPLACE' },
    });
    expect(r.status, r.text).toBe(202);
    const end = await importJobEnd(s, T);
    expect(end.state, JSON.stringify(end.error)).toBe('done');

    const left = listSnapshots(home).map((x) => x.name);
    expect(left).toContain(old[0]);
    for (const gone of old.slice(1, 3)) expect(left).not.toContain(gone);
    expect(left.filter((n) => n.startsWith('pre-import-'))).toHaveLength(4);
    const rows = await s.api('/api/manifests/w/data', { token: T });
    expect(rows.body.data).toEqual([{ date: '2026-04-01', kg: 80 }]);
  });

  it('leaves the daily snapshot taken, logged as taken, with the one left named', async () => {
    const started = await serverWithSnapshot(T);
    s = started.s;
    const srv = s;
    const home = srv.home;
    const held = oldSnapshot(home, 'daily', '2026-03-01T08:00:00.000Z');
    const other = oldSnapshot(home, 'daily', '2026-03-02T08:00:00.000Z');
    holdOpen(home, held);

    const logs: { msg: string; o: Record<string, unknown> }[] = [];
    const src = {
      db: srv.inst.db,
      home,
      cards: () => srv.inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
      reportsDir: srv.inst.layout.reportsDir,
      metaDir: srv.inst.layout.metaDir,
    };
    const timer = new SnapshotTimer(src, { daily: 1, weekly: 0 }, (msg, o) =>
      logs.push({ msg, o: o as Record<string, unknown> }),
    );
    await timer.check(new Date('2026-04-20T03:00:00Z'));

    expect(logs.map((l) => l.msg)).toEqual(['daily snapshot taken', 'old snapshot not removed']);
    expect(logs[0].o.pruned).toEqual([other]);
    expect(logs[1].o.snapshot).toBe(held);
    const left = listSnapshots(home).map((x) => x.name);
    expect(left).toContain(logs[0].o.snapshot);
    expect(left).toContain(held);
    expect(left).not.toContain(other);
  });
});
