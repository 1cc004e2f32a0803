/**
 * `npm run import -- FILE.zip [--apply] [--target HOME]`: reads a `klebb.export.v1` archive
 * (docs/EXPORT.md). By default a dry run: the archive is checked in full (every checksum, every
 * row) and the command says what the import would put in the target home and what it would
 * replace. With `--apply` it imports into the target (`--target`, else HEALTH_HOME), which must
 * be fresh (nothing but the welcome card), then exports the result again in memory and checks
 * every file against the archive's checksums. Replacing a populated home is the web app's job
 * (Settings › Data: preview, REPLACE, automatic snapshot, Roll back).
 * Exit codes: 0 done (or the dry run found the archive sound), 1 refused or failed, 2 bad usage.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isManifestFileName } from '../src/cards/manifest-file.js';
import { asksForHelp } from '../src/command-line.js';
import { loadConfig } from '../src/config.js';
import { openSnapshot } from '../src/data/db-snapshot.js';
import { putBackQuietly, recordFreshTarget } from '../src/data/fresh-target.js';
import { applyDatabase, applyFiles, SELECT_ALL } from '../src/data/import-apply.js';
import { checkAndStage } from '../src/data/import-archive.js';
import { verifyImport } from '../src/data/import-verify.js';
import { applyStagedChoices } from '../src/data/reminder-settings.js';
import { stagedPaths } from '../src/data/staged-home.js';
import { KlebbError } from '../src/errors.js';
import { homeFolderProblem } from '../src/home/home-folders.js';
import { homeLayout } from '../src/home/home-layout.js';
import { keepNewFilesOwnerOnly } from '../src/home/owner-only.js';
import { MIGRATION_STEPS } from '../src/migration-steps.js';
import { closeDatabase, openDatabase } from '../src/store/database.js';
import { storageFault } from '../src/store/storage-faults.js';

const USAGE = 'usage: npm run import -- FILE.zip [--apply] [--target HOME]';
const HELP = `${USAGE}\nChecks an archive of npm run export (a dry run); --apply imports it into a fresh home (--target, else HEALTH_HOME) (docs/EXPORT.md).`;

/** Parsed command line. */
export interface ImportArgs {
  file: string;
  apply: boolean;
  target?: string;
}

/** @throws Error with the usage text for anything else. */
export function parseArgs(argv: string[]): ImportArgs {
  let file: string | undefined;
  let target: string | undefined;
  let apply = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--apply') apply = true;
    else if (a === '--target') {
      target = argv[++i];
      if (!target) throw new Error(`--target needs a folder\n${USAGE}`);
    } else if (a.startsWith('--target=')) target = a.slice(9);
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else if (file === undefined) file = a;
    else throw new Error(`one archive only\n${USAGE}`);
  }
  if (!file) throw new Error(USAGE);
  return { file: path.resolve(file), apply, ...(target ? { target: path.resolve(target) } : {}) };
}

/** The cards a home holds now (manifest ids from file names), and whether it holds anything else. */
function homeContents(home: string, dataDir: string): { cards: string[]; fresh: boolean } {
  const cards = fs.existsSync(dataDir)
    ? fs
        .readdirSync(dataDir)
        .filter(isManifestFileName)
        .map((n) => n.slice(0, -5))
    : [];
  let other = 0;
  const dbFile = homeLayout(home, dataDir).dbFile;
  if (fs.existsSync(dbFile)) {
    const db = openSnapshot(dbFile);
    try {
      other =
        (db.prepare("SELECT count(*) FROM card_state WHERE card_id <> 'welcome'").pluck().get() as number) +
        (db.prepare('SELECT count(*) FROM hae_samples').pluck().get() as number) +
        (db.prepare('SELECT count(*) FROM conversations').pluck().get() as number);
    } finally {
      db.close();
    }
  }
  return { cards, fresh: other === 0 && cards.every((c) => c === 'welcome') };
}

