/**
 * `npm run backups -- --restore NAME --target DIR` with a target it cannot use: a folder that makes
 * no new folders (/proc/klebb, which Node's recursive mkdir retried for ever) or a file. The
 * command stops at once, naming --target and why, instead of never ending or printing a stack
 * trace; nothing is made in the way.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = (name: string) => path.join(repoRoot, 'dist/scripts', name);
let scratch: string;
let home: string;
let snapshot: string;

const run = (name: string, args: string[]) =>
  spawnSync(process.execPath, [script(name), ...args], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 20_000,
  });

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-restore-target-'));
  home = path.join(scratch, 'home');
  const xml = path.join(scratch, 'export.xml');
  fs.writeFileSync(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n</HealthData>\n',
  );
  // a home made the way a person makes one from the command line, then a snapshot of it
  expect(run('import-apple-health.js', [xml, '--home', home]).status).toBe(0);
  const took = run('backups.js', ['--home', home, '--take']);
  expect(took.status, took.stderr).toBe(0);
  snapshot = JSON.parse(took.stdout).snapshot.name;
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

it('stops at once on a target in a folder that makes no new folders (/proc/klebb)', () => {
  const started = Date.now();
  const r = run('backups.js', ['--home', home, '--restore', snapshot, '--target', '/proc/klebb']);
  expect(r.signal, 'still running after 20 s').toBeNull();
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain('refused: --target: cannot create or write /proc/klebb (');
  expect(r.stderr).not.toContain('    at ');
  expect(r.stdout).toBe('');
  expect(Date.now() - started).toBeLessThan(15_000);
});

it('refuses a target that is a file in words, leaving the file as it was', () => {
  const file = path.join(scratch, 'not-a-folder');
  fs.writeFileSync(file, 'notes');
  const r = run('backups.js', ['--home', home, '--restore', snapshot, '--target', file]);
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain(`refused: --target: ${file} is a file`);
  expect(r.stderr).not.toContain('    at ');
  expect(fs.readFileSync(file, 'utf8')).toBe('notes');
});
