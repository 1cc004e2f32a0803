/**
 * HTTP routes of "your data is yours" (docs/API.md "Export, import and backups"):
 * `GET /api/export` streams the whole home as a zip; `GET /api/manifests/:id/export.csv` one
 * card's rows as CSV; `/api/import/*` the import wizard (upload, start, status, apply, rollback,
 * abort); `/api/backups` the snapshots (list, take one now, restore). While an import applies,
 * every other `/api/` route, `/mcp` and taking a snapshot answer 503 IMPORT_FROZEN with Retry-After. Thin: parse, authorise, call the plain
 * functions in src/data/. Also starts the daily snapshot timer of the home.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findCard } from '../cards/card-context.js';
import { requestTimeZone } from '../cards/request-person-day.js';
import { isIsoDate } from '../common/dates.js';
import { badRequest, forbidden, payloadTooLarge } from '../errors.js';
import { inBody } from '../http/body-fields.js';
import { bodyReadError, receiveBody } from '../ingest/hae/webhook/receive.js';
import { bodyStream, rawBodyScope } from '../ingest/raw-body.js';
import type { Instance } from '../instance.js';
import { IMPORT_MAX_UPLOAD_BYTES } from '../limits.js';
import { CalendarDay } from '../schemas/common.js';
import { importFrozen } from '../store/home-freeze.js';
import { listSnapshots, takeSnapshot } from './backups.js';
import { type CsvDialect, cardCsvLines, csvDialectFor } from './card-csv.js';
import { summariseCard } from './doctor-summary.js';
import { ExportService } from './export-service.js';
import type { Selection } from './import-apply.js';
import { ImportJobs } from './import-job.js';
import { SnapshotTimer } from './snapshot-timer.js';
import { summaryCards } from './summary-cards.js';

const CardParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const SnapshotParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
const SelectionBody = Type.Object({
  cards: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10_000 })]),
  ),
  samples: Type.Optional(Type.Boolean()),
  conversations: Type.Optional(Type.Boolean()),
  reports: Type.Optional(Type.Boolean()),
});
/** The selection a request sent, without the keys it left out (they take their defaults). */
function selectionOf(sel: Static<typeof SelectionBody> | undefined): Partial<Selection> | undefined {
  return (
    sel && {
      ...(sel.cards !== undefined ? { cards: sel.cards } : {}),
      ...(sel.samples !== undefined ? { samples: sel.samples } : {}),
      ...(sel.conversations !== undefined ? { conversations: sel.conversations } : {}),
      ...(sel.reports !== undefined ? { reports: sel.reports } : {}),
    }
  );
}
const CheckBody = Type.Object({ selection: Type.Optional(SelectionBody) });
const ApplyBody = Type.Object({
  nonce: Type.String({ minLength: 1, maxLength: 200 }),
  confirm: Type.Optional(Type.String({ maxLength: 20 })),
  selection: Type.Optional(SelectionBody),
});
const SummaryQuery = Type.Object({
  from: CalendarDay('first day of the summary'),
  to: CalendarDay('last day of the summary'),
  cards: Type.Optional(Type.String({ maxLength: 10_000 })),
});
/** `locale`: the reader's language tag; a comma-decimal language gets `;` and `85,3`. */
const CsvQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 64 })) });
const RestoreBody = Type.Object({ confirm: Type.Optional(Type.String({ maxLength: 20 })) });

/** Routes refused while the home is frozen: the API and MCP. */
const FROZEN = /^\/(api\/|mcp$)/;
/**
 * Import and restore routes stay open while the home is frozen (the wizard polls its status;
 * a second job is refused with 409 JOB_ACTIVE), but for taking a snapshot, which would copy a
 * home half replaced.
 */
const OPEN_WHILE_FROZEN = /^\/api\/(import|backups)(\/|$)/;
const TAKES_SNAPSHOT = (method: string, url: string) => method === 'POST' && url === '/api/backups';

