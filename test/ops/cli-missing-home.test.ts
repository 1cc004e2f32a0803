/**
 * The command-line tools that read a home (`npm run export`, `npm run backups`, its `--take`)
 * refuse a folder that holds no Klebb home, naming it, instead of making a new empty home there
 * and answering `ok` with an archive or a snapshot of nothing: a misspelt --home or an unset
 * HEALTH_HOME must not pass for a backup. A real home is still read as before. An --out or an
 * import's --target that cannot be used (a folder for the file, a file for the folder) is refused
 * up front in words, not after the work or with a stack trace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import { main as exportMain } from '../../scripts/export.js';
import { main as importMain } from '../../scripts/import.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let scratch: string;

beforeAll(async () => {
  s = await startServer({});
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-cli-home-'));
});
afterAll(async () => {
  await s.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (x: string) => out.push(x), err: (x: string) => err.push(x) } };
}

describe('a --home that is no Klebb home', () => {
  const homes = () => ({
    missing: path.join(scratch, 'klebb-typo'),
    empty: fs.mkdtempSync(path.join(scratch, 'empty-')),
  });

  it('npm run export refuses it, writes no archive and leaves the folder as it was', async () => {
    for (const home of Object.values(homes())) {
      const before = fs.existsSync(home) ? fs.readdirSync(home) : null;
      const out = path.join(scratch, `${path.basename(home)}.zip`);
      const c = capture();
      expect(await exportMain(['--out', out, '--home', home], c.io)).toBe(2);
      expect(c.out).toEqual([]);
      expect(c.err.join('')).toContain(`no Klebb home at ${home}`);
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.existsSync(home) ? fs.readdirSync(home) : null).toEqual(before);
    }
  });

  it('npm run backups refuses it, listing or taking, and creates nothing', async () => {
    for (const home of Object.values(homes())) {
      const before = fs.existsSync(home) ? fs.readdirSync(home) : null;
      for (const argv of [
        ['--home', home],
        ['--home', home, '--take'],
      ]) {
        const c = capture();
        expect(await backupsMain(argv, c.io)).toBe(2);
        expect(c.err.join('')).toContain(`no Klebb home at ${home}`);
        expect(fs.existsSync(home) ? fs.readdirSync(home) : null).toEqual(before);
      }
    }
  });

  it('a --home that is a file is named as a file, not as a folder without a home', async () => {
    const file = path.join(scratch, 'klebb.zip');
    fs.writeFileSync(file, 'not a home');
    for (const run of [
      (io: ReturnType<typeof capture>['io']) =>
        exportMain(['--out', path.join(scratch, 'f.zip'), '--home', file], io),
      (io: ReturnType<typeof capture>['io']) => backupsMain(['--home', file], io),
    ]) {
      const c = capture();
      expect(await run(c.io)).toBe(2);
      expect(c.err.join('')).toContain(`no Klebb home at ${file}: it is a file, not a folder`);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('not a home');
  });

  it('a real home is still exported and listed', async () => {
    const out = path.join(scratch, 'real.zip');
    const c = capture();
    expect(await exportMain(['--out', out, '--home', s.home], c.io)).toBe(0);
    expect(fs.statSync(out).size).toBeGreaterThan(0);
    expect(await backupsMain(['--home', s.home], capture().io)).toBe(0);
  });

  it('npm run export refuses an --out that is a folder or lies in a missing one, before it writes anything', async () => {
    const folder = fs.mkdtempSync(path.join(scratch, 'out-'));
    const cases: [string, string][] = [
      [
        folder,
        `--out ${folder} is a folder: name the file to write, e.g. ${path.join(folder, 'klebb-export.zip')}`,
      ],
      [
        path.join(scratch, 'missing', 'x.zip'),
        `--out: the folder ${path.join(scratch, 'missing')} does not exist; create it first`,
      ],
    ];
    for (const [out, message] of cases) {
      const c = capture();
      expect(await exportMain(['--out', out, '--home', s.home], c.io)).toBe(2);
      expect(c.err.join('')).toContain(message);
      expect(fs.readdirSync(folder)).toEqual([]);
      expect(fs.existsSync(`${out}.part`)).toBe(false);
    }
  });

  it('npm run import --apply refuses a --target that is a file, naming it, without a stack trace', async () => {
    const archive = path.join(scratch, 'for-import.zip');
    expect(await exportMain(['--out', archive, '--home', s.home], capture().io)).toBe(0);
    const file = path.join(scratch, 'a-file.txt');
    fs.writeFileSync(file, 'keep me');
    for (const target of [file, path.join(file, 'klebb')]) {
      const c = capture();
      expect(await importMain([archive, '--apply', '--target', target], c.io)).toBe(1);
      const err = c.err.join('');
      expect(err).toContain(`refused: --target: ${file} is a file, not a folder`);
      expect(err).not.toContain('    at ');
      expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
    }
  });
});
