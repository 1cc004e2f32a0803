/**
 * The command line of every program: `--help` prints what it takes on stdout and exits 0, and the
 * server and the MCP program (whose settings are environment variables) stop on any other
 * argument, naming it and the variable meant, before a home is made. Before, the scripts called
 * --help an unknown argument (exit 2), `npm start -- --help` or `-- --port 9000` started a server
 * on port 8080 with a new home, and `npm run mcp -- --help` waited for MCP messages.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import { main as exportMain } from '../../scripts/export.js';
import { main as importMain } from '../../scripts/import.js';
import { main as appleMain } from '../../scripts/import-apple-health.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';

function run(script: string, args: string[], home: string) {
  return spawnSync(process.execPath, [path.join(repoRoot, script), ...args], {
    env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', KLEBB_LOG_LEVEL: 'silent' },
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('the server and npm run mcp on the command line', () => {
  for (const [name, script, prefix] of [
    ['npm start', 'dist/server/main.js', 'klebb'],
    ['npm run mcp', 'dist/src/mcp/stdio.js', 'klebb mcp'],
  ] as const) {
    it(`${name} -- --help prints the settings, exits 0 and makes no home`, () => {
      const box = sandboxHome();
      const home = path.join(box.home, 'h');
      try {
        for (const flag of ['--help', '-h']) {
          const r = run(script, [flag], home);
          expect(r.status, r.stderr).toBe(0);
          expect(r.stdout).toContain('usage: ');
          expect(r.stdout).toContain('HEALTH_HOME');
          expect(r.stdout).toContain('PORT');
          expect(r.stdout).not.toContain('setup#code=');
          expect(fs.existsSync(home)).toBe(false);
        }
      } finally {
        box.remove();
      }
    });

    it(`${name} with an argument stops with exit 2, naming it and the variable, and makes no home`, () => {
      const box = sandboxHome();
      const home = path.join(box.home, 'h');
      try {
        const r = run(script, ['--port', '9000'], home);
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(
          `${prefix}: cannot start: unknown argument "--port": set the environment variable PORT`,
        );
        const other = run(script, ['/srv/klebb'], home);
        expect(other.status).toBe(2);
        expect(other.stderr).toContain('unknown argument "/srv/klebb"');
        expect(fs.existsSync(home)).toBe(false);
      } finally {
        box.remove();
      }
    });
  }
});

describe('the scripts answer --help', () => {
  it('export, import, backups and import:apple-health print their usage on stdout and exit 0', async () => {
    const box = sandboxHome();
    const home = path.join(box.home, 'h');
    const prev = process.env.HEALTH_HOME;
    process.env.HEALTH_HOME = home;
    try {
      for (const [main, usage] of [
        [exportMain, 'usage: npm run export'],
        [importMain, 'usage: npm run import'],
        [backupsMain, 'usage: npm run backups'],
        [appleMain, 'usage: npm run import:apple-health'],
      ] as const) {
        for (const flag of ['--help', '-h']) {
          const out: string[] = [];
          const err: string[] = [];
          const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), tty: false };
          expect(await main([flag], io)).toBe(0);
          expect(out.join('')).toContain(usage);
          expect(err).toEqual([]);
        }
      }
      expect(fs.existsSync(home)).toBe(false);
    } finally {
      if (prev === undefined) delete process.env.HEALTH_HOME;
      else process.env.HEALTH_HOME = prev;
      box.remove();
    }
  });
});
