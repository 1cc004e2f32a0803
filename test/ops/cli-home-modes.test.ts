/**
 * What the command-line programs write is the owner's alone, as what the server writes is:
 * `npm run mcp` started by a desktop assistant before the server ever ran makes the home, the
 * database and the welcome card; `npm run backups -- --take` a snapshot with a copy of the whole
 * database; `npm run export` an archive of everything; `npm run import -- --apply --target` a new
 * home. Each runs here as a person runs it (the built program, from a shell whose umask is the
 * usual 022) and every folder it made must be 0700, every file 0600. Before, they took the
 * shell's umask: the database, its snapshots and the cards were readable by every user of the
 * machine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { assertDistBuilt } from '../helpers/child-server.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-cli-modes-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Runs a built program with the shell's usual umask 022, as a person starts it. */
function run(script: string, args: string[], env: Record<string, string>, input = '') {
  const old = process.umask(0o022);
  try {
    return spawnSync(process.execPath, [path.resolve(script), ...args], {
      env: { PATH: process.env.PATH ?? '', KLEBB_LOG_LEVEL: 'silent', ...env },
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
  } finally {
    process.umask(old);
  }
}

/** Every folder and file under `dir` (itself included) whose mode lets anyone but the owner in. */
function loose(dir: string, base = dir): string[] {
  const out: string[] = [];
  const self = fs.statSync(dir).mode & 0o777;
  if (self !== 0o700) out.push(`${path.relative(base, dir) || '.'} ${self.toString(8)}`);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...loose(p, base));
    else if (e.isFile()) {
      const m = fs.statSync(p).mode & 0o777;
      if (m !== 0o600) out.push(`${path.relative(base, p)} ${m.toString(8)}`);
    }
  }
  return out;
}

const CARD = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
  data: [{ date: '2026-04-20', kg: 72.4 }],
};

function mcpLines(): string {
  return `${[
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'modes', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'create_manifest', arguments: { manifest: CARD } },
    },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n')}\n`;
}

it('npm run mcp, backups --take, export and import --apply write folders 0700 and files 0600', () => {
  assertDistBuilt();
  const home = path.join(root, 'klebb'); // does not exist yet: npm run mcp makes it
  const mcp = run('dist/src/mcp/stdio.js', [], { HEALTH_HOME: home }, mcpLines());
  expect(mcp.status, mcp.stderr).toBe(0);
  const created = mcp.stdout.split('\n').find((l) => l.includes('"id":2'));
  expect(created, mcp.stdout).toBeDefined();
  expect(JSON.parse(created as string).result.isError ?? false, created).toBe(false);
  expect(fs.existsSync(path.join(home, 'data', 'weight.json'))).toBe(true);
  expect(fs.existsSync(path.join(home, 'db', 'klebb.sqlite'))).toBe(true);

  const take = run('dist/scripts/backups.js', ['--home', home, '--take'], {});
  expect(take.status, take.stderr).toBe(0);
  expect(fs.readdirSync(path.join(home, 'backups')).length).toBe(1);

  const zip = path.join(root, 'archive.zip');
  const exported = run('dist/scripts/export.js', ['--home', home, '--out', zip], {});
  expect(exported.status, exported.stderr).toBe(0);

  const target = path.join(root, 'klebb2'); // a new home the import makes
  const imported = run('dist/scripts/import.js', [zip, '--apply', '--target', target], {});
  expect(imported.status, imported.stderr).toBe(0);
  expect(fs.existsSync(path.join(target, 'data', 'weight.json'))).toBe(true);

  expect(loose(home)).toEqual([]);
  expect((fs.statSync(zip).mode & 0o777).toString(8)).toBe('600');
  expect(loose(target)).toEqual([]);
});
