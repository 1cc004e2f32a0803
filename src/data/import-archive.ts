/**
 * Checking and unpacking an archive in one call: open it safely, find its files (also when a zip
 * tool packed them again under a folder, with system files beside them: archive-root.ts), read
 * and check its manifest, stage every file (verified) into `stageDir`. On any refusal the staging folder is removed and
 * the error (a 422 naming what is wrong) is thrown; nothing else was written.
 */
import fs from 'node:fs';
import { exportArchiveView } from './archive-root.js';
import { type CheckedManifest, readManifest } from './import-manifest.js';
import { type StageSummary, stageArchive } from './import-stage.js';
import { openSafeZip, type ZipLimits } from './zip-reader.js';

/** A checked, staged archive. */
export interface StagedArchive {
  manifest: CheckedManifest;
  summary: StageSummary;
  dir: string;
}

/** @throws the refusal (422 `ZIP_*` / `IMPORT_*`) or a disk error; `stageDir` is gone then. */
export async function checkAndStage(
  zipFile: string,
  stageDir: string,
  limits: Partial<ZipLimits> = {},
): Promise<StagedArchive> {
  const zip = exportArchiveView(await openSafeZip(zipFile, limits));
  try {
    const manifest = await readManifest(zip);
    const summary = await stageArchive(zip, manifest, stageDir);
    return { manifest, summary, dir: stageDir };
  } catch (err) {
    fs.rmSync(stageDir, { recursive: true, force: true });
    throw err;
  } finally {
    zip.close();
  }
}
