/**
 * scripts/add-instance on the command line: --help prints what it takes and exits 0, no NAME
 * prints the same as the refusal, and arguments past HOST are refused; each changes nothing on
 * the machine. Before, --help was refused as a NAME that is not lower-case letters, no NAME gave
 * no usage, and a fourth argument was ignored.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';

const script = path.join(repoRoot, 'scripts/add-instance');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-add-instance-help-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function addInstance(...args: string[]) {
  return spawnSync(script, args, {
    env: {
      PATH: process.env.PATH,
      KLEBB_INSTANCES_ROOT: path.join(work, 'var-lib-klebb'),
      KLEBB_ETC: path.join(work, 'etc-klebb'),
      KLEBB_NGINX_MAP: path.join(work, 'nginx', 'klebb-instances.map'),
      KLEBB_CREATE_USER: '0',
      KLEBB_DOMAIN: 'klebb.test',
    },
    encoding: 'utf8',
  });
}

it('--help and -h print the usage on stdout and exit 0', () => {
  for (const flag of ['--help', '-h']) {
    const r = addInstance(flag);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('scripts/add-instance NAME [PORT] [HOST]');
    expect(r.stdout).toContain('KLEBB_INSTANCES_ROOT');
    expect(r.stderr).toBe('');
  }
  expect(fs.readdirSync(work)).toEqual([]);
});

it('no NAME prints the usage as the refusal (exit 2); a fourth argument is refused', () => {
  const none = addInstance();
  expect(none.status).toBe(2);
  expect(none.stderr).toContain('scripts/add-instance NAME [PORT] [HOST]');
  expect(none.stderr).toContain('add-instance: give NAME');
  const extra = addInstance('bob', '8201', 'bob.klebb.test', 'carol');
  expect(extra.status).toBe(2);
  expect(extra.stderr).toContain('add-instance: takes NAME [PORT] [HOST], got 4 arguments');
  expect(fs.readdirSync(work)).toEqual([]);
});
