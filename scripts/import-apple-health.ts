/**
 * `npm run import:apple-health -- <export.zip|export.xml|export.xml.gz> [--home DIR]`:
 * stream-parses Apple Health's `export.xml` (read out of the Health app's `export.zip`, or
 * decompressed from gzip, as the upload route does: unpack-upload.ts; the unpacked copy is made in
 * the home's uploads folder and removed at the end) into the samples store of a HEALTH_HOME (`--home`,
 * else HEALTH_HOME, else ~/klebb) and fills the cards subscribed to its metrics, as a push would.
 * Prints a summary as JSON on stdout, and the progress (percent, size read, time left) on stderr:
 * one line rewritten in place on a terminal, else a line every 10 %. Exit codes: 0 imported,
 * 1 failed, 2 bad usage or a home that cannot be made or written.
 *
 * The server may be running on the same home meanwhile (SQLite WAL); its open pages see the new
 * rows on their next read (no live update is sent from this process).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { asksForHelp } from '../src/command-line.js';
import { loadConfig } from '../src/config.js';
import { KlebbError } from '../src/errors.js';
import { homeFileProblem } from '../src/home/home-files.js';
import { homeFolderProblem } from '../src/home/home-folders.js';
import { keepNewFilesOwnerOnly } from '../src/home/owner-only.js';
import { importAppleHealthFile } from '../src/ingest/apple-health/import-xml.js';
import { ImportProgress, progressLine } from '../src/ingest/apple-health/progress.js';
import { unpackUpload } from '../src/ingest/apple-health/unpack-upload.js';
import { openInstance } from '../src/instance.js';

const USAGE = 'usage: npm run import:apple-health -- <export.zip|export.xml|export.xml.gz> [--home DIR]';
const HELP = `${USAGE}\nImports Apple Health's export (the Health app's export.zip, or the export.xml in it) into a home (--home, else HEALTH_HOME, else ~/klebb).`;

/** Parsed command line. */
export interface ImportArgs {
  file: string;
  home?: string;
}

/**
 * Reads `argv` (without node and the script).
 * @throws Error with the usage text when the arguments are not `<file> [--home DIR]`.
 */
export function parseArgs(argv: string[]): ImportArgs {
  let file: string | undefined;
  let home: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--home') {
      home = argv[++i];
      if (!home) throw new Error(`--home needs a folder\n${USAGE}`);
    } else if (a.startsWith('--home=')) {
      // `--home=$HOME_DIR` with the variable unset is a mistake, not a wish for the default home:
      // importing there would put the export into another person's (or no one's) Klebb
      home = a.slice('--home='.length);
      if (!home) throw new Error(`--home= needs a folder\n${USAGE}`);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else if (file === undefined) file = a;
    else throw new Error(`one file only\n${USAGE}`);
  }
  if (!file) throw new Error(USAGE);
  return { file: path.resolve(file), ...(home ? { home: path.resolve(home) } : {}) };
}

/**
 * Why `file` cannot be imported before anything starts (missing, a folder, a device), in words;
 * undefined for an ordinary file.
 */
function fileProblem(file: string): string | undefined {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return `no such file: ${file}`;
  if (st.isDirectory()) {
    return `${file} is a folder: give the export.zip the Health app made, or the export.xml inside it (apple_health_export/export.xml)`;
  }
  if (!st.isFile()) return `${file} is not an ordinary file: give export.zip, export.xml or export.xml.gz`;
  return undefined;
}

/**
 * What a failed import says: the message of a refusal Klebb worded (a file that is no export, a
 * zip without export.xml) or of a system error (EACCES, EIO), without the stack trace, which only
 * an unexpected fault keeps (for a bug report).
 */
function failureText(e: unknown): string {
  if (e instanceof KlebbError) return e.message;
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') return err.message;
  return String(err?.stack ?? e);
}

/** Where the script writes: the summary (`out`), progress and problems (`err`, a terminal when `tty`). */
export interface ImportIo {
  out: (s: string) => void;
  err: (s: string) => void;
  tty?: boolean;
  /** How often the progress is looked at, ms (1000). */
  everyMs?: number;
}

/**
 * Reports `progress` on `io.err` until the returned function is called (which writes the last
 * line): on a terminal one line rewritten in place, else one line per 10 % step.
 */
export function reportProgress(progress: ImportProgress, io: ImportIo): () => void {
  let step = -1;
  const show = () => {
    const v = progress.view();
    if (io.tty) io.err(`\r${progressLine(v)}\u001b[K`);
    else if (Math.floor(v.percent / 10) > step) {
      step = Math.floor(v.percent / 10);
      io.err(`${progressLine(v)}\n`);
    }
  };
  const timer = setInterval(show, io.everyMs ?? 1000);
  return () => {
    clearInterval(timer);
    show();
    if (io.tty) io.err('\n');
  };
}

/**
 * Runs the import: opens the home (no file watcher), imports the file, closes the home (WAL
 * checkpointed). `out` receives the summary JSON, `err` progress and problems.
 * @returns the exit code.
 */
export async function main(
  argv: string[],
  io: ImportIo = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    tty: process.stderr.isTTY,
  },
): Promise<number> {
  let args: ImportArgs;
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
  const notAFile = fileProblem(args.file);
  if (notAFile) {
    io.err(`${notAFile}\n`);
    return 2;
  }
  const env = { ...process.env, ...(args.home ? { HEALTH_HOME: args.home } : {}), KLEBB_LOG_LEVEL: 'silent' };
  const config = loadConfig(env);
  // a home that is a file, may not be written, or makes no folders (/proc) is said in words with
  // exit 2, before anything is made: Node's recursive mkdir retries such a folder for ever
  const folders = homeFolderProblem(config.home, config.dataDir, args.home ? '--home' : 'HEALTH_HOME');
  if (folders) {
    io.err(`cannot import: ${folders}\n`);
    return 2;
  }
  const files = homeFileProblem(config.home, config.dataDir, args.home ? '--home' : 'HEALTH_HOME');
  if (files) {
    io.err(`cannot import: ${files}\n`);
    return 2;
  }
  const inst = await openInstance(config, { watch: false });
  try {
    io.err(`importing ${args.file} into ${inst.layout.home} ...\n`);
    const unpacked = await unpackUpload(args.file, inst.hae.appleHealthMaxBytes, inst.hae.dirs.uploads);
    const progress = new ImportProgress(fs.statSync(unpacked.file).size);
    const stop = reportProgress(progress, io);
    let r: Awaited<ReturnType<typeof importAppleHealthFile>>;
    try {
      r = await importAppleHealthFile(
        inst.hae,
        unpacked.file,
        progress,
        unpacked.warnings,
        unpacked.extraBlocks,
      );
      progress.end();
    } catch (e) {
      progress.end(e);
      throw e;
    } finally {
      stop();
      if (unpacked.file !== args.file) fs.rmSync(unpacked.file, { force: true });
    }
    io.out(`${JSON.stringify({ ok: true, home: inst.layout.home, ...r }, null, 2)}\n`);
    io.err(
      `${r.records} records, ${r.workouts} workouts: ${r.samples} samples (${r.newSamples} new); ` +
        `cards filled: ${
          Object.entries(r.ingested)
            .map(([id, n]) => `${id} ${n}`)
            .join(', ') || 'none'
        }\n`,
    );
    // a file cut short is the one problem a person must not miss under a success line
    if (r.truncated || unpacked.warnings.length) io.err(`WARNING: ${r.warnings[0]}\n`);
    return 0;
  } catch (e) {
    io.err(`import failed: ${failureText(e)}\n`);
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
