/**
 * The report routes (docs/API.md "Reports"). Signed-in only; writes also pass the origin check
 * and are refused in the demo (src/auth/gate.ts).
 *
 * - `POST /api/reports/upload`: the raw file as the body, its name URL-encoded in
 *   `X-Klebb-Filename` → 202 `{accepted, filename, used, max}` (200 with `existing: true` and the
 *   report's name for the same file under the same name sent again); 400 (no name, bad name, type,
 *   empty, content not matching the name), 409 REPORT_QUOTA, 413 over the size limit.
 * - `GET /api/reports` → `{quota: {used, max, remaining}, reports, processing, failed}`.
 * - `GET /api/reports/:name/source` (the original, inline, never cached), `/text` (extracted text).
 * - `POST /api/reports/:name/verify`, `POST /api/reports/:name/reprocess` `{psm?, rerunOcr?}` → 202,
 *   `DELETE /api/reports/:name`.
 * - `GET /report/:name`: the report as a standalone page under a strict CSP (report-page.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest, notFound, payloadTooLarge } from '../errors.js';
import { bodyReadError, receiveBody } from '../ingest/hae/webhook/receive.js';
import { bodyStream, rawBodyScope } from '../ingest/raw-body.js';
import type { Instance } from '../instance.js';
import { lazyImport } from '../lazy-module.js';
import { MAX_REPORT_UPLOAD_BYTES } from '../limits.js';
import { contentMismatch } from './file-sniff.js';
import type { ReportsService } from './reports-service.js';
import { findSameUpload } from './same-upload.js';
import { parseUploadName } from './upload-name.js';

/** The report page (with its Markdown renderer), loaded when a report is first opened. */
const pageModule = lazyImport(() => import('./report-page.js'));

/** The upload path. */
export const REPORT_UPLOAD_PATH = '/api/reports/upload';

