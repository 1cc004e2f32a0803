/**
 * A folder inside HEALTH_HOME that refuses writes (backups/ or reports/ on a read-only mount; a
 * full disk alike). Node's recursive mkdir reports such a refusal as ENOENT, "no such file or
 * directory", so before, taking a snapshot there answered 500 INTERNAL, and a start whose
 * reports/ folder refused its archive folder ended in a stack trace about a missing file. Now the
 * snapshot is 503 NOT_SAVED naming the read-only folder, nothing is listed, and the start stops
 * with a sentence naming the folder and what to do. Real server, real read-only tmpfs mounts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';

let s: TestServer | undefined;
let scratch: string | undefined;
afterEach(async () => {
  unmountAll();
  await s?.close();
  s = undefined;
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Puts an empty read-only file system on `dir` (made when missing). */
function readOnlyMount(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  mountTmpfs(dir, { readOnly: true });
}

it.runIf(canMountTmpfs())(
  'a snapshot into a read-only backups folder is 503 NOT_SAVED naming it, not 500',
  async () => {
    s = await startServer({});
    const backups = path.join(s.home, 'backups');
    readOnlyMount(backups);
    const r = await s.api('/api/backups', { method: 'POST' });
    expect(r.status, r.text).toBe(503);
    expect(r.body.code).toBe('NOT_SAVED');
    expect(r.body.error).toContain(`EROFS, the file system is read-only in ${backups}`);
    expect((await s.api('/api/backups')).body.snapshots).toEqual([]);
  },
);

it.runIf(canMountTmpfs())(
  'a start whose reports folder is read-only stops naming the folder, not with a stack trace',
  () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ro-reports-'));
    const home = path.join(scratch, 'home');
    const reports = path.join(home, 'reports');
    readOnlyMount(reports);
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'dist/server/main.js')], {
      env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', KLEBB_LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `klebb: cannot start: HEALTH_HOME: cannot write in ${reports} (EROFS, the file system is read-only); make it writable for the user running Klebb`,
    );
    expect(r.stderr).not.toMatch(/ENOENT|\n\s+at /);
  },
);
