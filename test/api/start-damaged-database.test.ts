/**
 * A database file that is not SQLite (damaged, overwritten) stops the start with a message that
 * names the file and says to restore it from a backup, pointing at the documentation, without a
 * stack trace; the file is left as it was.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { distMain } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

describe('a damaged database file at start-up', () => {
  it('is named, with what to do', () => {
    const box = sandboxHome();
    try {
      const file = path.join(box.home, 'db', 'klebb.sqlite');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const junk = Buffer.alloc(8192, 'not a database ');
      fs.writeFileSync(file, junk);
      const r = spawnSync(process.execPath, [distMain], {
        env: { PATH: process.env.PATH, HEALTH_HOME: box.home, PORT: '0', HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(/restore it from a backup/);
      expect(r.stderr).toContain('docs/DEPLOY.md#backups');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(fs.readFileSync(file).equals(junk)).toBe(true);
    } finally {
      box.remove();
    }
  });
});
