/**
 * `npm run export -- --out FILE [--home DIR]`: writes the whole home (HEALTH_HOME, or `--home`)
 * as a `klebb.export.v1` zip (docs/EXPORT.md), the same archive as `GET /api/export`. The
 * server may be running on the same home meanwhile: the export reads a consistent snapshot of
 * the database. The archive is written beside FILE first and renamed when complete, so FILE is
 * never a torn zip. A folder that holds no home is refused, not made into an empty one.
 * Exit codes: 0 written, 1 failed, 2 bad usage or no home there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { asksForHelp } from '../src/command-line.js';
import { loadConfig } from '../src/config.js';
import { ExportService } from '../src/data/export-service.js';
import { fsyncDir } from '../src/home/atomic-write.js';
import { missingHomeReason } from '../src/home/existing-home.js';
import { homeFileProblem } from '../src/home/home-files.js';
import { keepNewFilesOwnerOnly } from '../src/home/owner-only.js';
import { openInstance } from '../src/instance.js';
import { storageFault } from '../src/store/storage-faults.js';

const USAGE = 'usage: npm run export -- --out FILE.zip [--home DIR]';
const HELP = `${USAGE}\nWrites the whole home (HEALTH_HOME, or --home) as one zip archive (docs/EXPORT.md); the server may be running meanwhile.`;

/** Parsed command line. */
export interface ExportArgs {
  out: string;
  home?: string;
}

/** @throws Error with the usage text when the arguments are not `--out FILE [--home DIR]`. */
export function parseArgs(argv: string[]): ExportArgs {
  let out: string | undefined;
  let home: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out' || a === '--home') {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value\n${USAGE}`);
      if (a === '--out') out = v;
      else home = v;
    } else if (a.startsWith('--out=')) out = a.slice(6);
    else if (a.startsWith('--home=')) home = a.slice(7);
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (!out) throw new Error(USAGE);
  return { out: path.resolve(out), ...(home ? { home: path.resolve(home) } : {}) };
}

/**
 * Why the archive cannot be written at `out`, or null: a folder given for the file, or a file in
 * a folder that does not exist (checked first, so no export runs only to fail at its end).
 */
function outFileProblem(out: string): string | null {
  if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory())
    return `--out ${out} is a folder: name the file to write, e.g. ${path.join(out, 'klebb-export.zip')}`;
  const dir = path.dirname(out);
  const parent = fs.statSync(dir, { throwIfNoEntry: false });
  if (!parent) return `--out: the folder ${dir} does not exist; create it first`;
  if (!parent.isDirectory()) return `--out: ${dir} is a file, not a folder`;
  return null;
}

/** Runs the export; returns the exit code. */
export async function main(
  argv: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  },
): Promise<number> {
  let args: ExportArgs;
  // --help answers with what the program takes, on stdout, as a success
  if (asksForHelp(argv)) {
    io.out(`${HELP}\n`);
    return 0;
  }
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.err(`${(e as Error).message}\n`);
    return 2;
  }
  const outProblem = outFileProblem(args.out);
  if (outProblem) {
    io.err(`${outProblem}\n`);
    return 2;
  }
  const env = { ...process.env, ...(args.home ? { HEALTH_HOME: args.home } : {}), KLEBB_LOG_LEVEL: 'silent' };
  const config = loadConfig(env);
  const missing = missingHomeReason(config.home, config.dataDir);
  if (missing) {
    io.err(`${missing}\n`);
    return 2;
  }
  // a file of the home the user may not read or write (a home copied by root): named, no stack
  const files = homeFileProblem(config.home, config.dataDir, args.home ? '--home' : 'HEALTH_HOME');
  if (files) {
    io.err(`${files}\n`);
    return 2;
  }
  const inst = await openInstance(config, { watch: false });
  const part = `${args.out}.part`;
  try {
    const svc = new ExportService({
      db: inst.db,
      layout: inst.layout,
      instanceName: inst.config.instanceName,
      cards: () => inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
    });
    const started = await svc.start();
    await pipeline(started.stream, fs.createWriteStream(part, { mode: 0o600 }));
    const fd = fs.openSync(part, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(part, args.out);
    fsyncDir(path.dirname(args.out));
    const bytes = fs.statSync(args.out).size;
    io.out(`${JSON.stringify({ ok: true, home: inst.layout.home, file: args.out, bytes })}\n`);
    return 0;
  } catch (e) {
    fs.rmSync(part, { force: true });
    // a full disk or a folder that refuses a write: the catalogue's words, not the temporary
    // file's name in the system's message
    const fault = storageFault(e);
    io.err(`export failed: ${fault ? `${fault.code}: ${fault.message}` : (e as Error).message}\n`);
    return 1;
  } finally {
    await inst.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  keepNewFilesOwnerOnly();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
