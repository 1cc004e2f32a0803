/**
 * HTTP routes of "your data is yours" (docs/API.md "Export, import and backups"):
 * `GET /api/export` streams the whole home as a zip; `GET /api/manifests/:id/export.csv` one
 * card's rows as CSV. Thin: parse, authorise, call the plain functions in src/data/.
 */
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireCard } from '../cards/card-context.js';
import { forbidden } from '../errors.js';
import type { Instance } from '../instance.js';
import { cardCsvLines } from './card-csv.js';
import { ExportService } from './export-service.js';

const CardParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

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

  r.get('/api/manifests/:id/export.csv', { schema: { params: CardParams } }, async (req, reply) => {
    const card = requireCard(inst.cards, req.params.id);
    const meta = card.manifest.meta as Record<string, unknown>;
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(`${card.id}.csv`))
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(cardCsvLines(inst.db, card.id, meta)));
  });
}
