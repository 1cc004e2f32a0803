/**
 * `npm run import:apple-health -- FILE` given something that is no Apple Health export: an empty
 * file, a text file named .zip, a folder. The script says why in one line (exit 1 for a file it
 * read and refused, 2 for a folder it cannot read at all) instead of printing a stack trace, and
 * the home keeps no rows and no unpacked copy.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(repoRoot, 'dist/scripts/import-apple-health.js');
let scratch: string;
let home: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ah-bad-file-'));
  home = path.join(scratch, 'home');
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const run = (file: string) =>
  spawnSync(process.execPath, [script, file, '--home', home], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 60_000,
  });

const uploadsLeft = () => {
  const dir = path.join(home, 'ingest', 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

it('refuses an empty file in one line, without a stack trace', () => {
  const file = path.join(scratch, 'export.xml');
  fs.writeFileSync(file, '');
  const r = run(file);
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain('import failed: this is not an Apple Health export.xml');
  expect(r.stderr).not.toContain('KlebbError');
  expect(r.stderr).not.toContain('    at ');
  expect(r.stdout).toBe('');
});

it('refuses a text file named export.zip in one line, keeping no unpacked copy', () => {
  const file = path.join(scratch, 'export.zip');
  fs.writeFileSync(file, 'these are my notes, not an export\n');
  const r = run(file);
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain('import failed: this is not an Apple Health export.xml');
  expect(r.stderr).not.toContain('    at ');
  expect(uploadsLeft()).toEqual([]);
});

it('refuses a folder given for the file, naming it, before opening the home', () => {
  const dir = path.join(scratch, 'apple_health_export');
  fs.mkdirSync(dir);
  const r = run(dir);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain(`${dir} is a folder: give the export.zip`);
  expect(r.stderr).not.toContain('EISDIR');
  expect(r.stderr).not.toContain('    at ');
  expect(r.stdout).toBe('');
});

it('refuses an empty --home= (a variable left unset) instead of importing into the default home', () => {
  const file = path.join(scratch, 'steps.xml');
  fs.writeFileSync(
    file,
    '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n</HealthData>\n',
  );
  const fakeHome = path.join(scratch, 'user-home');
  fs.mkdirSync(fakeHome);
  const r = spawnSync(process.execPath, [script, file, '--home='], {
    env: { PATH: process.env.PATH, HOME: fakeHome },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain('--home= needs a folder');
  expect(fs.readdirSync(fakeHome)).toEqual([]);
});
