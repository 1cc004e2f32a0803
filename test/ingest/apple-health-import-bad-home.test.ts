/**
 * `npm run import:apple-health -- export.zip --home DIR` with a home it cannot use: a folder that
 * makes no new folders (/proc/klebb, which Node's recursive mkdir retried for ever) or a file.
 * The script stops at once with exit 2 and says which folder and why, instead of never ending or
 * printing a stack trace; nothing is made in the way.
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
let xml: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ah-bad-home-'));
  xml = path.join(scratch, 'export.xml');
  fs.writeFileSync(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n</HealthData>\n',
  );
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const run = (home: string) =>
  spawnSync(process.execPath, [script, xml, '--home', home], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 20_000,
  });

it('stops at once on a home in a folder that makes no new folders (/proc/klebb)', () => {
  const started = Date.now();
  const r = run('/proc/klebb');
  expect(r.signal, 'still running after 20 s').toBeNull();
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain('cannot import: --home: cannot create or write /proc/klebb (');
  expect(r.stderr).not.toContain('    at ');
  expect(r.stdout).toBe('');
  expect(Date.now() - started).toBeLessThan(15_000);
});

it('refuses a home that is a file in words, leaving the file as it was', () => {
  const file = path.join(scratch, 'not-a-folder');
  fs.writeFileSync(file, 'notes');
  const r = run(file);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain(`cannot import: --home: ${file} is`);
  expect(r.stderr).not.toContain('    at ');
  expect(fs.readFileSync(file, 'utf8')).toBe('notes');
});
