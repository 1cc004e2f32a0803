/**
 * `npm run mcp` with a HEALTH_HOME it cannot use (a file, or a folder inside a file) stops at once
 * with the sentence the server gives (the variable, the path, what to do) and exit code 2,
 * creating nothing; before, it printed the file system's raw ENOTDIR message.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-mcp-home-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runStdio(home: string) {
  return spawnSync(process.execPath, [path.resolve('dist/src/mcp/stdio.js')], {
    env: { HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
}

it.each([
  ['a file', ''],
  ['a folder inside a file', 'klebb'],
])('HEALTH_HOME naming %s is refused in words, exit 2, nothing created', (_what, below) => {
  const file = path.join(dir, `home-file-${below || 'self'}`);
  fs.writeFileSync(file, 'not a folder');
  const home = below ? path.join(file, below) : file;
  const r = runStdio(home);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(`klebb mcp: cannot start: HEALTH_HOME: ${file} is a file, not a folder`);
  expect(r.stderr).not.toContain('ENOTDIR');
  expect(r.stdout).toBe('');
  expect(fs.readFileSync(file, 'utf8')).toBe('not a folder');
});

it('HEALTH_HOME=/proc (a folder that makes no new folders) is refused at once, exit 2, not a hang', () => {
  const r = runStdio('/proc');
  expect(r.signal).toBeNull();
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('klebb mcp: cannot start: HEALTH_HOME: cannot create or write /proc (');
  expect(r.stdout).toBe('');
});
