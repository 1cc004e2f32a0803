/**
 * An export keeps a full copy of the database in HEALTH_HOME/tmp while its zip streams, and a
 * snapshot builds its folder in HEALTH_HOME/backups before it is renamed into place. A crash
 * (`kill -9`, a power cut) at that moment left the copy there for good, one more full copy of the
 * person's health data with every crash, which nothing pruned. A start now removes the copies of
 * processes that are gone, and leaves those of a live one (an export script running on the same
 * home).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spoolOwnerPrefix } from '../../src/ingest/spool-files.js';
import { killAllChildren, spawnServer, writeableCard } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

/** The owner prefix of a process that has ended (its pid is free): `<host>.<pid>.<run>-`. */
function deadOwnerPrefix(): string {
  const ended = spawnSync(process.execPath, ['-e', '']);
  return spoolOwnerPrefix().replace(/\.\d+\./, `.${ended.pid}.`);
}

describe('copies of the database a crash left behind', () => {
  const box = sandboxHome('klebb-export-crash-');
  afterAll(async () => {
    await killAllChildren();
    box.remove();
  });

  it('are removed at the next start; a live process keeps its own', { timeout: 120_000 }, async () => {
    let child = await spawnServer({ home: box.home });
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      date: '2026-01-01',
      note: `${i} ${'z'.repeat(500)}`,
    }));
    const created = await child.api('/api/manifests', { json: { ...writeableCard('notes'), data: rows } });
    expect(created.status, created.text).toBe(201);

    // an export whose download has started and not finished: its copy of the database is on disk
    const download = new AbortController();
    const res = await fetch(`${child.url}/api/export`, {
      headers: { authorization: `Bearer ${child.token}` },
      signal: download.signal,
    });
    expect(res.status).toBe(200);
    const scratch = path.join(box.home, 'tmp');
    const during = fs.readdirSync(scratch);
    expect(during.some((n) => n.endsWith('.sqlite'))).toBe(true);
    await child.kill();
    download.abort();
    expect(fs.readdirSync(scratch)).toEqual(during);

    // half-built snapshot folders: one of a process that has ended, one named before owners were,
    // and one of a live process (this test's), which must stay
    const backups = path.join(box.home, 'backups');
    const dead = `.${deadOwnerPrefix()}daily-20260101-030000.tmp`;
    const legacy = '.manual-20260102-120000.tmp';
    const live = `.${spoolOwnerPrefix()}manual-20260103-120000.tmp`;
    for (const d of [dead, legacy, live]) {
      fs.mkdirSync(path.join(backups, d, 'db'), { recursive: true });
      fs.writeFileSync(path.join(backups, d, 'db', 'klebb.sqlite'), 'a copy of the database');
    }
    // and an export copy of this live process in the scratch folder
    const liveCopy = `${spoolOwnerPrefix()}1767225600000-0123456789ab.sqlite`;
    fs.writeFileSync(path.join(scratch, liveCopy), 'a copy of the database');

    child = await spawnServer({ home: box.home });
    expect(fs.readdirSync(scratch)).toEqual([liveCopy]);
    expect(fs.readdirSync(backups).filter((n) => n.endsWith('.tmp'))).toEqual([live]);

    // exports and snapshots still work, and leave nothing behind once done
    const again = await fetch(`${child.url}/api/export`, {
      headers: { authorization: `Bearer ${child.token}` },
    });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    const snap = await child.api('/api/backups', { method: 'POST' });
    expect(snap.status, snap.text).toBe(201);
    expect(fs.readdirSync(scratch)).toEqual([liveCopy]);
    expect(fs.readdirSync(backups).filter((n) => n.startsWith('.'))).toEqual([live]);
    await child.stop();
  });
});
