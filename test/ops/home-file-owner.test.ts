/**
 * A home copied or restored by another user: its top folder may be written by the user running
 * Klebb, but a file inside is not theirs (owned by root after a `cp -r` or `tar x` as root, or
 * made read-only): db/klebb.sqlite, or keys/vapid.json. The server and `npm run mcp` stop at once,
 * naming the file, its owner and the command that fixes it, with exit code 2 and no stack trace;
 * before, the server ended with "SqliteError: attempt to write a readonly database", or with
 * vapid.json "is not a VAPID key pair ... move it aside" (advice that would cut every device's
 * reminders off), each with a stack; `npm run export`, `backups -- --take` and
 * `import:apple-health` likewise ended in a stack or 'NOT_SAVED ... try again later'. Once the files are the user's again, the server starts with
 * the card and its row as they were.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { distMain, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

const asRoot = process.getuid?.() === 0;
/** The user the programs run as: nobody when the tests run as root (who may write any file). */
const NOBODY = 65534;

function runAsUser(script: string, home: string, args: string[] = []) {
  const node = [process.execPath, script, ...args];
  const cmd = asRoot
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node]
    : node;
  return spawnSync(cmd[0] as string, cmd.slice(1), {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', HOST: '127.0.0.1', KLEBB_LOG_LEVEL: 'info' },
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
}

it.each([
  ['db/klebb.sqlite', 'read and written'],
  ['keys/vapid.json', 'read'],
])(
  '%s the user may not use stops the server and npm run mcp in words; fixed, the rows are there',
  async (file, what) => {
    const box = sandboxHome();
    const home = path.join(box.home, 'home');
    try {
      const first = await spawnServer({ home });
      const card = await first.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
      expect(card.status).toBe(201);
      const row = await first.api('/api/manifests/weight/rows', {
        json: { value: { date: '2024-02-29', kg: 72.4 } },
      });
      expect(row.status).toBe(201);
      await first.stop();

      fs.writeFileSync(path.join(home, 'export.xml'), '<HealthData locale="en_US"></HealthData>\n');
      const dbFile = path.join(home, file);
      if (asRoot) {
        // the home handed to the user, the file left to root (as cp or tar run by root makes it)
        fs.chmodSync(box.home, 0o755);
        spawnSync('chown', ['-R', String(NOBODY), home]);
        fs.chownSync(dbFile, 0, 0);
        fs.chmodSync(dbFile, file.startsWith('db/') ? 0o644 : 0o600);
      } else {
        fs.chmodSync(dbFile, file.startsWith('db/') ? 0o400 : 0o200);
      }

      for (const [script, prefix] of [
        [distMain, 'klebb'],
        [path.join(repoRoot, 'dist/src/mcp/stdio.js'), 'klebb mcp'],
      ] as const) {
        const r = runAsUser(script, home);
        expect(r.status, r.stderr + r.stdout).toBe(2);
        expect(r.stderr).toContain(`${prefix}: cannot start: HEALTH_HOME: ${dbFile} may not be ${what} (`);
        expect(r.stderr).toContain(asRoot ? `chown -R ${NOBODY} ${home}` : `chmod -R u+rwX ${home}`);
        expect(r.stderr).not.toContain('SqliteError');
        expect(r.stderr).not.toContain('VAPID');
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }

      // the command-line tools that open the home say the same instead of a stack
      for (const [script, args] of [
        ['dist/scripts/export.js', ['--out', path.join(home, 'export.zip')]],
        ['dist/scripts/backups.js', ['--take']],
        ['dist/scripts/import-apple-health.js', [path.join(home, 'export.xml')]],
      ] as const) {
        const r = runAsUser(path.join(repoRoot, script), home, [...args]);
        expect(r.status, script + r.stderr).toBe(2);
        expect(r.stderr).toContain(`HEALTH_HOME: ${dbFile} may not be ${what} (`);
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }

      if (asRoot) spawnSync('chown', ['-R', '0:0', home]);
      else fs.chmodSync(dbFile, 0o600);
      const again = await spawnServer({ home });
      const rows = await again.api('/api/manifests/weight/rows');
      expect(rows.body.rows).toEqual([{ date: '2024-02-29', kg: 72.4 }]);
      await again.stop();
    } finally {
      box.remove();
    }
  },
);

it('a lost+found folder the user may not read (the home is a disk of its own) does not stop the start', async () => {
  const box = sandboxHome();
  const home = path.join(box.home, 'home');
  try {
    const first = await spawnServer({ home });
    await first.stop();
    // mkfs makes lost+found at the top of every ext file system: root's, mode 0700
    const lostFound = path.join(home, 'lost+found');
    fs.mkdirSync(lostFound);
    fs.writeFileSync(path.join(lostFound, '#1234'), 'a block fsck found');
    if (asRoot) {
      fs.chmodSync(box.home, 0o755);
      spawnSync('chown', ['-R', String(NOBODY), home]);
      fs.chownSync(lostFound, 0, 0);
    }
    fs.chmodSync(lostFound, asRoot ? 0o700 : 0o000);
    const r = runAsUser(path.join(repoRoot, 'dist/src/mcp/stdio.js'), home);
    expect(r.stderr).not.toContain('cannot start');
    expect(r.status, r.stderr).toBe(0);
    fs.chmodSync(lostFound, 0o700);
  } finally {
    box.remove();
  }
});

it.runIf(asRoot)(
  'a snapshot root took into backups/ and a folder root left in the inbox do not stop the start; a root-owned db file still does',
  async () => {
    const box = sandboxHome();
    const home = path.join(box.home, 'home');
    try {
      const first = await spawnServer({ home });
      expect(
        (await first.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } })).status,
      ).toBe(201);
      const taken = await first.api('/api/backups', { json: {} });
      expect(taken.status).toBe(201);
      const name = taken.body.snapshot.name as string;
      await first.stop();

      // the home handed to the user; a snapshot taken by a cron job run as root, and a folder
      // root made in the inbox, stay root's and unreadable to that user
      fs.chmodSync(box.home, 0o755);
      spawnSync('chown', ['-R', String(NOBODY), home]);
      const snapshot = path.join(home, 'backups', name);
      spawnSync('chown', ['-R', '0:0', snapshot]);
      fs.chmodSync(snapshot, 0o700);
      const stray = path.join(home, 'inbox', 'upload-by-root');
      fs.mkdirSync(stray);
      fs.writeFileSync(path.join(stray, 'part'), 'x');
      fs.chmodSync(stray, 0o700);

      const mcp = runAsUser(path.join(repoRoot, 'dist/src/mcp/stdio.js'), home);
      expect(mcp.stderr).not.toContain('cannot start');
      expect(mcp.status, mcp.stderr).toBe(0);

      const server = await spawnServer({ home, asUser: NOBODY });
      try {
        const list = await server.api('/api/backups');
        expect(list.status).toBe(200);
        const listed = list.body.snapshots.find((s: { name: string }) => s.name === name);
        expect(listed.damaged).toContain('may not be read by the user running Klebb');
        const restore = await server.api(`/api/backups/${name}/restore`, { json: {} });
        expect(restore.status).toBe(422);
        expect(restore.body.code).toBe('SNAPSHOT_DAMAGED');
        expect(restore.body.error).toContain(name);
        expect(restore.body.error).toContain('may not be read by the user running Klebb');
        // the home itself works: a row is written
        const row = await server.api('/api/manifests/weight/rows', {
          json: { value: { date: '2024-03-01', kg: 70 } },
        });
        expect(row.status).toBe(201);
      } finally {
        await server.stop();
      }

      const dbFile = path.join(home, 'db', 'klebb.sqlite');
      fs.chownSync(dbFile, 0, 0);
      const refused = runAsUser(path.join(repoRoot, 'dist/src/mcp/stdio.js'), home);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`HEALTH_HOME: ${dbFile} may not be read and written (`);
    } finally {
      spawnSync('chown', ['-R', '0:0', home]);
      box.remove();
    }
  },
);