const NameParams = Type.Object({ name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,80}$' }) });
/** `/report/:name`: any name; one that names no report is the page's own 404. */
const PageParams = Type.Object({ name: Type.String() });
const UploadHeaders = Type.Object({ 'x-klebb-filename': Type.String({ minLength: 1 }) });
const ReprocessBody = Type.Union([
  Type.Object(
    {
      psm: Type.Optional(Type.Integer({ minimum: 0, maximum: 13 })),
      rerunOcr: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

/** First bytes of a file, for the content check. */
function head(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const b = Buffer.alloc(4096);
    return b.subarray(0, fs.readSync(fd, b, 0, b.length, 0));
  } finally {
    fs.closeSync(fd);
  }
}

function uploadRoute(app: FastifyInstance, reports: ReportsService): void {
  rawBodyScope(app, (scope) => {
    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(REPORT_UPLOAD_PATH, { schema: { headers: UploadHeaders } }, async (req, reply) => {
        const stream = bodyStream(req.body) ?? Readable.from([]);
        let release: (() => void) | undefined;
        let part: string | undefined;
        try {
          const upload = parseUploadName(req.headers['x-klebb-filename']);
          release = reports.store.reserve();
          part = path.join(
            reports.store.layout.inboxDir,
            `${Date.now()}-${randomBytes(6).toString('hex')}.part`,
          );
          const partFile = part;
          const received = await receiveBody(stream, {
            maxBytes: MAX_REPORT_UPLOAD_BYTES,
            inlineMaxBytes: 0,
            spoolPath: () => partFile,
            contentLength: req.headers['content-length'],
            contentEncoding: req.headers['content-encoding'],
          });
          if (received.kind === 'tooLarge') {
            throw payloadTooLarge(`the file is larger than ${MAX_REPORT_UPLOAD_BYTES / (1024 * 1024)} MB`);
          }
          if (received.kind === 'failed') throw bodyReadError(received.error);
          if (received.kind === 'inline')
            throw badRequest('the file is empty', [{ path: 'body', message: 'is empty' }], 'EMPTY_FILE');
          const mismatch = contentMismatch(upload.ext, head(received.file));
          if (mismatch) throw badRequest(mismatch, [{ path: 'body', message: mismatch }], 'CONTENT_MISMATCH');
          // the same file sent again (its answer lost, a double tap) is the report it already is
          const already = findSameUpload(reports.store, upload, received.file);
          if (already) {
            release();
            const { used, max } = reports.quota();
            return reply.code(200).send({ accepted: true, filename: already, used, max, existing: true });
          }
          const name = reports.accept(upload, received.file);
          part = undefined;
          release();
          req.log.info({ report: name, bytes: received.bytes }, 'report uploaded');
          const { used, max } = reports.quota();
          return reply.code(202).send({ accepted: true, filename: name, used, max });
        } finally {
          release?.();
          if (part) fs.rmSync(part, { force: true });
          // an early refusal leaves the body unread: drain it so the client reads the answer
          if (!stream.readableEnded) {
            stream.on('error', () => {});
            stream.resume();
          }
        }
      });
  });
}

/** Registers the report routes. */
export function reportRoutes(app: FastifyInstance, inst: Pick<Instance, 'reports'>): void {
  const reports = inst.reports;
  uploadRoute(app, reports);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/reports', async () => {
    const list = reports.list();
    return {
      quota: reports.quota(),
      reports: list,
      processing: list.filter((x) => x.status === 'processing').map((x) => x.name),
      failed: list.filter((x) => x.status === 'rejected').map((x) => x.name),
    };
  });

  r.get('/api/reports/:name/source', { schema: { params: NameParams } }, async (req, reply) => {
    const report = reports.get(req.params.name);
    const file = reports.store.originalPath(report);
    if (!file || !fs.existsSync(file))
      throw notFound(`the original of "${report.name}" is no longer kept`, 'ORIGINAL_MISSING');
    const ext = path.extname(file).slice(1);
    const types: Record<string, string> = {
      pdf: 'application/pdf',
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
    return reply
      .type(types[ext] ?? 'text/plain; charset=utf-8')
      .header('Cache-Control', 'private, no-store')
      .header(
        'Content-Disposition',
        `${ext === 'docx' ? 'attachment' : 'inline'}; filename="${report.name}.${ext}"`,
      )
      .send(fs.createReadStream(file));
  });

  r.get('/api/reports/:name/text', { schema: { params: NameParams } }, async (req, reply) => {
    const report = reports.get(req.params.name);
    let text: string;
    try {
      text = fs.readFileSync(reports.store.textPath(report.name), 'utf8');
    } catch {
      throw notFound(
        `report "${report.name}" has no extracted text (it is ${report.header.status})`,
        'NO_TEXT',
      );
    }
    return reply.type('text/plain; charset=utf-8').header('Cache-Control', 'private, no-store').send(text);
  });

  r.post('/api/reports/:name/verify', { schema: { params: NameParams } }, async (req) =>
    reports.verify(req.params.name),
  );

  r.post(
    '/api/reports/:name/reprocess',
    { schema: { params: NameParams, body: Type.Optional(ReprocessBody) } },
    async (req, reply) => {
      const res = reports.reprocess(req.params.name, req.body ?? {});
      return reply.code(202).send({ accepted: true, ...res });
    },
  );

  r.delete('/api/reports/:name', { schema: { params: NameParams } }, async (req) => {
    reports.remove(req.params.name);
    return { ok: true, name: req.params.name, quota: reports.quota() };
  });

  r.get('/report/:name', { schema: { params: PageParams } }, async (req, reply) => {
    const { REPORT_PAGE_HEADERS, reportPage } = await pageModule();
    const page = reportPage(reports.store.layout.reportsDir, req.params.name);
    if (!page) {
      return reply
        .code(404)
        .headers(REPORT_PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>Not found</title><p>No such report.</p>');
    }
    return reply.headers(REPORT_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
  });
}
