/**
 * The floors of an Apple Health import: how long the bare XML parse of the same file takes,
 * measured in child processes so their CPU time is their own. `saxes` is the parser Klebb uses
 * (every start tag read with its attributes, nothing done with them); `xmllint --stream` is
 * libxml2's reader in C, when it is installed. Run as a script, this file is the saxes floor:
 * `node dist/bench/lib/parse-floor.js FILE` prints `{"records": n}`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';

/** Wall and CPU time of one run, ms. */
export interface FloorTime {
  wallMs: number;
  cpuMs: number;
}

/** `0m1.234s` → ms. */
function bashTime(t: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(t);
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : Number.NaN;
}

/**
 * Runs `command` (argv) under bash and reads its CPU time from bash's `times` (user + system of
 * the children). @throws when the command fails.
 */
function timed(command: string[]): FloorTime {
  const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', `${quoted} >/dev/null || exit 3; times`], { encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${command.join(' ')} failed (${r.status}): ${r.stderr.slice(0, 300)}`);
  const lines = r.stdout.trim().split('\n');
  const [user, sys] = (lines[lines.length - 1] ?? '').split(/\s+/).map(bashTime);
  return { wallMs, cpuMs: user + sys };
}

/** The bare saxes parse of `file` (streamed as the import reads it). */
export function saxesFloor(file: string): FloorTime {
  return timed([process.execPath, fileURLToPath(import.meta.url), file]);
}

/** `xmllint --stream --noout file`, or undefined when xmllint is not installed. */
export function xmllintFloor(file: string): FloorTime | undefined {
  if (spawnSync('xmllint', ['--version']).status !== 0) return undefined;
  return timed(['xmllint', '--stream', '--noout', file]);
}

async function parseOnly(file: string): Promise<number> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let records = 0;
  parser.on('opentag', (tag) => {
    if (tag.name === 'Record') records++;
  });
  parser.on('error', () => {});
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }))
    parser.write(chunk as string);
  parser.close();
  return records;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node parse-floor.js FILE\n');
    process.exit(2);
  }
  parseOnly(file).then((records) => process.stdout.write(`${JSON.stringify({ records })}\n`));
}