/** `attachment; filename="…"` with an ASCII fallback and the RFC 5987 form. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Registers the export and CSV routes. */
export function dataRoutes(app: FastifyInstance, inst: Instance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const exports = new ExportService({
    db: inst.db,
    layout: inst.layout,
    instanceName: inst.config.instanceName,
    cards: () => inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
  });

  const liveCards = () => inst.cards.registry.all().map((c) => ({ id: c.id, file: c.file }));
  const jobs = new ImportJobs({
    db: inst.db,
    layout: inst.layout,
    cards: inst.cards,
    retention: inst.config.backups,
    timeZone: () => inst.user.timeZone(),
    afterApply: () => {
      inst.conversations.forgetCache();
      // the cards of metrics an older snapshot's migration listed get this version's rows now
      try {
        inst.hae.recomputePending();
      } catch {
        // the list stays: tried again with the next push or at the next start
      }
    },
    freeze: inst.freeze,
    reminders: {
      target: inst.push.state,
      arm: (ids) => {
        for (const id of ids) inst.push.armCard(id);
      },
    },
  });
  const snapshotSource = {
    db: inst.db,
    home: inst.layout.home,
    cards: liveCards,
    reportsDir: inst.layout.reportsDir,
    metaDir: inst.layout.metaDir,
  };
  const timer = new SnapshotTimer(
    snapshotSource,
    inst.config.backups,
    (msg, o) => app.log.info(o, msg),
    () => inst.user.timeZone(),
  );
  app.addHook('onReady', async () => timer.start());
  app.addHook('onClose', async () => {
    await timer.stop();
    await jobs.settled();
  });
  // checked when the request begins, and again once its body has arrived: a write whose body
  // was still coming when the job began is refused too (the write gate refuses the rest)
  const refuseWhileFrozen = async (req: FastifyRequest) => {
    if (!jobs.frozen) return;
    const url = req.routeOptions.url ?? req.url.split('?')[0];
    const open = OPEN_WHILE_FROZEN.test(url) && !TAKES_SNAPSHOT(req.method, url);
    if (FROZEN.test(url) && !open) throw importFrozen();
  };
  // an MCP request is refused once its body is read, so its JSON-RPC error repeats its id
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.url !== '/mcp') await refuseWhileFrozen(req);
  });
  app.addHook('preHandler', refuseWhileFrozen);
  const noDemo = () => {
    if (inst.config.demo)
      throw forbidden('Uploads, export and import are switched off in this demo', 'DEMO_MODE');
  };

  r.get('/api/export', async (req, reply) => {
    if (inst.config.demo)
      throw forbidden('Uploads, export and import are switched off in this demo', 'DEMO_MODE');
    const started = await exports.start();
    req.log.info({ file: started.fileName }, 'export started');
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(started.fileName))
      .header('cache-control', 'no-store');
    return reply.send(started.stream);
  });

  r.get(
    '/api/manifests/:id/export.csv',
    { schema: { params: CardParams, querystring: CsvQuery } },
    async (req, reply) => {
      let dialect: CsvDialect;
      try {
        dialect = csvDialectFor(req.query.locale);
      } catch {
        throw badRequest('"locale" must be a language tag such as de-DE or en', [
          { path: 'query.locale', message: 'is not a language tag' },
        ]);
      }
      const card = findCard(inst.cards, req.params.id);
      const meta = card.manifest.meta as Record<string, unknown>;
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(`${card.id}.csv`))
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(cardCsvLines(inst.db, card.id, meta, dialect)));
    },
  );

  r.get('/api/summary', { schema: { querystring: SummaryQuery } }, async (req) => {
    const { from, to } = req.query;
    // the pattern lets 2026-02-30 through; a day that is not on the calendar is a mistake
    const offCalendar = (['from', 'to'] as const).filter((k) => !isIsoDate(req.query[k]));
    if (offCalendar.length > 0)
      throw badRequest(
        `"${offCalendar[0]}" is not a calendar date (YYYY-MM-DD)`,
        offCalendar.map((k) => ({ path: `query.${k}`, message: 'is not a calendar date' })),
      );
    if (to < from)
      throw badRequest('"to" is before "from"', [{ path: 'query.to', message: 'is before from' }]);
    const cards = summaryCards(inst.cards.registry, req.query.cards);
    // the days are the person's, in the zone of the device asking (X-Klebb-Time-Zone), else the
    // one reported last: a reading sent as an instant counts on its day there, and "today" of a
    // schedule's adherence is that device's today
    const tz = requestTimeZone(req, inst);
    return {
      from,
      to,
      generatedAt: new Date().toISOString(),
      cards: cards.map((c) =>
        summariseCard(inst.db, { id: c.id, meta: c.manifest.meta as Record<string, unknown> }, from, to, tz),
      ),
    };
  });

  rawBodyScope(app, (scope) => {
    scope.post('/api/import/upload', async (req) => {
      noDemo();
      const target = jobs.uploadPath();
      const part = path.join(path.dirname(target), `.upload-${randomBytes(6).toString('hex')}.part`);
      const received = await receiveBody(bodyStream(req.body) ?? Readable.from([]), {
        maxBytes: IMPORT_MAX_UPLOAD_BYTES,
        inlineMaxBytes: 0,
        spoolPath: () => part,
        contentLength: req.headers['content-length'],
        contentEncoding: req.headers['content-encoding'],
      });
      if (received.kind === 'tooLarge')
        throw payloadTooLarge(`the archive is larger than ${IMPORT_MAX_UPLOAD_BYTES} bytes`);
      if (received.kind === 'failed') {
        fs.rmSync(part, { force: true });
        throw bodyReadError(received.error);
      }
      if (received.kind === 'inline')
        throw badRequest('the body is empty: send the export zip as the request body');
      fs.renameSync(received.file, target);
      return { ok: true, bytes: received.bytes };
    });
  });

  r.post('/api/import/start', async () => {
    noDemo();
    return jobs.start();
  });
  r.get('/api/import/status', async () => jobs.status());
  // the body is optional, as `{selection?}` says: no body checks the whole archive
  r.post('/api/import/check', { schema: { body: Type.Optional(CheckBody) } }, async (req) => {
    noDemo();
    return { ok: true, ...inBody(() => jobs.checkSelection(selectionOf(req.body?.selection))) };
  });
  r.post('/api/import/apply', { schema: { body: ApplyBody } }, async (req, reply) => {
    noDemo();
    const out = inBody(() =>
      jobs.apply({
        nonce: req.body.nonce,
        confirm: req.body.confirm,
        selection: selectionOf(req.body.selection),
      }),
    );
    return reply.code(202).send(out);
  });
  r.post('/api/import/rollback', async (_req, reply) => {
    noDemo();
    return reply.code(202).send(jobs.rollback());
  });
  r.post('/api/import/abort', async () => {
    jobs.abort();
    return { ok: true };
  });

  r.get('/api/backups', async () => ({
    snapshots: listSnapshots(inst.layout.home),
    retention: inst.config.backups,
  }));
  r.post('/api/backups', async (_req, reply) => {
    noDemo();
    return reply.code(201).send({ snapshot: await takeSnapshot(snapshotSource, 'manual') });
  });
  r.post(
    '/api/backups/:name/restore',
    // the body is optional: a bare POST is answered by the word check (428) or the name (404)
    { schema: { params: SnapshotParams, body: Type.Optional(RestoreBody) } },
    async (req, reply) => {
      noDemo();
      return reply.code(202).send(jobs.restore(req.params.name, req.body?.confirm));
    },
  );
}