/** Runs the command; returns the exit code. */
export async function main(
  argv: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
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
  if (!fs.existsSync(args.file)) {
    io.err(`no such file: ${args.file}\n`);
    return 2;
  }
  const config = loadConfig({ ...process.env, ...(args.target ? { HEALTH_HOME: args.target } : {}) });
  const layout = homeLayout(config.home, args.target ? undefined : config.dataDir);
  const stageDir = path.join(os.tmpdir(), `klebb-import-${randomBytes(6).toString('hex')}`);
  try {
    io.err(`checking ${args.file} ...\n`);
    const staged = await checkAndStage(args.file, stageDir);
    const before = homeContents(layout.home, layout.dataDir);
    const incoming = staged.summary.cards.map((c) => c.id);
    const plan = {
      target: layout.home,
      cards: staged.summary.cards.map((c) => ({ id: c.id, label: c.label, rows: c.rows })),
      samples: staged.summary.samples,
      conversations: staged.summary.conversations,
      reports: staged.summary.reports,
      replaces: before.cards.filter((c) => incoming.includes(c)),
      removes: before.cards.filter((c) => !incoming.includes(c)),
      targetFresh: before.fresh,
    };
    for (const c of plan.cards) io.err(`  card ${c.id} (${c.label}): ${c.rows} rows\n`);
    io.err(
      `  samples: ${plan.samples.samples} from ${plan.samples.pushes} pushes; conversations: ${plan.conversations.conversations} (${plan.conversations.messages} messages); reports: ${plan.reports}\n`,
    );
    if (!args.apply) {
      io.out(`${JSON.stringify({ ok: true, dryRun: true, ...plan }, null, 2)}\n`);
      io.err('the archive is sound; nothing was written (add --apply to import into a fresh home)\n');
      return 0;
    }
    if (!before.fresh) {
      io.err(
        `refused: ${layout.home} is not a fresh home (it holds ${before.cards.join(', ') || 'samples or conversations'}). ` +
          'Import into an empty folder with --target, or replace this home from Settings › Data in the web app.\n',
      );
      return 1;
    }
    const homeExisted = fs.existsSync(layout.home);
    const folders = homeFolderProblem(layout.home, layout.dataDir, args.target ? '--target' : 'HEALTH_HOME');
    if (folders) {
      io.err(`refused: ${folders}\n`);
      return 1;
    }
    const jobId = `cli-${Date.now()}`;
    const target = recordFreshTarget(layout.home, layout.dbFile, homeExisted);
    try {
      const db = openDatabase(layout.dbFile, { steps: MIGRATION_STEPS });
      try {
        applyDatabase(db, stagedPaths(stageDir), SELECT_ALL, jobId, 'import');
        applyFiles(layout, stagedPaths(stageDir), SELECT_ALL);
        applyStagedChoices(stagedPaths(stageDir), SELECT_ALL, layout.home);
        const problems = verifyImport(db, layout, staged.manifest, SELECT_ALL);
        if (problems.length) {
          for (const p of problems) io.err(`  verify: ${p}\n`);
          io.out(`${JSON.stringify({ ok: false, verified: false, problems }, null, 2)}\n`);
          return 1;
        }
      } finally {
        closeDatabase(db);
      }
    } catch (e) {
      putBackQuietly(target);
      throw storageFault(e) ?? e;
    }
    io.out(`${JSON.stringify({ ok: true, applied: true, verified: true, ...plan }, null, 2)}\n`);
    io.err(`imported into ${layout.home}; every file matches the archive's checksums\n`);
    return 0;
  } catch (e) {
    if (e instanceof KlebbError) {
      io.err(`refused (${e.code}): ${e.message}\n`);
      io.out(`${JSON.stringify({ ok: false, code: e.code, error: e.message })}\n`);
      return 1;
    }
    io.err(`import failed: ${(e as Error).stack ?? e}\n`);
    return 1;
  } finally {
    fs.rmSync(stageDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  keepNewFilesOwnerOnly();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
