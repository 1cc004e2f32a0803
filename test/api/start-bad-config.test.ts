import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';

describe('npm start with a bad environment', () => {
  it('stops with a message naming the variable and creates nothing', () => {
    const main = path.join(repoRoot, 'dist/server/main.js');
    expect(fs.existsSync(main), 'dist/server/main.js is missing: run npm run build (npm test does)').toBe(
      true,
    );
    const box = sandboxHome();
    const home = path.join(box.home, 'h');
    try {
      const r = spawnSync(process.execPath, [main], {
        env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: 'not-a-port' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('PORT');
      expect(r.stderr).toContain('not-a-port');
      expect(fs.existsSync(home)).toBe(false);
    } finally {
      box.remove();
    }
  });

  it('stops on a HEALTH_RP_ID set without HEALTH_ORIGIN, which no passkey could be made for on localhost', () => {
    const main = path.join(repoRoot, 'dist/server/main.js');
    const box = sandboxHome();
    const home = path.join(box.home, 'h');
    try {
      const r = spawnSync(process.execPath, [main], {
        env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', HEALTH_RP_ID: 'health.example.org' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        'klebb: cannot start: HEALTH_RP_ID: "health.example.org" needs HEALTH_ORIGIN',
      );
      expect(r.stderr).not.toContain('setup#code=');
      expect(fs.existsSync(home)).toBe(false);
    } finally {
      box.remove();
    }
  });

  it('stops on a log level pino does not have, naming the variable and the levels, not with a stack trace', () => {
    const main = path.join(repoRoot, 'dist/server/main.js');
    const box = sandboxHome();
    const home = path.join(box.home, 'h');
    try {
      for (const level of ['loud', 'verbose', 'warning']) {
        const r = spawnSync(process.execPath, [main], {
          env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', KLEBB_LOG_LEVEL: level },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(r.status).toBe(2);
        expect(r.stderr).toContain(
          `KLEBB_LOG_LEVEL: must be fatal, error, warn, info, debug, trace or silent, got "${level}"`,
        );
        expect(r.stderr).not.toContain('    at ');
        expect(fs.existsSync(home)).toBe(false);
      }
    } finally {
      box.remove();
    }
  });

  it('reads a log level in any letter case, with spaces around it', () => {
    expect(loadConfig({ KLEBB_LOG_LEVEL: ' WARN ' }).logLevel).toBe('warn');
    expect(loadConfig({ KLEBB_LOG_LEVEL: 'Debug' }).logLevel).toBe('debug');
    expect(loadConfig({}).logLevel).toBe('info');
  });

  it('stops on a HEALTH_HOME or HEALTH_DATA_DIR that is a file, naming the variable, not with a stack trace', () => {
    const main = path.join(repoRoot, 'dist/server/main.js');
    const box = sandboxHome();
    const file = path.join(box.home, 'notes.txt');
    fs.mkdirSync(box.home, { recursive: true });
    fs.writeFileSync(file, 'not a folder');
    try {
      const cases: [Record<string, string>, string, string][] = [
        [{ HEALTH_HOME: file }, 'HEALTH_HOME', file],
        [{ HEALTH_HOME: path.join(file, 'klebb') }, 'HEALTH_HOME', file],
        [{ HEALTH_HOME: path.join(box.home, 'h'), HEALTH_DATA_DIR: file }, 'HEALTH_DATA_DIR', file],
      ];
      for (const [env, variable, named] of cases) {
        const r = spawnSync(process.execPath, [main], {
          env: { PATH: process.env.PATH, PORT: '0', ...env },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain(`klebb: cannot start: ${variable}:`);
        expect(r.stderr).toContain(`${named} is a file, not a folder`);
        expect(r.stderr).not.toContain('    at ');
        expect(fs.readFileSync(file, 'utf8')).toBe('not a folder');
      }
    } finally {
      box.remove();
    }
  });
});

describe('npm start with a HEALTH_HOME in a system folder', () => {
  it('stops at once, naming the variable, on a folder that makes no new folders (/proc): no start that never ends', () => {
    const main = path.join(repoRoot, 'dist/server/main.js');
    // /proc answers "no such file" for a new folder inside it, which Node's recursive mkdir retried for ever
    for (const [env, variable, named] of [
      [{ HEALTH_HOME: '/proc' }, 'HEALTH_HOME', '/proc'],
      [{ HEALTH_HOME: '/proc/klebb' }, 'HEALTH_HOME', '/proc/klebb'],
    ] as [Record<string, string>, string, string][]) {
      const started = Date.now();
      const r = spawnSync(process.execPath, [main], {
        env: { PATH: process.env.PATH, PORT: '0', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.signal, `${named}: still running after 20 s`).toBeNull();
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`klebb: cannot start: ${variable}: cannot create or write ${named} (`);
      // as root, /proc passes the permission check and only the new folder is refused
      if (process.getuid?.() === 0)
        expect(r.stderr).toContain(
          `(ENOENT, this file system makes no new folders there); set ${variable} to an ordinary folder`,
        );
      expect(r.stderr).not.toContain('    at ');
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  });
});
