/**
 * `POST /api/apple-health/import`: an authenticated upload of
 * Apple's `export.zip` or `export.xml` (the raw file as the body, any content type). The body is
 * streamed to disk under `$HEALTH_HOME/ingest/uploads/` first (files reach gigabytes; 413 past
 * KLEBB_APPLE_HEALTH_MAX_BYTES, answered while the rest is drained), unpacked when it is a zip or
 * gzip (unpack-upload.ts), then stream-parsed into the samples store and the subscribed cards are
 * filled. A form upload (multipart/form-data) gives its file part (form-upload.ts). 200 with
 * the import summary; 400 for a form without a file part or with more than one; 422 when the file
 * holds no `<HealthData>` at all; 409 IMPORT_RUNNING while another upload is being imported (one
 * at a time, so the progress route follows the running one).
 *
 * `GET /api/apple-health/import/progress`: how far the running (or the last) import got, for the
 * web app to show while its upload request waits: `{running, phase, percent, etaSeconds, ...}`
 * (progress.ts); `{running: false, phase: null}` when none ran since the server started.
 */
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { badRequest, KlebbError, payloadTooLarge } from '../../errors.js';
import { lazyImport } from '../../lazy-module.js';
import type { HaeIngest } from '../hae/service.js';
import { bodyReadError, receiveBody } from '../hae/webhook/receive.js';
import { bodyStream, rawBodyScope } from '../raw-body.js';
import { spoolName } from '../spool-files.js';
import { type FormFilePart, firstFormFile, formFilesRefused, isMultipartType } from './form-upload.js';
import { ImportProgress, type ImportProgressView, uploadingProgress } from './progress.js';
import { unpackUpload } from './unpack-upload.js';

// the export reader (and its worker thread) loads with the first upload, not at start-up
const exportImport = lazyImport(() => import('./import-xml.js'));

/** The upload path. */
export const APPLE_HEALTH_IMPORT_PATH = '/api/apple-health/import';
/** Where the web app polls the import's progress. */
export const APPLE_HEALTH_PROGRESS_PATH = '/api/apple-health/import/progress';

/** Registers the upload route on `app` (normal auth: session or agent bearer). */
export function appleHealthImportRoute(app: FastifyInstance, svc: HaeIngest): void {
  // the newest import of this server (one person's home: one import at a time is what happens)
  let latest: ImportProgress | undefined;
  app.get(APPLE_HEALTH_PROGRESS_PATH, async () => latest?.view() ?? { running: false, phase: null });
  rawBodyScope(app, (scope) => {
    scope.post(APPLE_HEALTH_IMPORT_PATH, async (req) => {
      const stream = bodyStream(req.body) ?? Readable.from([]);
      if (latest?.running) {
        // one import at a time: a second one would compete for the disk and the samples store,
        // and the progress route could follow only one of them; its body is drained unread
        drain(stream);
        throw importRunning(latest.view());
      }
      const upload = uploadingProgress(Number(req.headers['content-length']) || 0);
      latest = upload;
      let body: Readable = stream;
      let headers = req.headers;
      let formFiles: Promise<FormFilePart[]> | undefined;
      if (isMultipartType(req.headers['content-type'])) {
        // a form: its first file part is spooled like a raw body (form-upload.ts)
        try {
          const form = await firstFormFile(stream, req.headers);
          body = form.stream;
          formFiles = form.allFiles;
        } catch (err) {
          drain(stream);
          upload.end(err);
          throw err;
        }
        headers = { ...req.headers, 'content-length': undefined, 'content-encoding': undefined };
      }
      const received = await receiveUpload(svc, body, headers, upload);
      let file = received.file;
      try {
        // a form's other file parts are known once it is read: refused before anything is imported
        const parts = formFiles ? await formFiles : [];
        if (parts.length > 1) throw formFilesRefused(parts);
        // gzip (once or more) and the Health app's zip are unpacked first
        const unpacked = await unpackUpload(received.file, svc.appleHealthMaxBytes);
        if (unpacked.file !== received.file) {
          fs.rmSync(received.file, { force: true });
          file = unpacked.file;
        }
        // a file that is not an export is refused inside (422 NOT_AN_EXPORT), nothing recorded
        const progress = new ImportProgress(fs.statSync(file).size, upload.started);
        progress.received(received.bytes);
        if (latest === upload) latest = progress;
        let result: Awaited<ReturnType<typeof import('./import-xml.js').importAppleHealthFile>>;
        try {
          const { importAppleHealthFile } = await exportImport();
          result = await importAppleHealthFile(svc, file, progress, unpacked.warnings, unpacked.extraBlocks);
          progress.end();
        } catch (err) {
          progress.end(err);
          throw err;
        }
        // a file cut short or records left out show in the log as counts; the warnings' text
        // (which can quote a record) is in the answer
        req.log.info(
          {
            bytes: received.bytes,
            records: result.records,
            samples: result.samples,
            newSamples: result.newSamples,
            ...(result.warnings.length ? { warnings: result.warnings.length } : {}),
            ...(result.truncated ? { truncated: true } : {}),
            ...(result.xmlErrors ? { xmlErrors: result.xmlErrors } : {}),
          },
          'Apple Health import',
        );
        return { ok: true, ...result };
      } catch (err) {
        upload.end(err);
        throw err;
      } finally {
        fs.rmSync(file, { force: true });
      }
    });
  });
}

/** Reads `stream` to its end, unkept, so the client can send the rest and read the answer. */
function drain(stream: Readable): void {
  stream.on('error', () => {});
  stream.resume();
}

/** The 409 for an upload while `running` (the import under way) is not finished. */
function importRunning(running: ImportProgressView): KlebbError {
  return new KlebbError(
    409,
    'IMPORT_RUNNING',
    `another Apple Health import is running (started ${running.startedAt}, ${running.percent} % done, ${running.phase}): nothing of this upload was kept; upload it again once that one is done`,
  );
}

/**
 * Spools the upload to a file of the uploads folder.
 * @throws 413 over KLEBB_APPLE_HEALTH_MAX_BYTES, 400 for an empty or unreadable body (the
 *   progress `upload` then says failed).
 */
async function receiveUpload(
  svc: HaeIngest,
  stream: Readable,
  headers: IncomingHttpHeaders,
  upload: ImportProgress,
): Promise<{ file: string; bytes: number }> {
  const received = await receiveBody(stream, {
    maxBytes: svc.appleHealthMaxBytes,
    inlineMaxBytes: 0,
    spoolPath: () => path.join(svc.dirs.uploads, spoolName('xml')),
    contentLength: headers['content-length'],
    contentEncoding: headers['content-encoding'],
    onBytes: (bytes) => upload.received(bytes),
  });
  try {
    if (received.kind === 'tooLarge') {
      throw payloadTooLarge(
        `the upload is larger than ${svc.appleHealthMaxBytes} bytes (KLEBB_APPLE_HEALTH_MAX_BYTES)`,
      );
    }
    if (received.kind === 'failed') throw bodyReadError(received.error);
    if (received.kind === 'inline')
      throw badRequest('the body is empty: send the export.xml file as the request body');
  } catch (err) {
    upload.end(err);
    throw err;
  }
  return received;
}
