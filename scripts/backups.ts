/**
 * `npm run backups [-- --home DIR]`: lists the snapshots of a home (`HEALTH_HOME/backups/`,
 * newest first). `--take` takes a manual snapshot now (the server may be running: the database
 * is copied with SQLite's online backup). `--restore NAME --target DIR` puts snapshot NAME into a
 * fresh home at DIR (nothing but the welcome card), as `npm run import -- --apply` does with an
 * archive; replacing a populated home is done from Settings › Data (Restore, with Roll back).
 * A folder that holds no home is refused (listing, --take), not made into an empty one.
 * Exit codes: 0 done, 1 failed or refused, 2 bad usage or no home there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isManifestFileName } from '../src/cards/manifest-file.js';
import { asksForHelp } from '../src/command-line.js';
import { loadConfig } from '../src/config.js';
import { listSnapshots, snapshotPaths, takeSnapshot } from '../src/data/backups.js';
import { putBackQuietly, recordFreshTarget } from '../src/data/fresh-target.js';
import { applyDatabase, applyFiles, SELECT_ALL } from '../src/data/import-apply.js';
import { applyStagedChoices } from '../src/data/reminder-settings.js';
import { inCurrentSchema } from '../src/data/staged-schema.js';
import { KlebbError } from '../src/errors.js';
import { missingHomeReason } from '../src/home/existing-home.js';
import { homeFileProblem } from '../src/home/home-files.js';
import { homeFolderProblem } from '../src/home/home-folders.js';
import { homeLayout } from '../src/home/home-layout.js';
import { keepNewFilesOwnerOnly } from '../src/home/owner-only.js';
import { openInstance } from '../src/instance.js';
import { MIGRATION_STEPS } from '../src/migration-steps.js';
import { closeDatabase, openDatabase } from '../src/store/database.js';
import { storageFault } from '../src/store/storage-faults.js';

const USAGE = 'usage: npm run backups -- [--home DIR] [--take | --restore NAME --target DIR]';
const HELP = `${USAGE}\nLists the snapshots of a home (HEALTH_HOME, or --home), newest first; --take takes one now; --restore NAME --target DIR puts one into a fresh home (docs/EXPORT.md).`;

/** Parsed command line. */
export interface BackupsArgs {
  home?: string;
  take: boolean;
  restore?: string;
  target?: string;
}

/** @throws Error with the usage text for anything else. */
export function parseArgs(argv: string[]): BackupsArgs {
  const out: BackupsArgs = { take: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--take') out.take = true;
    else if (a === '--home') out.home = path.resolve(value());
    else if (a === '--restore') out.restore = value();
    else if (a === '--target') out.target = path.resolve(value());
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (out.take && out.restore) throw new Error(`--take or --restore, not both\n${USAGE}`);
  if (out.restore && !out.target) throw new Error(`--restore needs --target DIR (a fresh home)\n${USAGE}`);
  return out;
}

/** `n` with its noun, singular for one (`1 card`, `3 rows`). */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function isFresh(target: string): boolean {
  const layout = homeLayout(target);
  const cards = fs.existsSync(layout.dataDir)
    ? fs.readdirSync(layout.dataDir).filter(isManifestFileName)
    : [];
  return !fs.existsSync(layout.dbFile) && cards.every((n) => n === 'welcome.json');
}

/** Runs the command; returns the exit code. */
export async function main(
  argv: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  },
): Promise<number> {
  let args: BackupsArgs;
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
  const config = loadConfig({
    ...process.env,
    ...(args.home ? { HEALTH_HOME: args.home } : {}),
    KLEBB_LOG_LEVEL: 'silent',
  });
  const missing = args.restore ? null : missingHomeReason(config.home, config.dataDir);
  if (missing) {
    io.err(`${missing}\n`);
    return 2;
  }
  try {
    if (args.take) {
      // a file of the home the user may not read or write (a home copied by root): named, no stack
      const files = homeFileProblem(config.home, config.dataDir, args.home ? '--home' : 'HEALTH_HOME');
      if (files) {
        io.err(`${files}\n`);
        return 2;
      }
      const inst = await openInstance(config, { watch: false });
      try {
        const snap = await takeSnapshot(
          {
            db: inst.db,
            home: inst.layout.home,
            cards: () => inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
            reportsDir: inst.layout.reportsDir,
            metaDir: inst.layout.metaDir,
          },
          'manual',
        );
        io.out(`${JSON.stringify({ ok: true, snapshot: snap }, null, 2)}\n`);
      } finally {
        await inst.close();
      }
      return 0;
    }
    if (args.restore && args.target) {
      const src = snapshotPaths(config.home, args.restore);
      if (!isFresh(args.target)) {
        io.err(
          `refused: ${args.target} is not a fresh home; restore into a populated home from Settings › Data\n`,
        );
        return 1;
      }
      const layout = homeLayout(args.target);
      // a target that is a file, may not be written, or makes no folders (/proc, where Node's
      // recursive mkdir retries for ever) is said in words before anything is made
      const homeExisted = fs.existsSync(layout.home);
      const folders = homeFolderProblem(layout.home, layout.dataDir, '--target');
      if (folders) {
        io.err(`refused: ${folders}\n`);
        return 1;
      }
      const target = recordFreshTarget(layout.home, layout.dbFile, homeExisted);
      try {
        const db = openDatabase(layout.dbFile, { steps: MIGRATION_STEPS });
        // a snapshot an older Klebb took is read from a copy in this build's schema
        const current = inCurrentSchema(src, `${layout.dbFile}.restoring`);
        try {
          applyDatabase(db, current.staged, SELECT_ALL, `cli-restore-${Date.now()}`, 'restore');
          applyFiles(layout, src, SELECT_ALL);
          applyStagedChoices(src, SELECT_ALL, layout.home);
        } finally {
          current.done();
          closeDatabase(db);
        }
      } catch (e) {
        putBackQuietly(target);
        throw storageFault(e) ?? e;
      }
      io.out(`${JSON.stringify({ ok: true, restored: args.restore, target: args.target })}\n`);
      return 0;
    }
    const snaps = listSnapshots(config.home);
    for (const s of snaps) {
      const state = s.damaged ? `  damaged: ${s.damaged}` : '';
      io.err(
        `${s.name}  ${s.takenAt}  ${counted(s.cards, 'card')}, ${counted(s.rows, 'row')}, ${(s.bytes / 1e6).toFixed(1)} MB${state}\n`,
      );
    }
    if (snaps.length === 0) io.err(`no snapshots in ${path.join(config.home, 'backups')}\n`);
    io.out(`${JSON.stringify({ home: config.home, snapshots: snaps }, null, 2)}\n`);
    return 0;
  } catch (e) {
    // a full disk or a folder that refuses a write is said in words, like the server's answer
    const known = e instanceof KlebbError ? e : storageFault(e);
    if (known) {
      io.err(`refused (${known.code}): ${known.message}\n`);
      return 1;
    }
    io.err(`failed: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  keepNewFilesOwnerOnly();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
